import { create } from 'zustand';
import type { ConnectionResult, ModelSettingsPatch, ModelStatus } from '../../../../shared/contract';
import { client, errorMessage } from '../../lib/client';

/** The provider's model ids for the picker, for one endpoint. */
export interface AvailableModels {
  /** `provider base-url` the list belongs to: a list for another endpoint is never shown. */
  target: string | null;
  ids: string[];
  message: string | null;
  loading: boolean;
}

export interface ModelsState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** The engine's model status: settings, whether a key is set and where from. Never a key. */
  model: ModelStatus | null;
  /** The last failed action, in a sentence. */
  error: string | null;
  saving: boolean;
  available: AvailableModels;
  testing: boolean;
  /** The last connection test, cleared when the endpoint or key changes. */
  testResult: ConnectionResult | null;
}

export interface ModelsActions {
  /** Loads the status once and follows `models.changed`; later calls do nothing. */
  start(): void;
  update(patch: ModelSettingsPatch): Promise<void>;
  /** Sends the key to the engine; resolves true when it was stored (the caller then forgets it). */
  setKey(key: string): Promise<boolean>;
  clearKey(): Promise<void>;
  test(): Promise<void>;
  refreshModels(): void;
}

let started = false;

/** What a model list or a test result is about: they go stale when this changes. */
export const targetOf = (model: ModelStatus | null): string | null =>
  model?.effective ? `${model.effective.provider} ${model.effective.baseURL}` : null;
const keyStateOf = (model: ModelStatus | null) => `${targetOf(model)} ${model?.hasKey} ${model?.keySource}`;

export const useModelsStore = create<ModelsState & ModelsActions>()((set, get) => {
  /** Takes a new status; a different endpoint or key makes the list and the test result stale. */
  const receive = (model: ModelStatus) => {
    const before = get().model;
    const targetChanged = targetOf(before) !== targetOf(model);
    set({
      model,
      status: 'ready',
      ...(keyStateOf(before) !== keyStateOf(model) && { testResult: null }),
    });
    if (targetChanged || keyStateOf(before) !== keyStateOf(model)) get().refreshModels();
  };

  const run = async <T>(action: () => Promise<T>): Promise<T | undefined> => {
    set({ saving: true, error: null });
    try {
      return await action();
    } catch (error) {
      set({ error: errorMessage(error) });
      return undefined;
    } finally {
      set({ saving: false });
    }
  };

  return {
    status: 'idle',
    model: null,
    error: null,
    saving: false,
    available: { target: null, ids: [], message: null, loading: false },
    testing: false,
    testResult: null,

    start() {
      if (started) return;
      started = true;
      set({ status: 'loading' });
      client().on('models.changed', receive);
      client()
        .invoke('models.get', {})
        .then(receive, (error: unknown) => set({ status: 'error', error: errorMessage(error) }));
    },

    async update(patch) {
      const model = await run(() => client().invoke('models.update', patch));
      if (model) receive(model);
    },

    async setKey(key) {
      const model = await run(() => client().invoke('models.setKey', { key }));
      if (!model) return false;
      // A replaced key looks the same from here (stored, same endpoint): the old result and list are stale.
      const unchanged = keyStateOf(get().model) === keyStateOf(model);
      set({ testResult: null });
      receive(model);
      if (unchanged) get().refreshModels();
      return true;
    },

    async clearKey() {
      const model = await run(() => client().invoke('models.clearKey', {}));
      if (model) receive(model);
    },

    async test() {
      const target = targetOf(get().model);
      set({ testing: true, testResult: null });
      try {
        const result = await client().invoke('models.test', {});
        if (targetOf(get().model) === target) set({ testResult: result });
      } catch (error) {
        set({ error: errorMessage(error) });
      } finally {
        set({ testing: false });
      }
    },

    refreshModels() {
      const target = targetOf(get().model);
      if (!target) {
        set({ available: { target: null, ids: [], message: null, loading: false } });
        return;
      }
      set((s) => ({ available: { ...s.available, target, loading: true } }));
      client()
        .invoke('models.list', {})
        .then(
          ({ models, message }) => ({ target, ids: models, message, loading: false }),
          (error: unknown) => ({ target, ids: [], message: errorMessage(error), loading: false }),
        )
        .then((available) => {
          // An answer for an endpoint the user has since left is dropped.
          if (targetOf(get().model) === target) set({ available });
        });
    },
  };
});
