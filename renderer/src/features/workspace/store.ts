import { create } from 'zustand';
import type { TrustedFolder, WorkspaceStatus } from '../../../../shared/contract';
import { client, errorMessage } from '../../lib/client';
import { useSkillsStore } from '../skills/store';

export interface WorkspaceState {
  /** The open workspace, once `workspace.status` answered. */
  status: WorkspaceStatus | null;
  /** Settings' list of trusted folders. */
  folders: TrustedFolder[];
  /** A trust, revoke or switch under way. */
  busy: boolean;
  error: string | null;
  /** The user put the banner aside for this window (the folder stays untrusted). */
  dismissed: boolean;
}

export interface WorkspaceActions {
  /** Loads the status and follows `workspace.changed`; returns the unsubscribe. */
  start(): () => void;
  load(): Promise<void>;
  loadFolders(): Promise<void>;
  /** Trust the folder the banner shows (the engine refuses any other). */
  trust(): Promise<void>;
  untrust(path: string): Promise<void>;
  setSkillEnabled(name: string, enabled: boolean): Promise<void>;
  dismiss(): void;
}

/** Workspace trust and per-workspace switches (what-users-ask §14), mirrored from the engine. */
export const useWorkspaceStore = create<WorkspaceState & WorkspaceActions>()((set, get) => {
  // Trust and the switches change how the skill list marks its rows.
  const changed = (status: WorkspaceStatus) => {
    set({ status });
    // "Why isn't it used?" counts the per-workspace switch: what is on screen asks again.
    useSkillsStore.setState({ diagnoses: {} });
    void useSkillsStore.getState().load();
  };
  const act = async (work: () => Promise<void>) => {
    set({ busy: true, error: null });
    try {
      await work();
    } catch (error) {
      set({ error: errorMessage(error) });
    } finally {
      set({ busy: false });
    }
  };
  return {
    status: null,
    folders: [],
    busy: false,
    error: null,
    dismissed: false,

    start() {
      const off = client().on('workspace.changed', (status) => {
        changed(status);
        void get().loadFolders();
      });
      // A skill added to or removed from the folder changes what the banner counts.
      const offSkills = client().on('skills.changed', () => void get().load());
      // `skilldeck trust` in a terminal changes the stored trust without an event: look again on return.
      const onFocus = () => void get().load();
      window.addEventListener('focus', onFocus);
      void get().load();
      return () => {
        off();
        offSkills();
        window.removeEventListener('focus', onFocus);
      };
    },

    async load() {
      try {
        const before = get().status;
        const status = await client().invoke('workspace.status', {});
        set({ status });
        if (before && before.trusted !== status.trusted) void useSkillsStore.getState().load();
      } catch (error) {
        set({ error: errorMessage(error) });
      }
    },

    async loadFolders() {
      try {
        set({ folders: (await client().invoke('workspace.trusted', {})).folders });
      } catch (error) {
        set({ error: errorMessage(error) });
      }
    },

    trust: () =>
      act(async () => {
        const shown = get().status;
        if (!shown) return;
        changed(await client().invoke('workspace.trust', { path: shown.path }));
        await get().loadFolders();
      }),

    untrust: (path) =>
      act(async () => {
        const { folders } = await client().invoke('workspace.untrust', { path });
        set({ folders, dismissed: false });
        await get().load();
        void useSkillsStore.getState().load();
      }),

    setSkillEnabled: (name, enabled) =>
      act(async () => changed(await client().invoke('workspace.setSkillEnabled', { name, enabled }))),

    dismiss: () => set({ dismissed: true }),
  };
});
