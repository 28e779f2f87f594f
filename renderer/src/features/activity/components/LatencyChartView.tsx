import type { RouteEvent, RouteMetrics } from '../../../../../shared/contract';
import { formatMs } from '../../routing/format';
import { plural } from '../../../lib/format';
import { latencyChart } from '../chart';

const WIDTH = 600;
const HEIGHT = 110;
const MAX_BARS = 80;
const MIN_SLOTS = 40;

interface LatencyChartViewProps {
  events: RouteEvent[];
  metrics: RouteMetrics | null;
  selectedId: string | null;
  onSelect: (id: string) => void;
}

/** Routing time of the latest routes, oldest left; a bar is tinted when the route selected a skill. */
export function LatencyChartView({ events, metrics, selectedId, onSelect }: LatencyChartViewProps) {
  const recent = events.slice(0, MAX_BARS).reverse();
  const p50 = metrics?.latency_p50 ?? null;
  const p95 = metrics?.latency_p95 ?? null;
  const chart = latencyChart(
    recent.map((e) => e.latency_ms),
    WIDTH,
    HEIGHT,
    [p50, p95],
    MIN_SLOTS,
  );
  const lines = [
    { label: 'p50', value: p50 },
    { label: 'p95', value: p95 },
  ].filter((line): line is { label: string; value: number } => line.value !== null);
  // p50's label hangs below its line, p95's above: near the top of the plot p95's would rise into
  // the caption, so it hangs below too when p50's line lies far enough down to leave it room.
  const below = (label: string): boolean =>
    label === 'p50' ||
    (p95 !== null && chart.y(p95) < HEIGHT / 4 && (p50 === null || chart.y(p50) - chart.y(p95) > HEIGHT / 3));
  // Two lines this close (a few routes, or steady ones) get one label under the lower line: two
  // would sit on each other, and p95's rose into the caption.
  const together = p50 !== null && p95 !== null && chart.y(p50) - chart.y(p95) < HEIGHT / 3;
  const labels = together
    ? [{ key: 'p50-p95', text: `p50 ${formatMs(p50)} · p95 ${formatMs(p95)}`, y: chart.y(p50), below: true }]
    : lines.map((line) => ({
        key: line.label,
        text: `${line.label} ${formatMs(line.value)}`,
        y: chart.y(line.value),
        below: below(line.label),
      }));

  return (
    <figure className="latency-chart" data-testid="latency-chart">
      <figcaption>
        <span>Routing latency, last {plural(recent.length, 'route')}</span>
        <span className="latency-chart__legend">
          <span className="latency-chart__key is-selected" /> a skill selected
          <span className="latency-chart__key" /> plain chat
        </span>
      </figcaption>
      <div className="latency-chart__plot">
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-label="Latency per route"
        >
          {chart.bars.map((bar, i) => {
            const event = recent[i];
            const selected = event.plan.primary !== null;
            return (
              <rect
                key={event.route_id}
                x={bar.x}
                y={bar.y}
                width={bar.width}
                height={bar.height}
                rx={1}
                className={`latency-chart__bar${selected ? ' is-selected' : ''}${event.route_id === selectedId ? ' is-current' : ''}`}
                onClick={() => onSelect(event.route_id)}
              >
                <title>{`${event.query}\n${formatMs(event.latency_ms)} · ${event.plan.primary ?? 'plain chat'}`}</title>
              </rect>
            );
          })}
          {lines.map((line) => (
            <line
              key={line.label}
              x1={0}
              x2={WIDTH}
              y1={chart.y(line.value)}
              y2={chart.y(line.value)}
              className={`latency-chart__ref latency-chart__ref--${line.label}`}
              vectorEffect="non-scaling-stroke"
            />
          ))}
        </svg>
        {labels.map((label) => (
          <span
            key={label.key}
            className={`latency-chart__ref-label${label.below ? ' latency-chart__ref-label--below' : ''}`}
            style={{ top: `${(label.y / HEIGHT) * 100}%` }}
            data-testid="latency-ref-label"
          >
            {label.text}
          </span>
        ))}
        <span className="latency-chart__max">{formatMs(chart.max)}</span>
      </div>
    </figure>
  );
}
