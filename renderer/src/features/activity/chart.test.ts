import { describe, expect, it } from 'vitest';
import { latencyChart, niceCeil } from './chart';

describe('niceCeil', () => {
  it('rounds up to 1, 2 or 5 times a power of ten', () => {
    expect(niceCeil(0.37)).toBe(0.5);
    expect(niceCeil(0.5)).toBe(0.5);
    expect(niceCeil(1.2)).toBe(2);
    expect(niceCeil(7)).toBe(10);
    expect(niceCeil(0)).toBe(1);
    expect(niceCeil(Number.NaN)).toBe(1);
  });
});

describe('latencyChart', () => {
  it('places one bar per value, oldest left, scaled to a nice maximum', () => {
    const chart = latencyChart([0.2, 0.4, 0.1, 0.8], 400, 100);
    expect(chart.max).toBe(1);
    expect(chart.bars).toHaveLength(4);
    expect(chart.bars[0].x).toBeCloseTo(1);
    expect(chart.bars[1].x).toBeCloseTo(101);
    expect(chart.bars[3].height).toBeCloseTo(80);
    expect(chart.bars[3].y).toBeCloseTo(20);
    expect(chart.bars.every((b) => b.width > 0 && b.x + b.width <= 400)).toBe(true);
  });

  it('keeps reference lines on the plot and tiny values visible', () => {
    const chart = latencyChart([0.001, 0.002], 100, 50, [0.002, 3]);
    expect(chart.max).toBe(5);
    expect(chart.y(3)).toBeCloseTo(20);
    expect(chart.bars[0].height).toBe(1);
  });

  it('keeps few bars narrow and puts the newest at the right edge', () => {
    const chart = latencyChart([0.2, 0.4], 400, 100, [], 40);
    expect(chart.bars[0].width).toBeLessThanOrEqual(10);
    const last = chart.bars[1];
    expect(last.x + last.width).toBeCloseTo(399);
  });

  it('handles an empty log', () => {
    const chart = latencyChart([], 100, 50, [null]);
    expect(chart.bars).toEqual([]);
    expect(chart.max).toBe(1);
  });
});
