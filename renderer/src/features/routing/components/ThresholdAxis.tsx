import { thresholdPosition } from '../factors';

/** The score axis above the bars, with T marked where every bar's tick sits. */
export function ThresholdAxis({ threshold, scale }: { threshold: number; scale: number }) {
  const at = thresholdPosition(threshold, scale);
  return (
    <div className="threshold-axis" aria-hidden="true">
      <span className="threshold-axis__end">0</span>
      <span
        className="threshold-axis__marker"
        style={{ left: `${(at * 100).toFixed(3)}%` }}
        data-testid="threshold-line"
        data-threshold={threshold}
      >
        T {threshold.toFixed(2)}
      </span>
      <span className="threshold-axis__end threshold-axis__end--max">
        {scale === 1 ? '1' : scale.toFixed(2)}
      </span>
    </div>
  );
}
