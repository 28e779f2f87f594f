import type {
  RunRecord,
  RunResult,
  RunScript,
  RunState,
  RunSummary,
  RunTransition,
} from '../../../../shared/contract';
import type { Tone } from '../../ui/Badge';

/** What a run row and badge show: the end status, or where a run under way stands. */
export type RunLook = RunSummary['status'] | 'awaiting_approval';

/** Each look has its own label and icon (see StatusBadge), never colour alone. */
export const LOOKS: Record<RunLook, { label: string; tone: Tone; help: string }> = {
  success: { label: 'Succeeded', tone: 'green', help: 'The skill finished and exited 0' },
  failure: { label: 'Failed', tone: 'red', help: 'The skill ran and failed, or could not start' },
  denied: { label: 'Denied', tone: 'orange', help: 'Approval was refused or timed out: nothing ran' },
  timeout: { label: 'Timed out', tone: 'amber', help: 'It ran past its time limit and was stopped' },
  blocked: { label: 'Blocked', tone: 'violet', help: 'The sandbox stopped something outside its grants' },
  cancelled: { label: 'Stopped', tone: 'neutral', help: 'Stopped by you' },
  running: { label: 'Running', tone: 'blue', help: 'Under way' },
  awaiting_approval: { label: 'Needs approval', tone: 'amber', help: 'Waiting for your answer' },
};

/** A run under way whose last step asks for approval says so; the list shows it at a glance. */
export function runLook(summary: Pick<RunSummary, 'status'>, timeline: readonly RunTransition[]): RunLook {
  if (summary.status !== 'running') return summary.status;
  return timeline.at(-1)?.state === 'awaiting_approval' ? 'awaiting_approval' : 'running';
}

/** Whether a command ran, as far as the window can tell; `pending`: not started, no sandbox yet. */
export type Ran = 'yes' | 'no' | 'unknown' | 'pending';

export function commandRan(
  summary: Pick<RunSummary, 'status'>,
  timeline: readonly RunTransition[] | undefined,
  result: Pick<RunResult, 'command' | 'primary_failure' | 'scripts'> | null | undefined,
): Ran {
  // A fallback's answer may have run nothing, after the skill's own command did. An instruction
  // skill has no command of its own, but the scripts its model ran did run (older records lack
  // `scripts`: their timeline's `running` steps say so, each is a command starting).
  if (result)
    return result.command.length > 0 ||
      result.primary_failure?.command.length ||
      result.scripts?.length ||
      timeline?.some((t) => t.state === 'running')
      ? 'yes'
      : 'no';
  if (summary.status === 'denied') return 'no';
  if (summary.status === 'running') return timeline?.some((t) => t.state === 'running') ? 'yes' : 'pending';
  // A list row without its record: `none` may mean a template fill or an unsandboxed command.
  return 'unknown';
}

/**
 * The scripts a run's Command section does not already show: all of an instruction skill's
 * (its model ran them through the tools), none of a script run that ran its own command once.
 */
export function scriptsBeyondCommand(result: Pick<RunResult, 'command' | 'scripts'>): RunScript[] {
  const scripts = result.scripts ?? [];
  const own = (s: RunScript) => s.command.join('\0') === result.command.join('\0');
  return scripts.length === 1 && own(scripts[0]) ? [] : scripts;
}

/**
 * A step's detail around the script it names ("running `scripts/x.sh` in the bwrap sandbox"), so
 * the window sets the name as code; null when the step names none (records from before it was kept).
 */
export function scriptInDetail(
  t: Pick<RunTransition, 'detail' | 'script'>,
): { before: string; script: string; after: string } | null {
  if (!t.script) return null;
  const at = t.detail.indexOf(t.script);
  // The engine's words always hold it; should they not, the name still shows, after them.
  if (at < 0) return { before: `${t.detail} `, script: t.script, after: '' };
  return { before: t.detail.slice(0, at), script: t.script, after: t.detail.slice(at + t.script.length) };
}

/** Timeline states in plain words. */
export const STATE_LABELS: Record<RunState, string> = {
  selected: 'Selected',
  awaiting_approval: 'Waiting for approval',
  running: 'Running',
  success: 'Succeeded',
  retryable_failure: 'Failed, will retry once',
  fatal_failure: 'Failed',
  fallback: 'Falling back',
  exit: 'Ended',
};

/** End statuses that are not failures of the skill: the step that ended the attempt says which. */
const NOT_FAILURES: ReadonlySet<RunLook> = new Set(['denied', 'blocked', 'timeout', 'cancelled']);

