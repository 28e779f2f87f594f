/**
 * Keystroke → repainted score panel, with User Timing marks (issue: ≤ 50 ms with the corpus
 * loaded). The composer marks each input; the panel measures after it commits and again after
 * the next frame painted. The last figures are on `window.__skilldeckPerf` for the bench.
 */
export interface PerfSample {
  query: string;
  /** Keystroke → the panel's DOM committed. */
  commitMs: number;
  /** Keystroke → the frame with it painted (a frame callback plus a task after it). */
  paintMs: number;
  /** The `route.preview` round trip. */
  roundTripMs: number;
  /** Routing time inside the engine (`latency_ms`). */
  engineMs: number;
}

export interface PerfRecord {
  last: PerfSample | null;
  /** The latest samples, oldest first (at most 500). */
  samples: PerfSample[];
}

declare global {
  interface Window {
    __skilldeckPerf?: PerfRecord;
  }
}

const MAX_SAMPLES = 500;
export const INPUT_MARK = 'skilldeck:input';
export const MEASURE_COMMIT = 'skilldeck:keystroke-to-commit';
export const MEASURE_PAINT = 'skilldeck:keystroke-to-paint';

/** Marks a keystroke in the composer and returns its time. */
export function markInput(): number {
  performance.clearMarks(INPUT_MARK);
  const mark = performance.mark(INPUT_MARK);
  return mark.startTime;
}

function record(): PerfRecord {
  window.__skilldeckPerf ??= { last: null, samples: [] };
  return window.__skilldeckPerf;
}

/** Called from the panel's layout effect, right after the preview for `inputAt` committed. */
export function measurePanel(query: string, inputAt: number, roundTripMs: number, engineMs: number): void {
  const commit = performance.measure(MEASURE_COMMIT, { start: inputAt, end: performance.now() });
  requestAnimationFrame(() => {
    // The task after a frame callback runs once that frame has been painted.
    setTimeout(() => {
      const paint = performance.measure(MEASURE_PAINT, { start: inputAt, end: performance.now() });
      const perf = record();
      const sample = { query, commitMs: commit.duration, paintMs: paint.duration, roundTripMs, engineMs };
      perf.last = sample;
      perf.samples.push(sample);
      if (perf.samples.length > MAX_SAMPLES) perf.samples.splice(0, perf.samples.length - MAX_SAMPLES);
      performance.clearMeasures(MEASURE_COMMIT);
      performance.clearMeasures(MEASURE_PAINT);
    }, 0);
  });
}
