import { create } from 'zustand';
import type { DescriptionTuning } from '../../../../shared/contract';
import { client, errorMessage } from '../../lib/client';
import { useEvalsStore } from './store';

/** Where tuning one skill's description stands. */
export type Tuning =
  | { status: 'running' }
  | { status: 'ready'; tuning: DescriptionTuning }
  | { status: 'applying'; tuning: DescriptionTuning }
  | { status: 'applied'; description: string }
  | { status: 'error'; error: string; tuning?: DescriptionTuning };

interface TuningState {
  byId: Record<string, Tuning>;
  /** Asks the model for better descriptions (`evals.improve`); nothing is written. */
  improve(id: string): Promise<void>;
  /** Writes the proposed description into SKILL.md; the evals run again on it. */
  apply(id: string, description: string): Promise<void>;
  dismiss(id: string): void;
}

/** Description tuning from the Evals tab (agentskills.io "Optimizing descriptions"). */
export const useTuningStore = create<TuningState>()((set, get) => {
  const put = (id: string, tuning: Tuning | null) =>
    set((s) => {
      const byId = { ...s.byId };
      if (tuning) byId[id] = tuning;
      else delete byId[id];
      return { byId };
    });
  return {
    byId: {},
    async improve(id) {
      put(id, { status: 'running' });
      try {
        put(id, { status: 'ready', tuning: await client().invoke('evals.improve', { id }) });
      } catch (error) {
        put(id, { status: 'error', error: errorMessage(error) });
      }
    },
    async apply(id, description) {
      const current = get().byId[id];
      if (current?.status !== 'ready') return;
      const { tuning } = current;
      put(id, { status: 'applying', tuning });
      try {
        const report = await client().invoke('evals.applyDescription', {
          id,
          description,
          content_hash: tuning.content_hash,
        });
        useEvalsStore.setState((s) => ({ runs: { ...s.runs, [id]: { status: 'ready', report } } }));
        put(id, { status: 'applied', description });
      } catch (error) {
        put(id, { status: 'error', error: errorMessage(error), tuning });
      }
    },
    dismiss: (id) => put(id, null),
  };
});
