import type { Calibration, IntentFeatures } from '../calibration';
import type { RoutingIndex } from '../lexicon';
import { recall } from '../recall';
import type { RouterConfig } from '../router';
import { intentFeatures } from '../score';
import type { DevQuery } from './devset';

/** One recalled candidate of a labelled query: its lexical evidence and whether it is right. */
export interface Example {
  features: IntentFeatures;
  right: boolean;
}

/**
 * The calibration's training data (issue 10 §2): every candidate recall brings up for the
 * given queries — dev half only — with its features and label. Forced queries say nothing
 * about intent and are left out.
 */
export function collectExamples(
  index: RoutingIndex,
  queries: DevQuery[],
  config: RouterConfig,
  toRel: (id: string) => string,
): Example[] {
  const out: Example[] = [];
  for (const q of queries) {
    if (q.tags.includes('forced')) continue;
    const { candidates, match } = recall(index, q.query, config.topK, config);
    if (match.mass === 0) continue;
    for (const c of candidates)
      out.push({ features: intentFeatures(c, match), right: q.expect.includes(toRel(c.doc.id)) });
  }
  return out;
}

const NAMES = ['coverage', 'relative', 'strength', 'declared', 'implicit'] as const;
const vector = (f: IntentFeatures) => [
  f.coverage,
  f.relative,
  Math.log1p(f.strength),
  f.declared,
  f.implicit,
  1,
];

/**
 * Logistic regression by Newton's method with a small ridge (six parameters, about a thousand
 * examples: it converges in a handful of steps and needs no library). Evidence may only raise
 * the probability: a feature whose weight comes out negative (collinear with another) is
 * fixed at 0 and the rest refitted.
 */
export function fitLogistic(examples: Example[], ridge = 1e-2, steps = 50): Calibration {
  const k = NAMES.length + 1;
  const free = new Set(Array.from({ length: k }, (_, i) => i));
  let w = new Array<number>(k).fill(0);
  for (let round = 0; round < NAMES.length; round++) {
    w = newton(examples, [...free], ridge, steps);
    const negative = [...free].filter((i) => i < NAMES.length && w[i] < 0);
    if (negative.length === 0) break;
    for (const i of negative) free.delete(i);
  }
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const out = { bias: round(w[k - 1]) } as Calibration;
  NAMES.forEach((name, i) => (out[name] = round(w[i])));
  return out;
}

function newton(examples: Example[], free: number[], ridge: number, steps: number): number[] {
  const k = NAMES.length + 1;
  const w = new Array<number>(k).fill(0);
  for (let step = 0; step < steps; step++) {
    const grad = free.map(() => 0);
    const hess = free.map(() => free.map(() => 0));
    for (const { features, right } of examples) {
      const x = vector(features);
      const z = x.reduce((sum, xi, i) => sum + xi * w[i], 0);
      const p = 1 / (1 + Math.exp(-z));
      free.forEach((fi, a) => {
        grad[a] += (p - (right ? 1 : 0)) * x[fi];
        free.forEach((fj, b) => (hess[a][b] += p * (1 - p) * x[fi] * x[fj]));
      });
    }
    free.forEach((fi, a) => {
      if (fi === k - 1) return;
      grad[a] += ridge * w[fi];
      hess[a][a] += ridge;
    });
    const delta = solve(hess, grad);
    free.forEach((fi, a) => (w[fi] -= delta[a]));
    if (Math.max(...delta.map(Math.abs)) < 1e-6) break;
  }
  return w;
}

/** Gaussian elimination with partial pivoting for the Newton step. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r][col]) > Math.abs(m[pivot][col])) pivot = r;
    [m[col], m[pivot]] = [m[pivot], m[col]];
    const d = m[col][col] || 1e-12;
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = m[r][col] / d;
      for (let c = col; c <= n; c++) m[r][c] -= f * m[col][c];
    }
  }
  return m.map((row, i) => row[n] / (row[i] || 1e-12));
}

/**
 * Examples from skills' own trigger evals (`evals/trigger_evals.json`): the eval's skill is
 * right when `should_trigger`, wrong otherwise; other candidates are not labelled. They come
 * from a small catalog (the bundled skills), so the calibration also holds for a user with a
 * dozen skills, not only for the 900-skill corpus slice.
 */
export function collectEvalExamples(
  index: RoutingIndex,
  evals: { id: string; cases: { query: string; should_trigger: boolean }[] }[],
  config: RouterConfig,
): Example[] {
  const out: Example[] = [];
  for (const { id, cases } of evals) {
    for (const { query, should_trigger } of cases) {
      const { candidates, match } = recall(index, query, config.topK, config);
      const c = candidates.find((x) => x.doc.id === id);
      if (!c || c.source === 'forced' || match.mass === 0) continue;
      out.push({ features: intentFeatures(c, match), right: should_trigger });
    }
  }
  return out;
}
