import { FACTOR_META, FACTOR_NAMES } from '../factors';

export function FactorLegend({ threshold }: { threshold: number }) {
  return (
    <ul className="factor-legend" data-testid="factor-legend" aria-label="Factors">
      {FACTOR_NAMES.map((name) => (
        <li key={name} title={FACTOR_META[name].description}>
          <span className={`factor-swatch factor-${name}`} />
          {FACTOR_META[name].label}
        </li>
      ))}
      <li title="Threshold T: a candidate must reach it to be selected, unless forced">
        <span className="factor-legend__threshold" />T {threshold.toFixed(2)}
      </li>
    </ul>
  );
}
