import type { RouteEvent } from '../../../../../shared/contract';
import { formatMs, modelChoice } from '../../routing/format';

const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const day = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

function when(ts: string): string {
  const date = new Date(ts);
  if (Number.isNaN(date.getTime())) return ts;
  const today = new Date().toDateString() === date.toDateString();
  return today ? time.format(date) : `${day.format(date)} ${time.format(date)}`;
}

interface RouteListProps {
  events: RouteEvent[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}

export function RouteList({ events, selectedId, onSelect }: RouteListProps) {
  return (
    <ul className="route-list" data-testid="route-list" aria-label="Recorded routes">
      {events.map((event) => (
        <li key={event.route_id}>
          <button
            type="button"
            className={`route-row${event.route_id === selectedId ? ' is-selected' : ''}`}
            aria-current={event.route_id === selectedId}
            onClick={() => onSelect(event.route_id)}
            data-testid="route-row"
            data-route-id={event.route_id}
            data-primary={event.plan.primary ?? ''}
            data-model-choice={modelChoice(event)?.name}
          >
            <span className="route-row__query">{event.query}</span>
            <span className="route-row__meta">
              <span className={event.plan.primary ? 'route-row__skill' : 'route-row__skill is-none'}>
                {event.plan.primary ?? modelChoice(event)?.name ?? 'plain chat'}
              </span>
              <span>{formatMs(event.latency_ms)}</span>
              <span>{event.origin}</span>
              <span className="route-row__time">{when(event.ts)}</span>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
