import crypto from 'node:crypto';
import { RoutingIndex, type IndexedSkill } from '../lexicon';
import type { RouterConfig } from '../router';
import type { DevQuery } from './devset';
import { routers, scoreRouter, type SliceRow } from './devEval';

/**
 * Small catalogs (issue 10: abstention depends on the catalog's size). A user installs a
 * hundred skills, not nine hundred: fewer neighbours share a query's words, so the margin
 * between the best skill and the next one and the IDF of every word move. These sample a
 * catalog the size of the issue's own measurement (126 skills) from the dev set: the labelled
 * skills of a random sample of queries, filled up with random other skills, and every negative.
 */
export interface CatalogSample {
  /** Corpus-relative folders of the sampled catalog. */
  skills: string[];
  /** The sampled should-route queries (all their right skills are installed) and every negative. */
  queries: DevQuery[];
}

/** A seeded uniform draw in [0, 1): SHA-1 of the seed and a counter (reproducible, no dependency). */
function random(seed: string): () => number {
  let counter = 0;
  return () => crypto.createHash('sha1').update(`${seed}:${counter++}`).digest().readUInt32BE(0) / 2 ** 32;
}

function shuffled<T>(list: readonly T[], next: () => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * One sampled catalog of `size` skills: queries are taken in a seeded random order while their
 * right skills fit in `targetShare` of the catalog, the rest of it is random other skills.
 */
export function sampleCatalog(
  skillSet: readonly string[],
  queries: readonly DevQuery[],
  seed: string,
  size = 126,
  targetShare = 0.7,
): CatalogSample {
  const next = random(seed);
  const chosen = new Set<string>();
  const picked: DevQuery[] = [];
  for (const q of shuffled(
    queries.filter((x) => x.expect.length > 0),
    next,
  )) {
    const fresh = q.expect.filter((e) => !chosen.has(e));
    if (chosen.size + fresh.length > size * targetShare) continue;
    for (const e of fresh) chosen.add(e);
    picked.push(q);
  }
  for (const skill of shuffled(skillSet, next)) {
    if (chosen.size >= size) break;
    chosen.add(skill);
  }
  return { skills: [...chosen], queries: [...picked, ...queries.filter((q) => q.expect.length === 0)] };
}

/** The catalogs sampled from `full` (the index over the whole skill set: they reuse its prepared skills). */
export function sampledSets(
  full: RoutingIndex,
  skillSet: readonly string[],
  queries: readonly DevQuery[],
  toRel: (id: string) => string,
  samples = 8,
  size = 126,
): { index: RoutingIndex; queries: DevQuery[] }[] {
  const byRel = new Map<string, IndexedSkill>();
  for (const skill of full.all.values()) byRel.set(toRel(skill.summary.id), skill);
  return Array.from({ length: samples }, (_, s) => {
    const sample = sampleCatalog(skillSet, queries, `catalog-${s}`, size);
    return {
      index: new RoutingIndex(sample.skills.flatMap((rel) => byRel.get(rel) ?? [])),
      queries: sample.queries,
    };
  });
}

/** SkillDeck's slice rows on sampled catalogs, summed over the samples. */
export function scoreSampledCatalogs(
  full: RoutingIndex,
  skillSet: readonly string[],
  queries: readonly DevQuery[],
  config: RouterConfig,
  toRel: (id: string) => string,
  samples = 8,
  size = 126,
): SliceRow[] {
  let total: SliceRow[] | null = null;
  for (const set of sampledSets(full, skillSet, queries, toRel, samples, size)) {
    const rows = scoreRouter(set.queries, routers(set.index, config).skilldeck, toRel).rows;
    total = total ? total.map((row, i) => sum(row, rows[i])) : rows;
  }
  return total ?? [];
}

function sum(a: SliceRow, b: SliceRow): SliceRow {
  const hits = a.hits + b.hits;
  const positives = a.positives + b.positives;
  const negatives = a.negatives + b.negatives;
  const falseTriggers = a.false_triggers + b.false_triggers;
  const best = (a.best_right ?? 0) * a.positives + (b.best_right ?? 0) * b.positives;
  const ratio = (x: number, n: number) => (n === 0 ? null : Math.round((x / n) * 1000) / 1000);
  return {
    slice: a.slice,
    p_at_1: ratio(hits, positives),
    best_right: ratio(best, positives),
    false_trigger: ratio(falseTriggers, negatives),
    positives,
    negatives,
    hits,
    false_triggers: falseTriggers,
  };
}
