import { create } from 'zustand';
import type { EvalEdit, EvalReport } from '../../../../shared/contract';
import { client, errorMessage } from '../../lib/client';

export type EvalRun =
  | { status: 'running'; previous?: EvalReport }
  | { status: 'ready'; report: EvalReport }
  | { status: 'error'; error: string; previous?: EvalReport };

/** The last case saved or removed for a skill, or why it could not be. */
export type EvalSave =
  | { status: 'saving'; query: string }
  | { status: 'saved'; query: string; change: EvalEdit['change']; should_trigger?: boolean }
  | { status: 'error'; query: string; error: string };

export interface EvalsState {
  /** Trigger-eval runs by skill id (issue item 6). */
  runs: Record<string, EvalRun>;
  /** The last save or removal per skill id (what-users-ask §15: store cases from the app). */
  saves: Record<string, EvalSave>;
  /**
   * The Evals tab's unsaved query per skill id. Kept here, not in the form: saving a case
   * changes the skill's folder, and the reload that follows may mount the tab afresh.
   */
  drafts: Record<string, string>;
  setDraft(id: string, query: string): void;
  /** Runs `evals/trigger_evals.json` of a skill through the router (nothing is recorded). */
  run(id: string): Promise<void>;
  /** Stores a query as a case of the skill (the same query again changes its answer). */
  save(id: string, query: string, shouldTrigger: boolean): Promise<boolean>;
  /** Takes the case with this query out of the skill's evals. */
  remove(id: string, query: string): Promise<void>;
}

const reportOf = (run: EvalRun | undefined): EvalReport | undefined =>
  run?.status === 'ready' ? run.report : run?.previous;

export const useEvalsStore = create<EvalsState>()((set, get) => {
  /** A save or removal: the answer carries the evals run again, which becomes the tab's report. */
  const edit = async (
    id: string,
    query: string,
    call: () => Promise<EvalEdit>,
    shouldTrigger?: boolean,
  ): Promise<boolean> => {
    set((s) => ({ saves: { ...s.saves, [id]: { status: 'saving', query } } }));
    try {
      const { change, report } = await call();
      set((s) => ({
        runs: { ...s.runs, [id]: { status: 'ready', report } },
        saves: { ...s.saves, [id]: { status: 'saved', query, change, should_trigger: shouldTrigger } },
      }));
      return true;
    } catch (error) {
      set((s) => ({ saves: { ...s.saves, [id]: { status: 'error', query, error: errorMessage(error) } } }));
      return false;
    }
  };

  return {
    runs: {},
    saves: {},
    drafts: {},

    setDraft: (id, query) => set((s) => ({ drafts: { ...s.drafts, [id]: query } })),

    async run(id) {
      const previous = reportOf(get().runs[id]);
      set((s) => ({ runs: { ...s.runs, [id]: { status: 'running', previous } } }));
      try {
        const report = await client().invoke('evals.run', { id });
        set((s) => ({ runs: { ...s.runs, [id]: { status: 'ready', report } } }));
      } catch (error) {
        set((s) => ({
          runs: { ...s.runs, [id]: { status: 'error', error: errorMessage(error), previous } },
        }));
      }
    },

    save: (id, query, shouldTrigger) =>
      edit(
        id,
        query,
        () => client().invoke('evals.save', { id, query, should_trigger: shouldTrigger }),
        shouldTrigger,
      ),

    async remove(id, query) {
      await edit(id, query, () => client().invoke('evals.remove', { id, query }));
    },
  };
});

export { reportOf };
