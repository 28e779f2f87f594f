import { FACTOR_NAMES, type FactorName, type Factors } from '../../../../shared/contract';

export interface FactorMeta {
  label: string;
  /** One line for the legend's tooltip and the Settings rows (DESIGN §3). */
  description: string;
}

export const FACTOR_META: Record<FactorName, FactorMeta> = {
  intent_match: { label: 'Intent', description: 'How closely the message matches what the skill is for.' },
  trigger_match: { label: 'Trigger', description: 'Forced 1.0, a trigger phrase 0.9, semantic recall 0.6.' },
  success_rate: {
    label: 'Success',
    description: 'Smoothed from recorded runs; 0.5 until a skill has history.',
  },
  context_readiness: {
    label: 'Readiness',
    description: 'Share of prerequisites met (bins on PATH, env vars).',
  },
  cost: { label: 'Cost', description: 'Low 1.0, medium 0.5, high 0.0.' },
  conflict: {
    label: 'Conflict',
    description: '1.0, or 0.0 when an anti-trigger hits (a veto unless forced).',
  },
};

export { FACTOR_NAMES };

/** One segment of a stacked score bar, in fractions of the bar's full width. */
export interface BarSegment {
  factor: FactorName;
  /** Left edge, 0–1. */
  start: number;
  /** Width, 0–1. */
  width: number;
  value: number;
  weight: number;
  contribution: number;
}

/**
 * The full width of a bar stands for this score. Weights normally add up to 1 (DESIGN §3), but
 * Settings lets them drift; a scale below 1 would stretch scores, so it never shrinks.
 */
export function barScale(weightSum: number): number {
  return Number.isFinite(weightSum) && weightSum > 1 ? weightSum : 1;
}

export const weightSum = (factors: Factors): number =>
  FACTOR_NAMES.reduce((sum, name) => sum + factors[name].weight, 0);

const clamp01 = (n: number): number => (n < 0 ? 0 : n > 1 ? 1 : n);

/**
 * Lays out the six weighted contributions end to end, in DESIGN §3 order. Empty and negative
 * contributions get no segment; the total never overflows the track.
 */
export function barSegments(factors: Factors, scale: number): BarSegment[] {
  const segments: BarSegment[] = [];
  let start = 0;
  for (const factor of FACTOR_NAMES) {
    const { value, weight, contribution } = factors[factor];
    if (!(contribution > 0)) continue;
    const width = Math.min(contribution / scale, 1 - start);
    if (width <= 0) break;
    segments.push({ factor, start, width, value, weight, contribution });
    start += width;
  }
  return segments;
}

/** Where the threshold line sits on a bar, 0–1. */
export const thresholdPosition = (threshold: number, scale: number): number => clamp01(threshold / scale);
