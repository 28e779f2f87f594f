import { useState } from 'react';
import type { Factors } from '../../../../../shared/contract';
import {
  barScale,
  barSegments,
  FACTOR_META,
  thresholdPosition,
  weightSum,
  type BarSegment,
} from '../factors';
import { formatEquation } from '../format';

interface ScoreBarProps {
  factors: Factors;
  threshold: number;
  /** Accessible name: "<skill> score 0.81". */
  label: string;
}

const percent = (fraction: number): string => `${(fraction * 100).toFixed(3)}%`;

/** A stacked bar of the six weighted contributions, with the threshold T drawn across it. */
export function ScoreBar({ factors, threshold, label }: ScoreBarProps) {
  const [hovered, setHovered] = useState<BarSegment | null>(null);
  const scale = barScale(weightSum(factors));
  const segments = barSegments(factors, scale);
  const line = thresholdPosition(threshold, scale);

  return (
    <div className="score-bar" data-testid="score-bar" role="img" aria-label={label}>
      <div className="score-bar__track">
        {segments.map((segment) => (
          <span
            key={segment.factor}
            className={`score-bar__segment factor-${segment.factor}${hovered?.factor === segment.factor ? ' is-hovered' : ''}`}
            style={{ left: percent(segment.start), width: percent(segment.width) }}
            data-testid="score-segment"
            data-factor={segment.factor}
            onPointerEnter={() => setHovered(segment)}
            onPointerLeave={() => setHovered((h) => (h?.factor === segment.factor ? null : h))}
          />
        ))}
        <span
          className="score-bar__threshold"
          style={{ left: percent(line) }}
          data-testid="threshold-tick"
          aria-hidden="true"
        />
      </div>
      {hovered && (
        <div
          className="score-bar__tooltip"
          role="tooltip"
          data-testid="segment-tooltip"
          // Anchored by the same share as its position, so it never leaves the bar at either end.
          style={{
            left: percent(hovered.start + hovered.width / 2),
            transform: `translateX(-${percent(hovered.start + hovered.width / 2)})`,
          }}
        >
          <span className={`factor-swatch factor-${hovered.factor}`} />
          <strong>{FACTOR_META[hovered.factor].label}</strong>
          <span className="score-bar__equation">{formatEquation(hovered)}</span>
          <span className="muted">value × weight</span>
        </div>
      )}
    </div>
  );
}
