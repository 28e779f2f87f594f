import { describe, expect, it } from 'vitest';
import type { Factors } from '../../../../shared/contract';
import { barScale, barSegments, thresholdPosition, weightSum } from './factors';

const factor = (value: number, weight: number) => ({ value, weight, contribution: value * weight });
const defaults = (values: [number, number, number, number, number, number]): Factors => ({
  intent_match: factor(values[0], 0.4),
  trigger_match: factor(values[1], 0.2),
  success_rate: factor(values[2], 0.15),
  context_readiness: factor(values[3], 0.1),
  cost: factor(values[4], 0.1),
  conflict: factor(values[5], 0.05),
});

describe('barSegments', () => {
  it('lays the six contributions end to end in DESIGN §3 order', () => {
    const segments = barSegments(defaults([0.8, 0.9, 0.5, 1, 1, 1]), 1);
    expect(segments.map((s) => s.factor)).toEqual([
      'intent_match',
      'trigger_match',
      'success_rate',
      'context_readiness',
      'cost',
      'conflict',
    ]);
    expect(segments[0].start).toBe(0);
    expect(segments[0].width).toBeCloseTo(0.32);
    expect(segments[1].start).toBeCloseTo(0.32);
    expect(segments[1].width).toBeCloseTo(0.18);
    const last = segments[segments.length - 1];
    expect(last.start + last.width).toBeCloseTo(0.32 + 0.18 + 0.075 + 0.1 + 0.1 + 0.05);
  });

  it('skips empty factors (a vetoed conflict, a high cost)', () => {
    const segments = barSegments(defaults([0.5, 0.6, 0.5, 1, 0, 0]), 1);
    expect(segments.map((s) => s.factor)).toEqual([
      'intent_match',
      'trigger_match',
      'success_rate',
      'context_readiness',
    ]);
  });

  it('scales by the weights’ sum when it exceeds 1 and never overflows the track', () => {
    const heavy = defaults([1, 1, 1, 1, 1, 1]);
    heavy.intent_match = factor(1, 1);
    const scale = barScale(weightSum(heavy));
    expect(scale).toBeCloseTo(1.6);
    const segments = barSegments(heavy, scale);
    const end = segments[segments.length - 1].start + segments[segments.length - 1].width;
    expect(end).toBeCloseTo(1);
    expect(segments[0].width).toBeCloseTo(1 / 1.6);
    expect(barSegments(heavy, 1).reduce((sum, s) => sum + s.width, 0)).toBeCloseTo(1);
  });
});

describe('barScale and thresholdPosition', () => {
  it('never shrinks below 1 and clamps the line to the track', () => {
    expect(barScale(0.6)).toBe(1);
    expect(barScale(Number.NaN)).toBe(1);
    expect(thresholdPosition(0.65, 1)).toBe(0.65);
    expect(thresholdPosition(0.65, 1.3)).toBeCloseTo(0.5);
    expect(thresholdPosition(2, 1)).toBe(1);
  });
});
