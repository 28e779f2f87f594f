import type { StateCreator } from 'zustand';
import type { RepairRevision } from '../../../../shared/contract';
import { client, errorMessage } from '../../lib/client';
import type { Loadable } from '../skills/store';
import { without } from './model';
import type { RepairStore } from './store';

/** A skill's repair history (issue 9 item 6): every revision, newest first, with undo. */
export interface HistorySlice {
  /** By skill id. */
  history: Record<string, Loadable<RepairRevision[]>>;
  /** The revision being undone. */
  undoing: string | null;
  /** Why undoing a revision failed, by revision id. */
  undoErrors: Record<string, string>;
  loadHistory(skillId: string): Promise<void>;
  /** Loads again every history on screen (after an apply or undo anywhere). */
  refreshHistories(): void;
  undo(skillId: string, revision: string): Promise<void>;
}

export const createHistorySlice: StateCreator<RepairStore, [], [], HistorySlice> = (set, get) => ({
  history: {},
  undoing: null,
  undoErrors: {},

  async loadHistory(skillId) {
    if (!get().history[skillId])
      set((s) => ({ history: { ...s.history, [skillId]: { status: 'loading' } } }));
    try {
      const { revisions } = await client().invoke('repair.history', { skill: skillId });
      set((s) => ({ history: { ...s.history, [skillId]: { status: 'ready', data: revisions } } }));
    } catch (error) {
      set((s) => ({ history: { ...s.history, [skillId]: { status: 'error', error: errorMessage(error) } } }));
    }
  },

  refreshHistories() {
    for (const id of Object.keys(get().history)) void get().loadHistory(id);
  },

  async undo(skillId, revision) {
    set((s) => ({ undoing: revision, undoErrors: without(s.undoErrors, revision) }));
    try {
      await client().invoke('repair.undo', { revision });
      await get().loadHistory(skillId);
    } catch (error) {
      set((s) => ({ undoErrors: { ...s.undoErrors, [revision]: errorMessage(error) } }));
    } finally {
      set({ undoing: null });
    }
  },
});
