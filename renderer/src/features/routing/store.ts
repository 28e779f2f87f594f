import { startTransition } from 'react';
import { create } from 'zustand';
import type { RouteEvent, RouteResult, WhyNot } from '../../../../shared/contract';
import { client, errorMessage } from '../../lib/client';
import { createLatestRequester } from './latest';

/** A preview on screen, with what the keystroke → repaint measure needs. */
export interface Preview {
  result: RouteResult;
  /** `performance.now()` of the keystroke that produced the query. */
  inputAt: number;
  roundTripMs: number;
}

export type WhyNotState =
  | { status: 'idle' }
  | { status: 'loading'; id: string }
  | { status: 'ready'; id: string; data: WhyNot }
  | { status: 'error'; id: string; error: string };

export interface RoutingState {
  /** The composer's text, exactly as typed. */
  draft: string;
  preview: Preview | null;
  error: string | null;
  /** The skill the "Why not…?" picker shows. */
  whyNotId: string | null;
  whyNot: WhyNotState;
  /**
   * A sent message's recorded route, shown in the score panel instead of the live preview
   * (a chat answer's routing chip opens it); typing goes back to the preview.
   */
  recorded: RouteEvent | null;
}

export interface RoutingActions {
  /** Subscribes once to what changes a preview (settings, skills); later calls do nothing. */
  start(): void;
  /** Updates the draft and asks for a preview of it; `inputAt` is the keystroke's time. */
  setDraft(draft: string, inputAt?: number): void;
  /** Re-runs the preview and "why not" for the current draft (settings or skills changed). */
  refresh(): void;
  setWhyNot(id: string | null): void;
  /** Shows a recorded route in the score panel; null returns to the live preview. */
  showRecorded(route: RouteEvent | null): void;
}

interface PreviewInput {
  query: string;
  inputAt: number;
  sentAt: number;
}

interface WhyNotInput {
  query: string;
  id: string;
}

let started = false;

export const useRoutingStore = create<RoutingState & RoutingActions>()((set, get) => {
  const previews = createLatestRequester<PreviewInput, RouteResult>(
    ({ query }) => client().invoke('route.preview', { query }),
    (result, { inputAt, sentAt }) => {
      const preview = { result, inputAt, roundTripMs: performance.now() - sentAt };
      // The panel's render may wait for typing; the textarea never waits for the panel.
      startTransition(() => set({ preview, error: null }));
    },
    (error) => set({ error: errorMessage(error) }),
  );

  const whyNots = createLatestRequester<WhyNotInput, WhyNot>(
    ({ query, id }) => client().invoke('route.whyNot', { query, id }),
    (data, { id }) => {
      if (get().whyNotId === id) startTransition(() => set({ whyNot: { status: 'ready', id, data } }));
    },
    (error, { id }) => {
      if (get().whyNotId === id) set({ whyNot: { status: 'error', id, error: errorMessage(error) } });
    },
  );

  const requestWhyNot = () => {
    const { draft, whyNotId } = get();
    const query = draft.trim();
    if (!whyNotId || !query) {
      whyNots.cancel();
      if (get().whyNot.status !== 'idle') set({ whyNot: { status: 'idle' } });
      return;
    }
    whyNots.request({ query, id: whyNotId });
  };

  const requestPreview = (inputAt: number) => {
    const query = get().draft.trim();
    if (!query) {
      previews.cancel();
      set({ preview: null, error: null });
      return;
    }
    previews.request({ query, inputAt, sentAt: performance.now() });
  };

  return {
    draft: '',
    preview: null,
    error: null,
    whyNotId: null,
    whyNot: { status: 'idle' },
    recorded: null,

    start() {
      if (started) return;
      started = true;
      // DESIGN §3: the score panel moves when weights, T or k change; skills too (hot reload).
      client().on('settings.changed', () => get().refresh());
      client().on('skills.changed', () => get().refresh());
    },

    setDraft(draft, inputAt = performance.now()) {
      set({ draft, recorded: null });
      requestPreview(inputAt);
      requestWhyNot();
    },

    refresh() {
      requestPreview(performance.now());
      requestWhyNot();
    },

    setWhyNot(id) {
      set({
        whyNotId: id,
        whyNot: id && get().draft.trim() ? { status: 'loading', id } : { status: 'idle' },
      });
      requestWhyNot();
    },

    showRecorded(recorded) {
      set({ recorded });
    },
  };
});
