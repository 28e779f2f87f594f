import type { RoutingIndex } from './lexicon';

/**
 * Per-index scratch buffers: a keystroke at 10k skills must not allocate a Map entry per
 * skill it touches. A match reads them until the next match on the same index.
 */
interface Scratch {
  total: Float64Array;
  best: Float64Array;
  reached: Float64Array;
  stamp: Int32Array;
  touched: number[];
  generation: number;
}
const scratches = new WeakMap<RoutingIndex, Scratch>();

export function scratchOf(index: RoutingIndex): Scratch {
  let scratch = scratches.get(index);
  if (!scratch) {
    const n = index.size;
    scratch = {
      total: new Float64Array(n),
      best: new Float64Array(n),
      reached: new Float64Array(n),
      stamp: new Int32Array(n),
      touched: [],
      generation: 0,
    };
    scratches.set(index, scratch);
  }
  for (const d of scratch.touched) {
    scratch.total[d] = 0;
    scratch.reached[d] = 0;
  }
  scratch.touched = [];
  return scratch;
}
