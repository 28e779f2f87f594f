import { create } from 'zustand';
import { RoutingSettings, type Settings, type SettingsPatch } from '../../../../shared/contract';
import { client, errorMessage } from '../../lib/client';
import { createLatestRequester } from '../routing/latest';

export type RoutingPatch = NonNullable<SettingsPatch['routing']>;

/** DESIGN §3's defaults, straight from the contract's schema. */
export const ROUTING_DEFAULTS: Settings['routing'] = RoutingSettings.parse({});

export interface SettingsState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** The engine's settings as last confirmed, with local edits on top while they are saved. */
  settings: Settings | null;
  error: string | null;
  /** True while an update is on its way to the engine. */
  saving: boolean;
}

export interface SettingsActions {
  /** Loads the settings once and follows `settings.changed`; later calls do nothing. */
  start(): void;
  /** Shows the change at once and saves it; a slider drag sends only its latest position. */
  updateRouting(patch: RoutingPatch): void;
  resetRouting(): void;
}

let started = false;

const mergeRouting = (settings: Settings, patch: RoutingPatch): Settings => ({
  ...settings,
  routing: {
    ...settings.routing,
    ...patch,
    weights: { ...settings.routing.weights, ...patch.weights },
  },
});

export const useSettingsStore = create<SettingsState & SettingsActions>()((set, get) => {
  // Each update sends the whole routing block as it is on screen, so the newest one wins whole.
  let localVersion = 0;
  const updates = createLatestRequester<{ routing: Settings['routing']; version: number }, Settings>(
    ({ routing }) => client().invoke('settings.update', { routing }),
    (settings, { version }) => {
      if (version === localVersion) set({ settings, saving: false, error: null });
    },
    (error) => {
      set({ saving: false, error: errorMessage(error) });
      // Show what the engine really has, not an edit it refused.
      void client()
        .invoke('settings.get', {})
        .then(
          (settings) => set({ settings }),
          () => undefined,
        );
    },
  );

  return {
    status: 'idle',
    settings: null,
    error: null,
    saving: false,

    start() {
      if (started) return;
      started = true;
      set({ status: 'loading' });
      client().on('settings.changed', (settings) => {
        // While an edit is being saved, it wins over the echo of an older one.
        set((s) =>
          s.saving && s.settings
            ? { settings: { ...settings, routing: s.settings.routing } }
            : { settings, status: 'ready' },
        );
      });
      client()
        .invoke('settings.get', {})
        .then(
          (settings) => set((s) => ({ settings: s.settings ?? settings, status: 'ready' })),
          (error: unknown) => set({ status: 'error', error: errorMessage(error) }),
        );
    },

    updateRouting(patch) {
      const current = get().settings;
      if (!current) return;
      const next = mergeRouting(current, patch);
      localVersion += 1;
      set({ settings: next, saving: true });
      updates.request({ routing: next.routing, version: localVersion });
    },

    resetRouting() {
      get().updateRouting({ ...ROUTING_DEFAULTS, weights: { ...ROUTING_DEFAULTS.weights } });
    },
  };
});
