import type { StateCreator } from 'zustand';
import type { Diagnosis, SkillSummary, SkillSwitches, TrashItem } from '../../../../shared/contract';
import { client, errorMessage } from '../../lib/client';
import type { Loadable, SkillsActions, SkillsState } from './store';

/** A removal the user can still undo (`skills.restore`). */
export interface PendingUndo {
  trashId: string;
  name: string;
}

export interface ManageState {
  /** "Why isn't it used?" per skill id; dropped whenever the skill set or a switch changes. */
  diagnoses: Record<string, Loadable<Diagnosis>>;
  /** Switches the engine confirmed (or we are setting), by skill name, until the list carries them. */
  switches: Record<string, SkillSwitches>;
  undo: PendingUndo | null;
  /** Removed and replaced skills, newest first; loaded when the Trash dialog opens. */
  trash: Loadable<TrashItem[]> | null;
  /** A failed remove, restore or switch, shown as a toast. */
  notice: string | null;
}

export interface ManageActions {
  ensureDiagnosis(id: string): Promise<void>;
  setEnabled(name: string, enabled: boolean): Promise<void>;
  setAutoSelect(name: string, autoSelect: boolean): Promise<void>;
  /** Moves a managed skill to the trash and offers an undo; throws what the engine said. */
  remove(id: string): Promise<void>;
  restore(): Promise<void>;
  loadTrash(): Promise<void>;
  /** Puts one trash item back and shows it; throws what the engine said. */
  restoreFromTrash(trashId: string): Promise<void>;
  emptyTrash(): Promise<void>;
  dismissToast(): void;
}

export type ManageSlice = ManageState & ManageActions;
type Store = SkillsState & SkillsActions & ManageSlice;

/** Switches for a name: what we set last, else what the list says (enabled and auto-select by default). */
export function switchesOf(state: Pick<ManageState, 'switches'>, summary: SkillSummary): SkillSwitches {
  return (
    state.switches[summary.name] ?? {
      name: summary.name,
      enabled: summary.enabled ?? true,
      autoSelect: summary.autoSelect ?? true,
    }
  );
}

/** Keeps local switches only for names the fresh list does not describe itself. */
export function reconcileSwitches(
  switches: Record<string, SkillSwitches>,
  skills: readonly SkillSummary[],
): Record<string, SkillSwitches> {
  const described = new Set(skills.filter((s) => s.enabled !== undefined).map((s) => s.name));
  return Object.fromEntries(Object.entries(switches).filter(([name]) => !described.has(name)));
}

export const createManageSlice: StateCreator<Store, [], [], ManageSlice> = (set, get) => {
  const flip = async (name: string, patch: Partial<SkillSwitches>, call: () => Promise<SkillSwitches>) => {
    const summary = Object.values(get().byId).find((s) => s.name === name);
    if (!summary) return;
    const before = switchesOf(get(), summary);
    set((s) => ({ switches: { ...s.switches, [name]: { ...before, ...patch } } }));
    try {
      const confirmed = await call();
      set((s) => ({ switches: { ...s.switches, [name]: confirmed }, diagnoses: {} }));
    } catch (error) {
      set((s) => ({ switches: { ...s.switches, [name]: before }, notice: errorMessage(error) }));
      return;
    }
    await get().load();
  };

  return {
    diagnoses: {},
    switches: {},
    undo: null,
    trash: null,
    notice: null,

    async ensureDiagnosis(id) {
      const current = get().diagnoses[id];
      if (current && current.status !== 'error') return;
      set((s) => ({ diagnoses: { ...s.diagnoses, [id]: { status: 'loading' } } }));
      try {
        const data = await client().invoke('skills.diagnose', { id });
        set((s) => ({ diagnoses: { ...s.diagnoses, [id]: { status: 'ready', data } } }));
      } catch (error) {
        set((s) => ({
          diagnoses: { ...s.diagnoses, [id]: { status: 'error', error: errorMessage(error) } },
        }));
      }
    },

    setEnabled: (name, enabled) =>
      flip(name, { enabled }, () => client().invoke('skills.setEnabled', { name, enabled })),
    setAutoSelect: (name, autoSelect) =>
      flip(name, { autoSelect }, () => client().invoke('skills.setAutoSelect', { name, autoSelect })),

    async remove(id) {
      const summary = get().byId[id];
      const item = await client().invoke('skills.remove', { id });
      // The copy it hid (DESIGN §2 precedence) is what the name means now: show that one.
      const next = summary?.shadows.find((other) => other in get().byId) ?? null;
      set((s) => ({
        undo: { trashId: item.trashId, name: item.name },
        notice: null,
        selectedId: s.selectedId === id ? next : s.selectedId,
        diagnoses: {},
      }));
      await get().load();
    },

    async restore() {
      const undo = get().undo;
      if (!undo) return;
      set({ undo: null });
      try {
        const restored = await client().invoke('skills.restore', { trashId: undo.trashId });
        await get().load();
        get().open(restored.id);
      } catch (error) {
        set({ notice: `Could not restore “${undo.name}”: ${errorMessage(error)}` });
      }
    },

    async loadTrash() {
      if (get().trash?.status !== 'ready') set({ trash: { status: 'loading' } });
      try {
        const { items } = await client().invoke('trash.list', {});
        set({ trash: { status: 'ready', data: items } });
      } catch (error) {
        set({ trash: { status: 'error', error: errorMessage(error) } });
      }
    },

    async restoreFromTrash(trashId) {
      const restored = await client().invoke('skills.restore', { trashId });
      if (get().undo?.trashId === trashId) set({ undo: null });
      await Promise.all([get().load(), get().loadTrash()]);
      get().open(restored.id);
    },

    async emptyTrash() {
      await client().invoke('trash.empty', {});
      set({ undo: null });
      await get().loadTrash();
    },

    dismissToast: () => set({ undo: null, notice: null }),
  };
};
