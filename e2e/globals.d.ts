// What the renderer puts on `window` for tests and the bench (page.evaluate runs in the page).
import type { PerfRecord } from '../renderer/src/features/routing/perf';

declare global {
  interface Window {
    __skilldeckPerf?: PerfRecord;
  }
}

export {};
