import type { Settings } from '../../../../../shared/contract';
import { FACTOR_NAMES } from '../../routing/factors';

/** Factors are in [0, 1], so weights that add up to 1 keep scores in [0, 1] (DESIGN §3). */
export function WeightsSum({ weights }: { weights: Settings['routing']['weights'] }) {
  const sum = FACTOR_NAMES.reduce((total, name) => total + weights[name], 0);
  const balanced = Math.abs(sum - 1) < 0.005;
  return (
    <span
      className={`weights-sum${balanced ? ' is-balanced' : ' is-off'}`}
      data-testid="weights-sum"
      title={balanced ? 'Weights add up to 1' : 'Weights do not add up to 1: scores are no longer out of 1'}
    >
      Sum {sum.toFixed(2)}
      {!balanced && <span className="weights-sum__hint">should be 1.00</span>}
    </span>
  );
}
