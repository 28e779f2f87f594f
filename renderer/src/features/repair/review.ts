import type { StateCreator } from 'zustand';
import type { RepairProposal, RepairRevision } from '../../../../shared/contract';
import { client, errorMessage } from '../../lib/client';
import { useRunsStore } from '../runs/store';
import type { Loadable } from '../skills/store';
import { without } from './model';
import {
  describeSelection,
  isWhole,
  rejectedHunks,
  selectionRequest,
  toggleFile,
  toggleHunk,
  wholeSelection,
  type ReviewSelection,
} from './selection';
import type { RepairStore } from './store';

/** An applied proposal and the original request run again on the patched skill. */
export interface ApplyOutcome {
  proposalId: string;
  revision: RepairRevision;
  /** False for a proposal made without a run (a frontmatter fix): there is no request to run again. */
  retries: boolean;
  /** The retry's run id once it started. */
  retryRunId: string | null;
  retryError: string | null;
}

export type ReviewAction = 'recheck' | 'apply' | 'reject';

/** The review of one repair's proposals: hunk choices, edits, re-check, apply and reject. */
export interface ReviewSlice {
  /** Every proposal of a repair (superseded ones too), by repair id. */
  proposals: Record<string, Loadable<RepairProposal[]>>;
  /** The user's choices by proposal id; absent means "as proposed". */
  selections: Record<string, ReviewSelection>;
  /** The file tab shown, by proposal id. */
  activeFiles: Record<string, string>;
  busy: { proposalId: string; action: ReviewAction } | null;
  /** Why the last action on a proposal failed, by proposal id. */
  reviewErrors: Record<string, string>;
  /** What a re-check before applying found when it stopped the apply, by proposal id. */
  notices: Record<string, string>;
  /** Applied repairs, by repair id. */
  outcomes: Record<string, ApplyOutcome>;
  loadRepair(repairId: string): Promise<void>;
  /** A `repair.proposed` event, or a proposal an action returned. */
  putProposal(p: RepairProposal): void;
  toggleHunk(p: RepairProposal, index: number, accept: boolean): void;
  toggleFile(p: RepairProposal, path: string, accept: boolean): void;
  /** The proposed side of a file as the user edited it; null drops the edit. */
  setEdited(p: RepairProposal, path: string, content: string | null): void;
  setActiveFile(proposalId: string, path: string): void;
  /** `repair.revise` with the current choices: validated and replayed again as a new proposal. */
  recheck(p: RepairProposal): Promise<RepairProposal | null>;
  /** Applies the choices (re-checked first unless they are the replayed proposal), then runs the request again. */
  apply(p: RepairProposal): Promise<void>;
  reject(p: RepairProposal, reason: string): Promise<void>;
}

const upsert = (list: RepairProposal[], p: RepairProposal): RepairProposal[] => [
  ...list.filter((x) => x.id !== p.id),
  p,
];

