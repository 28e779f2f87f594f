import { randomUUID } from 'node:crypto';
import type { ApprovalDecision, ApprovalRequest, ApprovalResolution } from '../../../shared/contract';
import { notFound } from '../errors';
import type { EngineEvents } from '../events';

/** The request as the executor builds it; the broker adds id and times. */
export type ApprovalAsk = Omit<ApprovalRequest, 'id' | 'requested_at' | 'expires_at'>;

interface Pending {
  request: ApprovalRequest;
  settle: (resolution: ApprovalResolution) => void;
  timer: NodeJS.Timeout;
}

export interface BrokerOptions {
  events: EngineEvents;
  /** No answer within this long is a deny (DESIGN §4). */
  timeoutMs: number;
  /**
   * After the last window or connection goes away, pending requests are denied once this
   * much time passes without one coming back: a renderer reload keeps them, a closed
   * window or a lost connection denies them.
   */
  graceMs: number;
  now?: () => number;
}

/**
 * The approval broker (DESIGN §4): a run that needs approval waits here until the user
 * answers, the timeout passes, or every answerer is gone. Nothing resolves to "allow"
 * except an explicit answer.
 */
export class ApprovalBroker {
  private readonly pending = new Map<string, Pending>();
  private answerers = 0;
  private everAttached = false;
  private graceTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: BrokerOptions) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** Ask; resolves with the answer. An aborted signal is a deny. */
  ask(ask: ApprovalAsk, signal?: AbortSignal): Promise<ApprovalResolution> {
    const id = randomUUID();
    const at = this.now();
    const request: ApprovalRequest = {
      ...ask,
      id,
      requested_at: new Date(at).toISOString(),
      expires_at: new Date(at + this.options.timeoutMs).toISOString(),
    };
    return new Promise((resolve) => {
      const settle = (resolution: ApprovalResolution) => {
        const entry = this.pending.get(id);
        if (!entry) return;
        clearTimeout(entry.timer);
        this.pending.delete(id);
        signal?.removeEventListener('abort', onAbort);
        this.options.events.emit('approval.resolved', resolution);
        resolve(resolution);
      };
      const deny = (by: ApprovalResolution['by'], reason: string) =>
        settle({ id, run_id: request.run_id, decision: 'deny', by, reason });
      const onAbort = () => deny('policy', 'the run was stopped before anyone answered');
      const timer = setTimeout(
        () =>
          deny(
            'timeout',
            `no answer within ${(this.options.timeoutMs / 1000).toFixed(this.options.timeoutMs < 10_000 ? 1 : 0)} s`,
          ),
        this.options.timeoutMs,
      );
      this.pending.set(id, { request, settle, timer });
      // Not `once`: settle removes it, however the request ends.
      signal?.addEventListener('abort', onAbort);
      this.options.events.emit('approval.requested', request);
      // Asked while every window is gone (and one was there before): the grace clock runs.
      if (this.everAttached && this.answerers === 0) this.startGrace();
      if (signal?.aborted) onAbort();
    });
  }

  /** Answer a pending request (the dialog, the CLI flag, a stored grant). */
  answer(
    id: string,
    decision: ApprovalDecision,
    reason?: string,
    by: ApprovalResolution['by'] = 'user',
  ): ApprovalResolution {
    const entry = this.pending.get(id);
    if (!entry) throw notFound(`No pending approval "${id.slice(0, 128)}"; it was answered or expired.`);
    const resolution: ApprovalResolution = { id, run_id: entry.request.run_id, decision, by };
    if (reason?.trim()) resolution.reason = reason.trim();
    entry.settle(resolution);
    return resolution;
  }

  /** Requests still waiting, oldest first (a reloaded window shows them again). */
  list(): ApprovalRequest[] {
    return [...this.pending.values()].map((p) => p.request);
  }

  /**
   * A window or connection that can answer is here; returns its "gone" function. Losing
   * the last one starts the grace period after which pending requests are denied.
   */
  attach(): () => void {
    this.answerers++;
    this.everAttached = true;
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    let attached = true;
    return () => {
      if (!attached) return;
      attached = false;
      this.answerers--;
      if (this.answerers === 0 && this.pending.size > 0) this.startGrace();
    };
  }

  /** Deny every pending request at once (a closed window, shutdown). */
  denyAll(by: ApprovalResolution['by'], reason: string): void {
    for (const entry of [...this.pending.values()])
      entry.settle({ id: entry.request.id, run_id: entry.request.run_id, decision: 'deny', by, reason });
  }

  /** Runs from the first moment no one can answer; attach() stops it, so it only fires unattended. */
  private startGrace(): void {
    // Stryker disable next-line ConditionalExpression: a second clock would fire after the first, which already denied everything
    if (this.graceTimer) return;
    this.graceTimer = setTimeout(() => {
      this.graceTimer = undefined;
      this.denyAll('disconnect', 'the window that could answer was closed or lost its connection');
    }, this.options.graceMs);
  }
}

const ANSWERED_BY: Record<ApprovalResolution['by'], string> = {
  user: 'by you',
  timeout: 'because no one answered in time',
  disconnect: 'because the window closed or lost its connection',
  grant: 'by your always-allow grant',
  flag: 'by a command-line flag',
  policy: 'by policy',
};

/** One line for the timeline: what was decided and who decided it. */
export function describeAnswer(a: ApprovalResolution): string {
  const what =
    a.decision === 'allow_once'
      ? 'allowed once'
      : a.decision === 'allow_always'
        ? 'allowed always'
        : 'denied';
  return `${what} ${ANSWERED_BY[a.by]}${a.reason ? `: ${a.reason}` : ''}`;
}
