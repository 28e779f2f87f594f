import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Placeholder } from '../../../ui/Placeholder';
import { Spinner } from '../../../ui/Spinner';
import { ActivityIcon, ErrorIcon } from '../../../ui/icons';
import { useActivityStore } from '../store';
import { LatencyChartView } from './LatencyChartView';
import { MetricCards } from './MetricCards';
import { RouteDetail } from './RouteDetail';
import { RouteList } from './RouteList';
import '../../routing/routing.css';
import '../../routing/candidates.css';
import '../../routing/details.css';
import '../activity.css';

export function ActivityPage() {
  const { status, error, events, hasMore, loadingMore, selectedId, metrics, start, select, loadMore } =
    useActivityStore(
      useShallow((s) => ({
        status: s.status,
        error: s.error,
        events: s.events,
        hasMore: s.hasMore,
        loadingMore: s.loadingMore,
        selectedId: s.selectedId,
        metrics: s.metrics,
        start: s.start,
        select: s.select,
        loadMore: s.loadMore,
      })),
    );
  useEffect(start, [start]);
  const current = events.find((e) => e.route_id === selectedId) ?? events[0];

  if (status === 'idle' || status === 'loading') {
    return (
      <div className="page-center">
        <Spinner label="Loading activity" />
      </div>
    );
  }
  if (status === 'error') {
    return (
      <div className="page-center">
        <Placeholder icon={<ErrorIcon size={24} />} tone="error" title="Could not load the route log">
          <p>{error}</p>
        </Placeholder>
      </div>
    );
  }

  return (
    <div className="activity-page" data-testid="activity-page">
      <section className="activity-page__overview" aria-label="Metrics">
        <MetricCards metrics={metrics} />
        {events.length > 0 && (
          <LatencyChartView
            events={events}
            metrics={metrics}
            selectedId={current?.route_id ?? null}
            onSelect={select}
          />
        )}
      </section>
      {events.length === 0 ? (
        <Placeholder icon={<ActivityIcon size={24} />} title="No routes recorded yet" testId="activity-empty">
          <p>
            Every routed message is recorded here with its full breakdown: sent chat messages, and{' '}
            <code>skilldeck route "…"</code> from the command line. Previews while typing are not recorded.
          </p>
        </Placeholder>
      ) : (
        <div className="activity-page__body">
          <div className="activity-page__list" data-testid="route-list-region">
            <RouteList events={events} selectedId={current?.route_id ?? null} onSelect={select} />
            {hasMore && (
              <button
                type="button"
                className="button button--small activity-page__more"
                onClick={() => void loadMore()}
                disabled={loadingMore}
              >
                {loadingMore ? 'Loading…' : 'Load older routes'}
              </button>
            )}
          </div>
          <div className="activity-page__detail">{current && <RouteDetail event={current} />}</div>
        </div>
      )}
    </div>
  );
}
