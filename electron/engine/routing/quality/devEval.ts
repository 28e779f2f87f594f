import path from 'node:path';
import type { RoutingIndex } from '../lexicon';
import { route, type RouterConfig } from '../router';
import type { ScoreContext } from '../score';
import { bm25Only, seedScorer, triggerOnly } from './baselines';
import { onPath } from '../../skills/readiness';
import { halfOf, type DevQuery, type Half } from './devset';

/** What one router answers for a query: the plan's primary and the best-scored candidate (skill ids). */
export interface Answer {
  primary: string | null;
  best: string | null;
}

export type Router = (query: string) => Answer;

/** One slice of one router's results. Rates are null when the slice has no such queries. */
export interface SliceRow {
  slice: string;
  /** Should-route queries whose plan primary is a right skill / all should-route queries. */
  p_at_1: number | null;
  /** Should-route queries whose best-scored candidate is a right skill (the ranking alone). */
  best_right: number | null;
  /** No-skill queries where a primary was chosen anyway. */
  false_trigger: number | null;
  positives: number;
  negatives: number;
  hits: number;
  false_triggers: number;
}

export interface Miss {
  query: string;
  tags: string[];
  expected: string[];
  got: string | null;
}

/** Slices the report shows, in order (issue 10: Chinese and paraphrase reported separately). */
export const SLICES = ['all', 'en', 'zh', 'paraphrase', 'forced', 'near-miss', 'negative'] as const;

const inSlice = (q: DevQuery, slice: string) => slice === 'all' || q.tags.includes(slice);
const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 1000) / 1000);

/**
 * Scores `router` on `queries`. `toRel` maps a skill id (its installed folder) back to the
 * corpus-relative folder the labels use.
 */
export function scoreRouter(
  queries: DevQuery[],
  router: Router,
  toRel: (id: string) => string,
): { rows: SliceRow[]; misses: Miss[] } {
  const answers = queries.map((q) => {
    const a = router(q.query);
    return { q, primary: a.primary && toRel(a.primary), best: a.best && toRel(a.best) };
  });
  const rows = SLICES.map((slice): SliceRow => {
    let positives = 0;
    let negatives = 0;
    let hits = 0;
    let bestHits = 0;
    let falseTriggers = 0;
    for (const { q, primary, best } of answers) {
      if (!inSlice(q, slice)) continue;
      if (q.expect.length === 0) {
        negatives++;
        if (primary !== null) falseTriggers++;
        continue;
      }
      positives++;
      if (primary !== null && q.expect.includes(primary)) hits++;
      if (best !== null && q.expect.includes(best)) bestHits++;
    }
    return {
      slice,
      p_at_1: ratio(hits, positives),
      best_right: ratio(bestHits, positives),
      false_trigger: ratio(falseTriggers, negatives),
      positives,
      negatives,
      hits,
      false_triggers: falseTriggers,
    };
  });
  const misses = answers
    .filter(({ q, primary }) =>
      q.expect.length === 0 ? primary !== null : !q.expect.includes(primary ?? ''),
    )
    .map(({ q, primary }) => ({ query: q.query, tags: q.tags, expected: q.expect, got: primary }));
  return { rows, misses };
}

/** Routing, not this machine: prerequisites count as met and nothing has history. */
export const EVAL_CONTEXT: ScoreContext = {
  stats: () => ({ runs: 0, successes: 0 }),
  hasBin: () => true,
  env: {},
  assumeReady: true,
};

/**
 * The same queries on this machine: prerequisites checked against its PATH and environment, as
 * `skilldeck route` does. A skill whose program is missing here is never selected (DESIGN §3),
 * so this says how much of the table a user of this machine sees, and how many queries' right
 * skills cannot run here at all.
 */
export function onThisMachine(
  index: RoutingIndex,
  config: RouterConfig,
  queries: DevQuery[],
  toRel: (id: string) => string,
): { hits: number; positives: number; unavailable: number } {
  const ctx: ScoreContext = {
    ...EVAL_CONTEXT,
    assumeReady: false,
    hasBin: (bin) => onPath(bin),
    env: process.env,
  };
  let hits = 0;
  let positives = 0;
  let unavailable = 0;
  for (const q of queries.filter((x) => x.expect.length > 0)) {
    positives++;
    const result = route(index, q.query, config, ctx);
    if (q.expect.includes(toRel(result.plan.primary_id ?? ''))) hits++;
    const right = result.candidates.filter((c) => q.expect.includes(toRel(c.id)));
    if (right.length > 0 && right.every((c) => c.status === 'unavailable')) unavailable++;
  }
  return { hits, positives, unavailable };
}

/** The routers the issue 10 table compares: SkillDeck and the three baselines. */
export function routers(index: RoutingIndex, config: RouterConfig): Record<string, Router> {
  return {
    skilldeck: (query) => {
      const result = route(index, query, config, EVAL_CONTEXT);
      return { primary: result.plan.primary_id, best: result.candidates[0]?.id ?? null };
    },
    'constant intent (seeds)': (query) => seedScorer(index, query, config),
    'trigger-only': (query) => triggerOnly(index, query, config),
    'plain BM25 (name + description)': (query) => bm25Only(index, query),
  };
}

/** The precision@1 / false-trigger curve over T (issue 10: choose the default from it). */
export function thresholdCurve(
  index: RoutingIndex,
  config: RouterConfig,
  queries: DevQuery[],
  toRel: (id: string) => string,
  thresholds = Array.from({ length: 15 }, (_, i) => Math.round((0.5 + i * 0.025) * 1000) / 1000),
): { threshold: number; p_at_1: number | null; false_trigger: number | null }[] {
  return thresholds.map((threshold) => {
    const router: Router = (query) => {
      const result = route(index, query, { ...config, threshold }, EVAL_CONTEXT);
      return { primary: result.plan.primary_id, best: result.candidates[0]?.id ?? null };
    };
    const all = scoreRouter(queries, router, toRel).rows[0];
    return { threshold, p_at_1: all.p_at_1, false_trigger: all.false_trigger };
  });
}

/** Queries of one half. */
export const halfQueries = (queries: DevQuery[], half: Half) => queries.filter((q) => halfOf(q) === half);

/** Maps installed skill ids back to corpus-relative folders. */
export const relTo = (installDir: string) => (id: string) =>
  path.relative(installDir, id).split(path.sep).join('/');

/** A markdown table of slice rows per router (the bench and the quality test print it). */
export function formatSliceTable(title: string, results: Record<string, SliceRow[]>): string {
  const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);
  const lines = [
    `### ${title}`,
    '| router | slice | P@1 | best right | false triggers | n |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const [router, rows] of Object.entries(results)) {
    for (const r of rows) {
      if (r.positives + r.negatives === 0) continue;
      const n = r.negatives ? `${r.positives}+${r.negatives}` : `${r.positives}`;
      lines.push(
        `| ${router} | ${r.slice} | ${pct(r.p_at_1)} (${r.hits}/${r.positives}) | ${pct(r.best_right)} | ${pct(r.false_trigger)} (${r.false_triggers}/${r.negatives}) | ${n} |`,
      );
    }
  }
  return lines.join('\n');
}
