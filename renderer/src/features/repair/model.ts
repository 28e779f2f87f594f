import type {
  RepairProposal,
  RepairState,
  RepairTransition,
  ReplayVerdict,
} from '../../../../shared/contract';
import type { Tone } from '../../ui/Badge';

/** The repair state machine (routing spec §12) in plain words, for the run timeline. */
export const REPAIR_STATE_LABELS: Record<RepairState, string> = {
  failure_detected: 'Repair: failure detected',
  eligibility: 'Repair: eligibility',
  planning: 'Repair: planning',
  patching: 'Repair: patching',
  retry: 'Repair: replaying',
  evaluation: 'Repair: evaluating',
  success: 'Repair: proposal ready',
  fallback: 'Repair: gave up',
};

/** Each replay verdict has its own words and tone, never colour alone. */
export const VERDICT_LOOKS: Record<ReplayVerdict, { label: string; tone: Tone }> = {
  passes: { label: 'Replay passes', tone: 'green' },
  fails_differently: { label: 'Fails differently', tone: 'amber' },
  same_failure: { label: 'Same failure', tone: 'red' },
};

/**
 * Ended runs whose status gets a repair offer or the reason there is none: failures, and the
 * denials, blocks and timeouts that are never repaired (they say why). Stopped runs get nothing.
 */
export const OFFER_STATUSES: ReadonlySet<string> = new Set([
  'failure',
  'error',
  'denied',
  'blocked',
  'timeout',
]);

/** Adds a transition once; repairs of one run keep their own `seq`, so the key is both. */
export function addRepairTransition(
  list: readonly RepairTransition[],
  t: RepairTransition,
): RepairTransition[] {
  if (list.some((x) => x.repair_id === t.repair_id && x.seq === t.seq)) return [...list];
  return [...list, t];
}

/** Merges transitions known here with an engine answer, keeping arrival order and dropping repeats. */
export const mergeRepairTransitions = (
  known: readonly RepairTransition[],
  fresh: readonly RepairTransition[],
): RepairTransition[] => fresh.reduce(addRepairTransition, [...known]);

/** The repairs of a run, oldest first, each with its transitions in `seq` order. */
export function repairsOf(
  list: readonly RepairTransition[],
): { repairId: string; steps: RepairTransition[] }[] {
  const byId = new Map<string, RepairTransition[]>();
  for (const t of list) byId.set(t.repair_id, [...(byId.get(t.repair_id) ?? []), t]);
  return [...byId].map(([repairId, steps]) => ({ repairId, steps: steps.sort((a, b) => a.seq - b.seq) }));
}

/** A repair ends with `success` (a proposal is ready) or `fallback`. */
export const repairEnded = (steps: readonly RepairTransition[]): RepairTransition | undefined =>
  steps.find((t) => t.state === 'success' || t.state === 'fallback');

/** The proposal a review opens with: the newest still pending, else the newest. */
export function currentProposal(list: readonly RepairProposal[]): RepairProposal | undefined {
  const newest = [...list].sort((a, b) => (a.created_at < b.created_at ? 1 : -1));
  return newest.find((p) => p.status === 'pending') ?? newest[0];
}

/** Stands for "no run" in a review address: a proposal made without one (a frontmatter fix). */
const NO_RUN = '-';

/** Where the review of a repair lives: `#repair/<run>/<repair>`, or `#repair/-/<repair>` without a run. */
export const reviewHash = (runId: string, repairId: string): string =>
  `#repair/${runId ? encodeURIComponent(runId) : NO_RUN}/${encodeURIComponent(repairId)}`;

/** The run ('' for none) and repair a `#repair/…` address names; null for anything else. */
export function parseReviewHash(hash: string): { runId: string; repairId: string } | null {
  const match = /^#\/?repair\/([^/?]+)\/([^/?]+)/.exec(hash);
  if (!match) return null;
  try {
    const runId = match[1] === NO_RUN ? '' : decodeURIComponent(match[1]);
    return { runId, repairId: decodeURIComponent(match[2]) };
  } catch {
    return null;
  }
}

/** The first 10 hex digits of a sha256: enough to tell revisions apart at a glance. */
export const shortHash = (hash: string | null): string => (hash ? hash.slice(0, 10) : '—');

/** The record without one key; the same object when the key is absent (no needless re-render). */
export function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!(key in record)) return record;
  const { [key]: _dropped, ...rest } = record;
  return rest;
}
