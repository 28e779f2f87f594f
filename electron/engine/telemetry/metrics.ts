import type { RouteEvent, RouteMetrics } from '../../../shared/contract';

/** Nearest-rank percentile of an ascending list. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

const ratio = (part: number, whole: number) =>
  whole === 0 ? null : Math.round((part / whole) * 10000) / 10000;

/** Metrics over route events (routing spec §14): trigger, success and fallback rates, latency, tokens. */
export function computeMetrics(events: RouteEvent[]): RouteMetrics {
  const latencies = events.map((e) => e.latency_ms).sort((a, b) => a - b);
  const triggered = events.filter((e) => e.plan.primary !== null).length;
  const outcomes = events.flatMap((e) => (e.result ? [e.result] : []));
  const successes = outcomes.filter((r) => r.status === 'success').length;
  const fallbacks = outcomes.filter((r) => r.fallback_used).length;
  const tokens = outcomes
    .filter((r) => r.tokens_in !== undefined || r.tokens_out !== undefined)
    .map((r) => (r.tokens_in ?? 0) + (r.tokens_out ?? 0));
  return {
    total: events.length,
    trigger_rate: ratio(triggered, events.length),
    success_rate: ratio(successes, outcomes.length),
    fallback_rate: ratio(fallbacks, outcomes.length),
    latency_p50: percentile(latencies, 0.5),
    latency_p95: percentile(latencies, 0.95),
    avg_tokens: tokens.length === 0 ? null : Math.round(tokens.reduce((a, b) => a + b, 0) / tokens.length),
  };
}
