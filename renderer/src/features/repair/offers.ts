import type { StateCreator } from 'zustand';
import type { Eligibility, RepairTransition } from '../../../../shared/contract';
import { client, errorMessage } from '../../lib/client';
import type { Loadable } from '../skills/store';
import { mergeRepairTransitions, without } from './model';
import type { RepairStore } from './store';

/** Whether each failed run can be repaired, its repairs' transitions, and starting one. */
export interface OfferSlice {
  /** `repair.assess` verdicts by run id. */
  assessments: Record<string, Loadable<Eligibility>>;
  /** Repair transitions by failed run id, in arrival order (events and `repair.assess`). */
  transitions: Record<string, RepairTransition[]>;
  /** Runs whose `repair.start` is on its way. */
  starting: Record<string, boolean>;
  /** Why the last `repair.start` of a run failed. */
  startErrors: Record<string, string>;
  /** Loads a run's verdict once (again with `force`). */
  assess(runId: string, force?: boolean): Promise<void>;
  /** `repair.start`; resolves with the repair id, or null when it was refused (the reason is kept). */
  startRepair(runId: string): Promise<string | null>;
  /** A `repair.transition` event. */
  addTransition(t: RepairTransition): void;
}

export const createOfferSlice: StateCreator<RepairStore, [], [], OfferSlice> = (set, get) => ({
  assessments: {},
  transitions: {},
  starting: {},
  startErrors: {},

  async assess(runId, force = false) {
    const current = get().assessments[runId];
    if (current && current.status !== 'error' && !force) return;
    if (!current) set((s) => ({ assessments: { ...s.assessments, [runId]: { status: 'loading' } } }));
    try {
      const { eligibility, transitions } = await client().invoke('repair.assess', { run_id: runId });
      set((s) => ({
        assessments: { ...s.assessments, [runId]: { status: 'ready', data: eligibility } },
        transitions: {
          ...s.transitions,
          [runId]: mergeRepairTransitions(s.transitions[runId] ?? [], transitions),
        },
      }));
    } catch (error) {
      set((s) => ({
        assessments: { ...s.assessments, [runId]: { status: 'error', error: errorMessage(error) } },
      }));
    }
  },

  async startRepair(runId) {
    set((s) => ({ starting: { ...s.starting, [runId]: true }, startErrors: without(s.startErrors, runId) }));
    try {
      const { repair_id } = await client().invoke('repair.start', { run_id: runId });
      return repair_id;
    } catch (error) {
      set((s) => ({ startErrors: { ...s.startErrors, [runId]: errorMessage(error) } }));
      return null;
    } finally {
      set((s) => ({ starting: without(s.starting, runId) }));
    }
  },

  addTransition: (t) =>
    set((s) => ({
      transitions: {
        ...s.transitions,
        [t.run_id]: mergeRepairTransitions(s.transitions[t.run_id] ?? [], [t]),
      },
    })),
});