/**
 * A timeline step's label. The machine records a denial or a sandbox block as a fatal failure
 * (routing spec §10); the last failure step of such a run is labelled with what it really was.
 */
export function stepLabels(timeline: readonly RunTransition[], ended: RunLook | null): string[] {
  const failures = timeline.flatMap((t, i) =>
    t.state === 'fatal_failure' || t.state === 'retryable_failure' ? [i] : [],
  );
  const last = failures.at(-1);
  return timeline.map((t, i) =>
    i === last && ended && NOT_FAILURES.has(ended) ? LOOKS[ended].label : STATE_LABELS[t.state],
  );
}

/** States that end a run: no time is spent in them. */
const FINAL: ReadonlySet<RunState> = new Set(['success', 'exit']);

/** Newest first; run ids sort by start time (the engine makes them so), `started_at` decides first. */
export function upsertSummary(list: readonly RunSummary[], summary: RunSummary): RunSummary[] {
  const rest = list.filter((r) => r.run_id !== summary.run_id);
  return [...rest, summary].sort((a, b) =>
    a.started_at === b.started_at ? b.run_id.localeCompare(a.run_id) : a.started_at < b.started_at ? 1 : -1,
  );
}

/** Adds a transition once, in `seq` order (events and a `runs.get` answer can overlap). */
export function addTransition(timeline: readonly RunTransition[], t: RunTransition): RunTransition[] {
  if (timeline.some((x) => x.seq === t.seq)) return [...timeline];
  return [...timeline, t].sort((a, b) => a.seq - b.seq);
}

/**
 * Time spent in each state of the timeline. A transition's own `duration_ms` is the time spent
 * in the state *before* it, so a state's time is the next transition's; the last state, while
 * the run is under way, has been going on since it began. Final states get null.
 */
export function stateDurations(
  timeline: readonly RunTransition[],
  finished: boolean,
  now: number,
): (number | null)[] {
  return timeline.map((t, i) => {
    if (FINAL.has(t.state)) return null;
    const next = timeline[i + 1];
    if (next) return next.duration_ms ?? Math.max(0, Date.parse(next.at) - Date.parse(t.at));
    return finished ? null : Math.max(0, now - Date.parse(t.at));
  });
}

/** Milliseconds from the first transition, for the timeline's time column. */
export function offsets(timeline: readonly RunTransition[]): number[] {
  const start = timeline[0] ? Date.parse(timeline[0].at) : 0;
  return timeline.map((t) => Math.max(0, Date.parse(t.at) - start));
}

/** The summary's duration, or the time since it started while it runs. */
export const elapsedMs = (summary: RunSummary, now: number): number =>
  summary.duration_ms ?? Math.max(0, now - Date.parse(summary.started_at));

/** Run durations: `0.4 s`, `12 s`, `2 min 05 s`; sub-second ones in ms. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** The record once its result is in: the summary follows the result. */
export function finishRecord(record: RunRecord | undefined, result: RunResult): RunRecord {
  const summary: RunSummary = {
    run_id: result.run_id,
    skill: result.skill,
    skill_id: result.skill_id,
    task: record?.summary.task ?? '',
    started_at: record?.summary.started_at ?? result.timeline[0]?.at ?? new Date().toISOString(),
    status: result.status,
    sandbox: result.sandbox,
    duration_ms: result.duration_ms,
  };
  return {
    summary,
    result,
    timeline: result.timeline.length ? result.timeline : (record?.timeline ?? []),
    input: record?.input ?? {},
    entrypoint: record?.entrypoint ?? null,
  };
}

export interface OutputChunk {
  stream: 'stdout' | 'stderr';
  text: string;
}

/** Live output kept per run in the window; the engine keeps the whole (capped) output in the result. */
export const LIVE_OUTPUT_CAP = 256 * 1024;

/** Appends a chunk, merging with the last one of the same stream, dropping the oldest past the cap. */
export function appendOutput(
  chunks: readonly OutputChunk[],
  chunk: OutputChunk,
  cap = LIVE_OUTPUT_CAP,
): OutputChunk[] {
  const last = chunks.at(-1);
  const next =
    last && last.stream === chunk.stream
      ? [...chunks.slice(0, -1), { stream: last.stream, text: last.text + chunk.text }]
      : [...chunks, chunk];
  let size = next.reduce((n, c) => n + c.text.length, 0);
  while (size > cap && next.length > 0) {
    const over = size - cap;
    const first = next[0];
    if (first.text.length <= over) {
      next.shift();
      size -= first.text.length;
    } else {
      next[0] = { stream: first.stream, text: first.text.slice(over) };
      size -= over;
    }
  }
  return next;
}
