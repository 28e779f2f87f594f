/** Geometry of the latency chart: one bar per route, oldest left, and the p50 / p95 lines. */
export interface ChartBar {
  x: number;
  y: number;
  width: number;
  height: number;
  value: number;
}

export interface LatencyChart {
  bars: ChartBar[];
  /** The value at the top of the plot (a "nice" number ≥ every bar and reference line). */
  max: number;
  /** y of a value, for the reference lines. */
  y: (value: number) => number;
}

/** 1, 2 or 5 × a power of ten at or above `n`: axis maxima people read at a glance. */
export function niceCeil(n: number): number {
  if (!(n > 0) || !Number.isFinite(n)) return 1;
  const power = 10 ** Math.floor(Math.log10(n));
  for (const step of [1, 2, 5, 10]) if (step * power >= n * (1 - 1e-9)) return step * power;
  return 10 * power;
}

/**
 * Bars keep the width of `minSlots` slots when there are fewer routes, and sit at the right end
 * (the newest route is always at the right edge).
 */
export function latencyChart(
  values: readonly number[],
  width: number,
  height: number,
  references: readonly (number | null)[] = [],
  minSlots = 1,
): LatencyChart {
  const top = Math.max(...values, ...references.filter((r): r is number => r !== null), 0);
  const max = niceCeil(top);
  const y = (value: number) => height - (Math.min(value, max) / max) * height;
  if (values.length === 0) return { bars: [], max, y };
  const slots = Math.max(values.length, minSlots);
  const slot = width / slots;
  const offset = (slots - values.length) * slot;
  const gap = Math.min(2, slot * 0.25);
  const bars = values.map((value, i) => {
    const barY = y(value);
    // A route of 0.01 ms still gets a visible sliver.
    const h = Math.max(height - barY, value > 0 ? 1 : 0);
    return {
      x: offset + i * slot + gap / 2,
      y: height - h,
      width: Math.max(slot - gap, 0.5),
      height: h,
      value,
    };
  });
  return { bars, max, y };
}
