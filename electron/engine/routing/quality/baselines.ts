import type { RoutingIndex } from '../lexicon';
import { recall } from '../recall';
import type { RouterConfig } from '../router';
import { phraseHits, terms } from '../text';

/** A baseline's answer: the primary it would pick and its best-ranked skill (ids). */
export interface BaselineAnswer {
  primary: string | null;
  best: string | null;
}

/**
 * Baseline 1, trigger-only routing (what most peers do): a named skill if any, else the skill
 * whose trigger phrase hit, longest phrase first. No threshold, no anti-triggers.
 */
export function triggerOnly(index: RoutingIndex, query: string, config: RouterConfig): BaselineAnswer {
  const { candidates } = recall(index, query, 0, config);
  const forced = candidates.find((c) => c.source === 'forced');
  if (forced) return { primary: forced.doc.id, best: forced.doc.id };
  let best: { id: string; length: number } | null = null;
  for (const c of candidates) {
    for (const trigger of c.matchedTriggers) {
      if (!best || trigger.length > best.length) best = { id: c.doc.id, length: trigger.length };
    }
  }
  return { primary: best?.id ?? null, best: best?.id ?? null };
}

/**
 * Baseline 2, the seeds' scorer (seed 000 §3.2.2, SkillScorer) on the same recall: intent a
 * constant 0.5, trigger 1.0 / 0.9 / 0.6 by source, success 0.5, readiness 1.0 (no context),
 * cost 1 / 0.5 / 0, conflict 0 or −1 on an anti-trigger; forced first, else ≥ 0.65, best first.
 */
export function seedScorer(index: RoutingIndex, query: string, config: RouterConfig): BaselineAnswer {
  const { candidates, prepared } = recall(index, query, config.topK, config);
  const forced = candidates.find((c) => c.source === 'forced');
  if (forced) return { primary: forced.doc.id, best: forced.doc.id };
  const cost = { low: 1, medium: 0.5, high: 0 } as const;
  let best: { id: string; score: number } | null = null;
  for (const c of candidates) {
    const trigger = c.source === 'rule' ? 0.9 : 0.6;
    const conflict = c.doc.antiTriggers.some((p) => phraseHits(p, prepared)) ? -1 : 0;
    const score =
      0.4 * 0.5 +
      0.2 * trigger +
      0.15 * 0.5 +
      0.1 * 1 +
      0.1 * cost[c.doc.metadata.costHint] +
      0.05 * conflict;
    if (!best || score > best.score) best = { id: c.doc.id, score };
  }
  return { primary: best && best.score >= 0.65 ? best.id : null, best: best?.id ?? null };
}

/**
 * Baseline 3, a plain BM25 (k1 1.2, b 0.75) over name + description, written apart from the
 * router's index as an outside reference would be. It cannot abstain: any overlap picks the top.
 */
export function bm25Only(index: RoutingIndex, query: string): BaselineAnswer {
  const table = plainTable(index);
  const scores = new Map<number, number>();
  for (const term of new Set(terms(query))) {
    const list = table.postings.get(term);
    if (!list) continue;
    const idf = Math.log(1 + (table.n - list.length + 0.5) / (list.length + 0.5));
    for (const [d, tf] of list) {
      const norm = 1.2 * (0.25 + (0.75 * table.lengths[d]) / table.avg);
      scores.set(d, (scores.get(d) ?? 0) + (idf * tf * 2.2) / (tf + norm));
    }
  }
  let top: { d: number; score: number } | null = null;
  for (const [d, score] of scores) if (!top || score > top.score) top = { d, score };
  const id = top ? index.docs[top.d].id : null;
  return { primary: id, best: id };
}

interface PlainTable {
  postings: Map<string, [number, number][]>;
  lengths: number[];
  avg: number;
  n: number;
}
const tables = new WeakMap<RoutingIndex, PlainTable>();

function plainTable(index: RoutingIndex): PlainTable {
  const cached = tables.get(index);
  if (cached) return cached;
  const postings = new Map<string, [number, number][]>();
  const lengths: number[] = [];
  index.docs.forEach((doc, d) => {
    const words = terms(`${doc.name.replace(/[-_]/g, ' ')} ${doc.metadata.description}`);
    lengths.push(words.length);
    const tf = new Map<string, number>();
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const [w, f] of tf) {
      const list = postings.get(w);
      if (list) list.push([d, f]);
      else postings.set(w, [[d, f]]);
    }
  });
  const avg = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length);
  const table = { postings, lengths, avg, n: index.docs.length };
  tables.set(index, table);
  return table;
}