export const createReviewSlice: StateCreator<RepairStore, [], [], ReviewSlice> = (set, get) => {
  const selectionOf = (p: RepairProposal) => get().selections[p.id] ?? wholeSelection(p);
  const choose = (p: RepairProposal, next: ReviewSelection) =>
    set((s) => ({
      selections: { ...s.selections, [p.id]: next },
      notices: without(s.notices, p.id),
    }));
  const begin = (p: RepairProposal, action: ReviewAction) =>
    set((s) => ({ busy: { proposalId: p.id, action }, reviewErrors: without(s.reviewErrors, p.id) }));
  const fail = (p: RepairProposal, error: unknown) =>
    set((s) => ({ reviewErrors: { ...s.reviewErrors, [p.id]: errorMessage(error) } }));

  /** `repair.revise`; the old proposal is superseded, the new one opens with its tab kept. */
  const revise = async (p: RepairProposal): Promise<RepairProposal> => {
    const next = await client().invoke('repair.revise', {
      proposal_id: p.id,
      ...selectionRequest(selectionOf(p), p),
    });
    get().putProposal({ ...p, status: 'superseded' });
    get().putProposal(next);
    const tab = get().activeFiles[p.id];
    if (tab && next.patched_files.includes(tab)) get().setActiveFile(next.id, tab);
    return next;
  };

  /** The original request, again, on the patched skill (a managed copy when the skill was bundled). */
  const retry = async (p: RepairProposal, revision: RepairRevision): Promise<Partial<ApplyOutcome>> => {
    const runs = useRunsStore.getState();
    await runs.ensureRecord(p.run_id);
    const record = useRunsStore.getState().records[p.run_id];
    if (!record) return { retryError: 'The original run is no longer recorded, so it was not run again.' };
    const runId = await runs.startRun(revision.skill_id, {
      task: record.summary.task,
      input: record.input,
      ...(record.entrypoint ? { entrypoint: record.entrypoint } : {}),
    });
    return runId
      ? { retryRunId: runId }
      : { retryError: useRunsStore.getState().startErrors[revision.skill_id] ?? 'The retry did not start.' };
  };

  return {
    proposals: {},
    selections: {},
    activeFiles: {},
    busy: null,
    reviewErrors: {},
    notices: {},
    outcomes: {},

    async loadRepair(repairId) {
      if (!get().proposals[repairId])
        set((s) => ({ proposals: { ...s.proposals, [repairId]: { status: 'loading' } } }));
      try {
        const { proposals } = await client().invoke('repair.proposals', { repair_id: repairId });
        set((s) => {
          // A proposal announced while the answer travelled is kept.
          const known = s.proposals[repairId];
          const extra =
            known?.status === 'ready' ? known.data.filter((p) => !proposals.some((x) => x.id === p.id)) : [];
          return {
            proposals: { ...s.proposals, [repairId]: { status: 'ready', data: [...proposals, ...extra] } },
          };
        });
      } catch (error) {
        set((s) => ({
          proposals: { ...s.proposals, [repairId]: { status: 'error', error: errorMessage(error) } },
        }));
      }
    },

    putProposal: (p) =>
      set((s) => {
        const current = s.proposals[p.repair_id];
        const list = current?.status === 'ready' ? current.data : [];
        return { proposals: { ...s.proposals, [p.repair_id]: { status: 'ready', data: upsert(list, p) } } };
      }),

    toggleHunk: (p, index, accept) => choose(p, toggleHunk(selectionOf(p), index, accept)),
    toggleFile: (p, path, accept) => choose(p, toggleFile(selectionOf(p), p, path, accept)),
    setEdited(p, path, content) {
      const sel = selectionOf(p);
      if (content === null ? !(path in sel.edited) : sel.edited[path] === content) return;
      choose(p, {
        ...sel,
        edited: content === null ? without(sel.edited, path) : { ...sel.edited, [path]: content },
      });
    },
    setActiveFile: (proposalId, path) =>
      set((s) => ({ activeFiles: { ...s.activeFiles, [proposalId]: path } })),

    async recheck(p) {
      begin(p, 'recheck');
      try {
        return await revise(p);
      } catch (error) {
        fail(p, error);
        return null;
      } finally {
        set({ busy: null });
      }
    },

    async apply(p) {
      begin(p, 'apply');
      let target = p;
      try {
        if (!isWhole(selectionOf(p), p)) {
          // The replay shown must be the replay of what is applied (DESIGN §5): re-check the choice first.
          const chosen = describeSelection(selectionOf(p), p);
          target = await revise(p);
          set({ busy: { proposalId: target.id, action: 'apply' } });
          if (target.replay.verdict !== 'passes') {
            set((s) => ({
              notices: {
                ...s.notices,
                [target.id]: `Your choice (${chosen}) was replayed before applying: ${target.replay.summary}. Nothing was applied. Apply again to apply it as it is, or change the hunks.`,
              },
            }));
            return;
          }
        }
        const revision = await client().invoke('repair.apply', { proposal_id: target.id });
        get().putProposal({ ...target, status: 'applied' });
        const retries = !!p.run_id;
        const outcome: ApplyOutcome = {
          proposalId: target.id,
          revision,
          retries,
          retryRunId: null,
          retryError: null,
        };
        set((s) => ({ outcomes: { ...s.outcomes, [p.repair_id]: outcome } }));
        if (!retries) return;
        const retried = await retry(target, revision);
        set((s) => ({ outcomes: { ...s.outcomes, [p.repair_id]: { ...outcome, ...retried } } }));
      } catch (error) {
        fail(target, error);
        // A stale proposal says so once the list is fresh.
        void get().loadRepair(p.repair_id);
      } finally {
        set({ busy: null });
      }
    },

    async reject(p, reason) {
      begin(p, 'reject');
      try {
        const sel = selectionOf(p);
        const rejected = rejectedHunks(sel, p);
        // The user's own text goes with the rejection: the next attempt hears what they wanted.
        const edited = Object.entries(sel.edited).map(([path, content]) => ({ path, content }));
        get().putProposal(
          await client().invoke('repair.reject', {
            proposal_id: p.id,
            ...(reason.trim() ? { reason: reason.trim() } : {}),
            ...(rejected ? { rejected_hunks: rejected } : {}),
            ...(edited.length ? { edited } : {}),
          }),
        );
      } catch (error) {
        fail(p, error);
      } finally {
        set({ busy: null });
      }
    },
  };
};
