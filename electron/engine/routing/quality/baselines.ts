import type { RoutingIndex } from '../lexicon';
import { recall } from '../recall';
import type { RouterConfig } from '../router';
import { phraseHits } from '../text';

/**
 * Baseline 1, trigger-only routing (what most peers do): a named skill if any, else the skill
 * whose trigger phrase hit, longest phrase first. No threshold, no anti-triggers.
 */
export function triggerOnly(index: RoutingIndex, query: string, config: RouterConfig): string | null {
  const { candidates } = recall(index, query, 0, config);
  const forced = candidates.find((c) => c.source === 'forced');
  if (forced) return forced.doc.name;
  let best: { name: string; length: number } | null = null;
  for (const c of candidates) {
    for (const trigger of c.matchedTriggers) {
      if (!best || trigger.length > best.length) best = { name: c.doc.name, length: trigger.length };
    }
  }
  return best?.name ?? null;
}

/**
 * Baseline 2, the seeds' scorer (seed 000 §3.2.2, SkillScorer) on the same recall: intent a
 * constant 0.5, trigger 1.0 / 0.9 / 0.6 by source, success 0.5, readiness 1.0 (no context),
 * cost 1 / 0.5 / 0, conflict 0 or −1 on an anti-trigger; forced first, else ≥ 0.65, best first.
 */
export function seedScorer(index: RoutingIndex, query: string, config: RouterConfig): string | null {
  const { candidates, prepared } = recall(index, query, config.topK, config);
  const forced = candidates.find((c) => c.source === 'forced');
  if (forced) return forced.doc.name;
  const cost = { low: 1, medium: 0.5, high: 0 } as const;
  let best: { name: string; score: number } | null = null;
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
    if (score >= 0.65 && (!best || score > best.score)) best = { name: c.doc.name, score };
  }
  return best?.name ?? null;
}
