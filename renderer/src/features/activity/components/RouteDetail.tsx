import type { RouteEvent } from '../../../../../shared/contract';
import { Badge } from '../../../ui/Badge';
import { KeepAsEval } from '../../evals/components/KeepAsEval';
import { CandidateList } from '../../routing/components/CandidateList';
import { FactorLegend } from '../../routing/components/FactorLegend';
import { PlanCard } from '../../routing/components/PlanCard';
import { formatMs, modelChoice, STATUS_META } from '../../routing/format';

/** One recorded route with the same breakdown the live panel shows. */
export function RouteDetail({ event }: { event: RouteEvent }) {
  const selected = event.candidates.filter((c) => !STATUS_META[c.status].dim);
  const misses = event.candidates.filter((c) => STATUS_META[c.status].dim);
  const chosen = modelChoice(event);
  return (
    <article className="route-detail" data-testid="route-detail" data-route-id={event.route_id}>
      <header className="route-detail__header">
        <h2 className="route-detail__query">{event.query}</h2>
        <div className="route-detail__meta">
          <span>{new Date(event.ts).toLocaleString()}</span>
          <span>routed in {formatMs(event.latency_ms)}</span>
          <span>T {event.threshold.toFixed(2)}</span>
          <Badge tone="neutral" variant="outline">
            {event.origin}
          </Badge>
          {event.result && (
            <Badge tone={event.result.status === 'success' ? 'green' : 'red'} testId="route-outcome">
              {event.result.status}
              {event.result.fallback_used ? ' · fallback' : ''}
            </Badge>
          )}
          {event.result?.tokens_in !== undefined && (
            <span data-testid="route-tokens">
              {event.result.tokens_in} tokens in · {event.result.tokens_out ?? 0} out
            </span>
          )}
        </div>
      </header>
      <FactorLegend threshold={event.threshold} />
      <PlanCard plan={event.plan} chosenByModel={chosen} />
      {event.candidates.length > 0 ? (
        <CandidateList
          selected={selected}
          misses={misses}
          threshold={event.threshold}
          primaryId={event.plan.primary_id}
          chosenId={chosen?.id}
        />
      ) : (
        <p className="score-panel__none">No skill was recalled: the message went to plain chat.</p>
      )}
      <KeepAsEval key={event.route_id} route={event} />
    </article>
  );
}
