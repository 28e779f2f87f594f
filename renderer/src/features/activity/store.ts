import { create } from 'zustand';
import type { RouteEvent, RouteMetrics } from '../../../../shared/contract';
import { client, errorMessage } from '../../lib/client';
import { createLatestRequester } from '../routing/latest';

const PAGE = 100;

export interface ActivityState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  /** Recorded routes, newest first. */
  events: RouteEvent[];
  hasMore: boolean;
  loadingMore: boolean;
  selectedId: string | null;
  metrics: RouteMetrics | null;
}

export interface ActivityActions {
  /** Loads the log once and follows `route.recorded` / `route.completed`; later calls do nothing. */
  start(): void;
  loadMore(): Promise<void>;
  select(id: string | null): void;
}

let started = false;

const upsert = (events: RouteEvent[], event: RouteEvent): RouteEvent[] => {
  const at = events.findIndex((e) => e.route_id === event.route_id);
  if (at === -1) return [event, ...events];
  return events.map((e, i) => (i === at ? event : e));
};

export const useActivityStore = create<ActivityState & ActivityActions>()((set, get) => {
  // A burst of recorded routes asks for metrics once per round trip, not once per route.
  const metrics = createLatestRequester<null, RouteMetrics>(
    () => client().invoke('metrics.get', {}),
    (data) => set({ metrics: data }),
    () => undefined,
  );

  const onEvent = (event: RouteEvent) => {
    set((s) => ({ events: upsert(s.events, event), selectedId: s.selectedId ?? event.route_id }));
    metrics.request(null);
  };

  return {
    status: 'idle',
    error: null,
    events: [],
    hasMore: false,
    loadingMore: false,
    selectedId: null,
    metrics: null,

    start() {
      if (started) return;
      started = true;
      set({ status: 'loading' });
      client().on('route.recorded', onEvent);
      client().on('route.completed', onEvent);
      metrics.request(null);
      client()
        .invoke('activity.list', { limit: PAGE })
        .then(
          ({ events, has_more }) =>
            set((s) => {
              // Events pushed while the first page loaded are newer than it.
              const merged = s.events.reduce((list, e) => upsert(list, e), events);
              return {
                status: 'ready',
                events: merged,
                hasMore: has_more,
                selectedId: s.selectedId ?? merged[0]?.route_id ?? null,
              };
            }),
          (error: unknown) => set({ status: 'error', error: errorMessage(error) }),
        );
    },

    async loadMore() {
      const { events, loadingMore } = get();
      const last = events[events.length - 1];
      if (loadingMore || !last) return;
      set({ loadingMore: true });
      try {
        const page = await client().invoke('activity.list', { limit: PAGE, before: last.route_id });
        set((s) => ({
          events: [
            ...s.events,
            ...page.events.filter((e) => !s.events.some((x) => x.route_id === e.route_id)),
          ],
          hasMore: page.has_more,
        }));
      } catch (error) {
        set({ error: errorMessage(error) });
      } finally {
        set({ loadingMore: false });
      }
    },

    select: (id) => set({ selectedId: id }),
  };
});
