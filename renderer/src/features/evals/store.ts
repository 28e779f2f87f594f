import { create } from 'zustand';
import type { EvalReport } from '../../../../shared/contract';
import { client, errorMessage } from '../../lib/client';

export type EvalRun =
  | { status: 'running'; previous?: EvalReport }
  | { status: 'ready'; report: EvalReport }
  | { status: 'error'; error: string; previous?: EvalReport };

export interface EvalsState {
  /** Trigger-eval runs by skill id (issue item 6). */
  runs: Record<string, EvalRun>;
  /** Runs `evals/trigger_evals.json` of a skill through the router (nothing is recorded). */
  run(id: string): Promise<void>;
}

const reportOf = (run: EvalRun | undefined): EvalReport | undefined =>
  run?.status === 'ready' ? run.report : run?.previous;

export const useEvalsStore = create<EvalsState>()((set, get) => ({
  runs: {},

  async run(id) {
    const previous = reportOf(get().runs[id]);
    set((s) => ({ runs: { ...s.runs, [id]: { status: 'running', previous } } }));
    try {
      const report = await client().invoke('evals.run', { id });
      set((s) => ({ runs: { ...s.runs, [id]: { status: 'ready', report } } }));
    } catch (error) {
      set((s) => ({ runs: { ...s.runs, [id]: { status: 'error', error: errorMessage(error), previous } } }));
    }
  },
}));

export { reportOf };
