import type { ApprovalRequest, ApprovalResolution } from '../../../../shared/contract';

/** Oldest first, the order the broker asked in; the id breaks ties so the order never flickers. */
const byAge = (a: ApprovalRequest, b: ApprovalRequest): number =>
  a.requested_at === b.requested_at ? a.id.localeCompare(b.id) : a.requested_at < b.requested_at ? -1 : 1;

/**
 * Adds requests to the queue, oldest first. A request already answered is left out: the
 * `approvals.pending` answer can arrive after the `approval.resolved` event for one of its requests.
 */
export function addRequests(
  queue: readonly ApprovalRequest[],
  incoming: readonly ApprovalRequest[],
  resolved: ReadonlySet<string>,
): ApprovalRequest[] {
  const byId = new Map(queue.map((r) => [r.id, r]));
  for (const request of incoming) if (!resolved.has(request.id)) byId.set(request.id, request);
  return [...byId.values()].sort(byAge);
}

export const removeRequest = (queue: readonly ApprovalRequest[], id: string): ApprovalRequest[] =>
  queue.filter((r) => r.id !== id);

/** The request the dialog shows: the one the user picked (from a run view), else the oldest. */
export function headOf(
  queue: readonly ApprovalRequest[],
  focusId: string | null,
): ApprovalRequest | undefined {
  return queue.find((r) => r.id === focusId) ?? queue[0];
}

/** `2:00`, `0:09`, `1:02:03`; `0:00` once past. Seconds round up, so `0:00` means it is over. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

export type Urgency = 'calm' | 'soon' | 'urgent' | 'expired';

/** How the countdown looks: amber in the last 30 s, red in the last 10 s. */
export function urgency(ms: number): Urgency {
  if (ms <= 0) return 'expired';
  if (ms <= 10_000) return 'urgent';
  if (ms <= 30_000) return 'soon';
  return 'calm';
}

/** Milliseconds left before no answer counts as a deny. */
export const msLeft = (request: Pick<ApprovalRequest, 'expires_at'>, now: number): number =>
  Date.parse(request.expires_at) - now;

/** The first 12 hex digits of a content hash, with any `sha256:` prefix dropped. */
export const shortHash = (hash: string): string => hash.replace(/^sha256:/, '').slice(0, 12);

/** The contract's network field in words. */
export function describeNetwork(network: ApprovalRequest['network']): string {
  if (network === false) return 'no network';
  if (network === true) return 'any host';
  return network.length === 0 ? 'no network' : network.join(', ');
}

/** DESIGN §4: a widening is told as what it asks beyond its declaration. */
export const describeWiden = (widen: NonNullable<ApprovalRequest['widen']>): string =>
  `asks for more than it declares: ${widen.kind} ${widen.target}`;

const BY: Record<ApprovalResolution['by'], string> = {
  user: 'by you',
  timeout: 'no answer in time',
  disconnect: 'the window that could answer closed or lost its connection',
  grant: 'your always-allow grant',
  flag: 'the command-line flag',
  policy: 'policy',
};

/** "Allowed once by you", "Denied: no answer in time", "Denied by you: not now". */
export function describeResolution(r: Pick<ApprovalResolution, 'decision' | 'by' | 'reason'>): string {
  const verb =
    r.decision === 'deny'
      ? 'Denied'
      : r.by === 'grant'
        ? 'Allowed'
        : r.decision === 'allow_once'
          ? 'Allowed once'
          : 'Always allowed';
  const who = r.by === 'user' ? ` ${BY.user}` : r.by === 'grant' ? ` by ${BY.grant}` : `: ${BY[r.by]}`;
  return `${verb}${who}${r.reason ? ` (${r.reason})` : ''}`;
}
