import type { RouteMetrics } from '../../../../../shared/contract';
import { formatCount } from '../../../lib/format';
import { formatMs, formatRate } from '../../routing/format';

interface Card {
  key: string;
  label: string;
  value: string;
  hint: string;
}

/** The route log's metrics (routing spec §14) as stat cards. */
export function MetricCards({ metrics }: { metrics: RouteMetrics | null }) {
  const cards: Card[] = [
    {
      key: 'total',
      label: 'Routes',
      value: metrics ? formatCount(metrics.total) : '—',
      hint: 'Routes recorded',
    },
    {
      key: 'trigger_rate',
      label: 'Trigger rate',
      value: formatRate(metrics?.trigger_rate),
      hint: 'Share of routes that selected a skill',
    },
    {
      key: 'success_rate',
      label: 'Success rate',
      value: formatRate(metrics?.success_rate),
      hint: 'Share of routes with an outcome that succeeded',
    },
    {
      key: 'fallback_rate',
      label: 'Fallback rate',
      value: formatRate(metrics?.fallback_rate),
      hint: 'Share of routes with an outcome that used a fallback',
    },
    {
      key: 'latency_p50',
      label: 'Latency p50',
      value: formatMs(metrics?.latency_p50),
      hint: 'Median routing time',
    },
    {
      key: 'latency_p95',
      label: 'Latency p95',
      value: formatMs(metrics?.latency_p95),
      hint: '95th percentile routing time',
    },
    {
      key: 'avg_tokens',
      label: 'Avg tokens',
      value: metrics?.avg_tokens == null ? '—' : formatCount(Math.round(metrics.avg_tokens)),
      hint: 'Mean model tokens (in + out) per route where a model ran',
    },
  ];
  return (
    <ul className="metric-cards" data-testid="metric-cards">
      {cards.map((card) => (
        <li key={card.key} className="metric-card" title={card.hint} data-testid={`metric-${card.key}`}>
          <span className="metric-card__label">{card.label}</span>
          <span className="metric-card__value">{card.value}</span>
        </li>
      ))}
    </ul>
  );
}
