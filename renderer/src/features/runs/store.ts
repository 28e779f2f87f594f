import { create } from 'zustand';
import {
  widenable,
  type RunRecord,
  type RunSummary,
  type RunTransition,
  type Violation,
} from '../../../../shared/contract';
import { client, errorMessage } from '../../lib/client';
import { useSkillsStore } from '../skills/store';
import { addTransition, appendOutput, finishRecord, upsertSummary, type OutputChunk } from './model';

const LIST_LIMIT = 100;

/** The Run form's fields, kept per skill so switching tabs or skills loses nothing. */
export interface RunDraft {
  task: string;
  entrypoint: string;
  inputText: string;
}
export const EMPTY_DRAFT: RunDraft = { task: '', entrypoint: '', inputText: '' };

export interface RunsState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  /** Recent runs, newest first. */
  runs: RunSummary[];
  /** Full records of runs the window has looked at or watched. */
  records: Record<string, RunRecord>;
  /** Output streamed while the run went on (`run.output`), per run. */
  output: Record<string, OutputChunk[]>;
  selectedId: string | null;
  drafts: Record<string, RunDraft>;
  /** The run started last from each skill's Run tab, by skill id. */
  lastBySkill: Record<string, string>;
  /** A start or retry on its way. */
  busy: boolean;
  /** Why the last start from a skill's Run tab failed, by skill id. */
  startErrors: Record<string, string>;
  /** Why the last retry or stop of a run failed, by run id. */
  runErrors: Record<string, string>;
}

export interface RunsActions {
  /** Follows the run events and loads the recent runs once; later calls do nothing. */
  start(): void;
  select(id: string | null): void;
  /** Loads a run's record (again while it runs, for the timeline so far). */
  ensureRecord(id: string): Promise<void>;
  setDraft(skillId: string, patch: Partial<RunDraft>): void;
  /** `run.start`; the new run is selected and remembered for the skill's Run tab. */
  startRun(
    skillId: string,
    input: { task: string; entrypoint?: string; input?: Record<string, unknown> },
  ): Promise<string | null>;
  /** Same skill, task and input; with a violation, asks to widen that grant first. */
  retry(runId: string, violation?: Violation): Promise<string | null>;
  cancel(runId: string): Promise<void>;
}

let started = false;

const without = (record: Record<string, string>, key: string): Record<string, string> => {
  if (!(key in record)) return record;
  const { [key]: _dropped, ...rest } = record;
  return rest;
};

/** A widening the contract accepts: only writes, reads and hosts can be granted (DESIGN §4). */
export { widenable };

