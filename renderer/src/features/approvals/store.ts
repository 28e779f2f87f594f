import { create } from 'zustand';
import type {
  ApprovalDecision,
  ApprovalGrant,
  ApprovalRequest,
  ApprovalResolution,
} from '../../../../shared/contract';
import { RpcFailure } from '../../../../shared/rpc';
import { client, errorMessage } from '../../lib/client';
import { addRequests, removeRequest } from './queue';

export interface ApprovalsState {
  /** Pending requests, oldest first. */
  queue: ApprovalRequest[];
  /** The request the user picked from a run view; the dialog shows the oldest otherwise. */
  focusId: string | null;
  /** The dialog was put aside (Escape, close): the requests still wait and the top bar says so. */
  minimized: boolean;
  /** The request whose answer is on its way. */
  answering: string | null;
  /** Why the last answer failed, or that it came too late. */
  notice: string | null;
  /** How each run's requests were answered (and by whom), for its timeline; this window's session only. */
  resolutions: Record<string, ApprovalResolution[]>;
  grants: ApprovalGrant[];
  grantsStatus: 'idle' | 'loading' | 'ready' | 'error';
  grantsError: string | null;
  /** The skill whose grant is being revoked. */
  revoking: string | null;
}

export interface ApprovalsActions {
  /** Follows the approval events and asks for what is already pending (a reloaded window). */
  start(): void;
  /** Fetches `approvals.pending` again and merges it. */
  refreshPending(): Promise<void>;
  answer(id: string, decision: ApprovalDecision, reason?: string): Promise<void>;
  minimize(): void;
  /** Shows the dialog again, on `id` when given. */
  review(id?: string): void;
  loadGrants(): Promise<void>;
  revoke(skill: string): Promise<void>;
}

// Ids answered already; an `approvals.pending` reply that crossed the `approval.resolved` event
// must not bring them back. Bounded: the broker never re-uses an id.
const resolved = new Set<string>();
const RESOLVED_KEEP = 500;
const remember = (id: string) => {
  resolved.add(id);
  if (resolved.size > RESOLVED_KEEP) resolved.delete(resolved.values().next().value as string);
};

let started = false;

export const useApprovalsStore = create<ApprovalsState & ApprovalsActions>()((set, get) => ({
  queue: [],
  focusId: null,
  minimized: false,
  answering: null,
  notice: null,
  resolutions: {},
  grants: [],
  grantsStatus: 'idle',
  grantsError: null,
  revoking: null,

  start() {
    if (started) return;
    started = true;
    const c = client();
    // A new request brings the dialog back even if an earlier one was put aside (what-users-ask #3).
    c.on('approval.requested', (request) =>
      set((s) => ({ queue: addRequests(s.queue, [request], resolved), minimized: false })),
    );
    c.on('approval.resolved', (resolution) => {
      const { id, run_id } = resolution;
      remember(id);
      set((s) => ({
        resolutions: { ...s.resolutions, [run_id]: [...(s.resolutions[run_id] ?? []), resolution] },
        queue: removeRequest(s.queue, id),
        focusId: s.focusId === id ? null : s.focusId,
        answering: s.answering === id ? null : s.answering,
      }));
    });
    c.on('approval.grantsChanged', ({ grants }) => set({ grants, grantsStatus: 'ready', grantsError: null }));
    void get().refreshPending();
  },

  async refreshPending() {
    try {
      const { requests } = await client().invoke('approvals.pending', {});
      set((s) => ({ queue: addRequests(s.queue, requests, resolved) }));
    } catch {
      // The connection banner reports a lost engine; an empty queue is the honest state then.
    }
  },

  async answer(id, decision, reason) {
    if (get().answering) return;
    set({ answering: id, notice: null });
    try {
      const input = reason?.trim() ? { id, decision, reason: reason.trim() } : { id, decision };
      await client().invoke('approvals.answer', input);
      remember(id);
      set((s) => ({ queue: removeRequest(s.queue, id), focusId: null, answering: null }));
    } catch (error) {
      // not_found: the timeout, another window or the CLI answered first; the request is over.
      const gone = error instanceof RpcFailure && error.code === 'not_found';
      if (gone) remember(id);
      set((s) => ({
        answering: null,
        queue: gone ? removeRequest(s.queue, id) : s.queue,
        notice: gone
          ? 'That request was already answered or had expired (no answer counts as a deny).'
          : `Your answer did not reach the engine: ${errorMessage(error)}`,
      }));
    }
  },

  minimize: () => set({ minimized: true, focusId: null }),
  review: (id) => set({ minimized: false, focusId: id ?? null, notice: null }),

  async loadGrants() {
    if (get().grantsStatus === 'idle') set({ grantsStatus: 'loading' });
    try {
      const { grants } = await client().invoke('approvals.grants', {});
      set({ grants, grantsStatus: 'ready', grantsError: null });
    } catch (error) {
      set({ grantsStatus: 'error', grantsError: errorMessage(error) });
    }
  },

  async revoke(skill) {
    set({ revoking: skill, grantsError: null });
    try {
      await client().invoke('approvals.revoke', { skill });
      // approval.grantsChanged follows; dropping it here too keeps the list right if it is lost.
      set((s) => ({ grants: s.grants.filter((g) => g.skill !== skill) }));
    } catch (error) {
      set({ grantsError: errorMessage(error) });
    } finally {
      set({ revoking: null });
    }
  },
}));
