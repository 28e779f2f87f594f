import type { RouteEvent } from '../../../../../shared/contract';
import { plural } from '../../../lib/format';
import { XIcon } from '../../../ui/icons';
import { formatMs, modelChoice, STATUS_META } from '../format';
import { KeepAsEval } from '../../evals/components/KeepAsEval';
import { CandidateList } from './CandidateList';
import { FactorLegend } from './FactorLegend';
import { PlanCard } from './PlanCard';

interface RecordedRoutePanelProps {
  route: RouteEvent;
  onClose(): void;
}

/** A sent message's route as it was recorded (a chat answer's routing chip opens it). */
export function RecordedRoutePanel({ route, onClose }: RecordedRoutePanelProps) {
  const shown = route.candidates.filter((c) => !STATUS_META[c.status].dim);
  const misses = route.candidates.filter((c) => STATUS_META[c.status].dim);
  const chosen = modelChoice(route);
  return (
    <section
      className="score-panel score-panel--recorded"
      data-testid="score-panel"
      data-state="recorded"
      data-query={route.query}
      data-route-id={route.route_id}
      aria-label="Route of a sent message"
    >
      <header className="score-panel__header">
        <h2>Route of a sent message</h2>
        <button
          type="button"
          className="button button--small button--quiet"
          onClick={onClose}
          data-testid="recorded-route-close"
        >
          <XIcon size={12} />
          Back to live preview
        </button>
      </header>
      <p className="score-panel__recorded-query" data-testid="recorded-route-query">
        “{route.query}”
      </p>
      <span className="score-panel__meta">
        {plural(route.candidates.length, 'candidate')} · routed in {formatMs(route.latency_ms)} ·{' '}
        {new Date(route.ts).toLocaleString()}
      </span>
      <FactorLegend threshold={route.threshold} />
      <PlanCard plan={route.plan} chosenByModel={chosen} />
      {route.candidates.length === 0 ? (
        <p className="score-panel__none" data-testid="no-candidates">
          No skill was recalled for this message: it went to plain chat.
        </p>
      ) : (
        <CandidateList
          selected={shown}
          misses={misses}
          threshold={route.threshold}
          primaryId={route.plan.primary_id}
          chosenId={chosen?.id}
        />
      )}
      <KeepAsEval key={route.route_id} route={route} />
    </section>
  );
}