export const useRunsStore = create<RunsState & RunsActions>()((set, get) => {
  const fetching = new Set<string>();
  // Transitions of a run whose record is still on its way: `runs.get` may answer with an older timeline.
  const early = new Map<string, RunTransition[]>();

  const putRecord = (record: RunRecord) =>
    set((s) => {
      const id = record.summary.run_id;
      const current = s.records[id];
      // An answer that left before the run ended must not undo the result that arrived since.
      if (current?.result && !record.result) return {};
      const extra = [...(current?.timeline ?? []), ...(early.get(id) ?? [])];
      early.delete(id);
      const timeline = extra.reduce(addTransition, record.timeline);
      return {
        records: { ...s.records, [id]: { ...record, timeline } },
        runs: upsertSummary(s.runs, record.summary),
      };
    });

  /** A run the window has not seen (started by the chat, another window): learn it from the engine. */
  const learn = (id: string) => {
    if (!get().records[id] && !fetching.has(id)) void get().ensureRecord(id);
  };

  const afterStart = (skillId: string, skill: string, runId: string) =>
    set((s) => {
      const summary: RunSummary = {
        run_id: runId,
        skill,
        skill_id: skillId,
        task: '',
        status: 'running',
        sandbox: 'none',
        started_at: new Date().toISOString(),
        duration_ms: null,
      };
      return {
        busy: false,
        selectedId: runId,
        lastBySkill: { ...s.lastBySkill, [skillId]: runId },
        runs: s.runs.some((r) => r.run_id === runId) ? s.runs : upsertSummary(s.runs, summary),
      };
    });

  return {
    status: 'idle',
    error: null,
    runs: [],
    records: {},
    output: {},
    selectedId: null,
    drafts: {},
    lastBySkill: {},
    busy: false,
    startErrors: {},
    runErrors: {},

    start() {
      if (started) return;
      started = true;
      const c = client();
      c.on('run.transition', (t) => {
        const record = get().records[t.run_id];
        if (!record) {
          early.set(t.run_id, [...(early.get(t.run_id) ?? []), t]);
          return learn(t.run_id);
        }
        // The summary learns the sandbox from the `running` step; the result confirms it at the end.
        const summary = t.sandbox ? { ...record.summary, sandbox: t.sandbox } : record.summary;
        set((s) => ({
          records: {
            ...s.records,
            [t.run_id]: { ...record, summary, timeline: addTransition(record.timeline, t) },
          },
          runs: summary !== record.summary ? upsertSummary(s.runs, summary) : s.runs,
        }));
      });
      c.on('run.output', ({ run_id, stream, chunk }) =>
        set((s) => ({
          output: { ...s.output, [run_id]: appendOutput(s.output[run_id] ?? [], { stream, text: chunk }) },
        })),
      );
      c.on('run.finished', (result) => {
        putRecord(finishRecord(get().records[result.run_id], result));
        // The task and input live in the record only; fetch it when the window never saw this run.
        if (!get().records[result.run_id]?.summary.task) void get().ensureRecord(result.run_id);
      });
      set({ status: 'loading' });
      client()
        .invoke('runs.list', { limit: LIST_LIMIT })
        .then(
          ({ runs }) =>
            set((s) => ({
              status: 'ready',
              // Runs the events told about while the list loaded are as new or newer.
              runs: s.runs.reduce((list, r) => upsertSummary(list, r), runs),
            })),
          (error: unknown) => set({ status: 'error', error: errorMessage(error) }),
        );
    },

    select(id) {
      set({ selectedId: id });
      if (id) void get().ensureRecord(id);
    },

    async ensureRecord(id) {
      const current = get().records[id];
      if ((current?.result && current.summary.task) || fetching.has(id)) return;
      fetching.add(id);
      try {
        putRecord(await client().invoke('runs.get', { run_id: id }));
      } catch {
        // A run pruned from the records: the list keeps its summary, the detail says it is gone.
      } finally {
        fetching.delete(id);
      }
    },

    setDraft: (skillId, patch) =>
      set((s) => ({
        drafts: { ...s.drafts, [skillId]: { ...EMPTY_DRAFT, ...s.drafts[skillId], ...patch } },
      })),

    async startRun(skillId, input) {
      set((s) => ({ busy: true, startErrors: without(s.startErrors, skillId) }));
      try {
        const { run_id } = await client().invoke('run.start', { id: skillId, ...input });
        afterStart(skillId, useSkillsStore.getState().byId[skillId]?.name ?? '', run_id);
        void get().ensureRecord(run_id);
        return run_id;
      } catch (error) {
        set((s) => ({ busy: false, startErrors: { ...s.startErrors, [skillId]: errorMessage(error) } }));
        return null;
      }
    },

    async retry(runId, violation) {
      const previous = get().records[runId]?.summary;
      set((s) => ({ busy: true, runErrors: without(s.runErrors, runId) }));
      try {
        const widen =
          violation && widenable(violation) ? { kind: violation.kind, target: violation.target } : undefined;
        const { run_id } = await client().invoke(
          'run.retry',
          widen ? { run_id: runId, widen } : { run_id: runId },
        );
        afterStart(previous?.skill_id ?? '', previous?.skill ?? '', run_id);
        void get().ensureRecord(run_id);
        return run_id;
      } catch (error) {
        set((s) => ({ busy: false, runErrors: { ...s.runErrors, [runId]: errorMessage(error) } }));
        return null;
      }
    },

    async cancel(runId) {
      try {
        await client().invoke('run.cancel', { run_id: runId });
      } catch (error) {
        set((s) => ({ runErrors: { ...s.runErrors, [runId]: errorMessage(error) } }));
      }
    },
  };
});
