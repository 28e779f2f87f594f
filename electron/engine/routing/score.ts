import type { Factors, FactorName, Settings } from '../../../shared/contract';
import { FACTOR_NAMES } from '../../../shared/contract';
import type { RoutingIndex, SkillDoc } from './lexicon';
import type { Recalled } from './recall';
import { hasCjk, phraseHits, phraseOverlap, type PreparedQuery, type QueryUnit } from './text';

export type Weights = Settings['routing']['weights'];

/** What the scorer needs from the world; the engine passes real ones, tests their own. */
export interface ScoreContext {
  /** Runs and successes recorded for a skill name (DESIGN §3 success_rate). */
  stats(name: string): { runs: number; successes: number };
  /** Is an executable on PATH? (cached by the caller). */
  hasBin(name: string): boolean;
  env: Readonly<Record<string, string | undefined>>;
  /** Trigger evals ask "would it route here?", whatever this machine has installed. */
  assumeReady?: boolean;
}

export interface Scored {
  recalled: Recalled;
  factors: Factors;
  score: number;
  /** Query units this skill covers, for the minimal cover (routing spec §7). */
  covered: Set<string>;
  coveredMass: number;
  matchedAntiTriggers: string[];
  missing: string[];
  runs: number;
  successRate: number;
}

/** How much an unmatched query word counts against a skill, relative to a matched one. */
const UNMATCHED_DISCOUNT = 0.75;
/** See weighUnits. */
const CJK_UNKNOWN_FACTOR = 0.35;
/** An informational question ("how do I…", "what is…") asks to learn, not to run a skill. */
const QUESTION_FACTOR = 0.6;
/** Anti-triggers match with up to this many words between their words ("merge these PDFs"). */
const ANTI_TRIGGER_GAP = 3;
const QUESTION_RE =
  /^\s*(?:how (?:do|can|should|would|does) (?:i|you|we|one)\b|how to\b|what (?:is|are|was|were|does|do)\b|what's\b|whats\b|why\b|explain\b|tell me about\b|can you explain\b)|^\s*(?:如何|怎么|怎样|什么是|为什么|请问)/iu;
/** A concrete thing to work on: a file name or path, a fenced block, a pasted multi-line text. */
const ARTIFACT_RE = /[\w~./-]+\.[a-z0-9]{2,5}\b|```|(?:^|\s)[~.]?\/[\w.-]+\/|\n/iu;

/**
 * True for a question that asks to learn rather than to do (spec §6.1 rule recall reads
 * "the intent classification result"): "How do I password protect a PDF?" wants an answer,
 * not pdf-to-text. A question about a concrete file ("What does page 3 of a.pdf say?") is a task.
 */
export function isInformational(instruction: string, task: string): boolean {
  const rest = task.slice(task.indexOf(instruction) + instruction.length).replace(/^\s*[:：]\s*/u, '');
  return (QUESTION_RE.test(instruction) || QUESTION_RE.test(rest)) && !ARTIFACT_RE.test(task);
}
const COST_VALUE = { low: 1, medium: 0.5, high: 0 } as const;

export interface WeightedUnit extends QueryUnit {
  weight: number;
}

/** Weighs each query unit by the IDF of its rarest part: words every skill uses say little. */
export function weighUnits(index: RoutingIndex, units: QueryUnit[]): WeightedUnit[] {
  return units.map((unit) => {
    let weight = 0;
    for (const part of unit.parts) weight = Math.max(weight, index.idf(part));
    // Bare numbers ("3.13", "2024") are payload, rarely intent.
    if (/^\d+$/.test(unit.text)) weight *= 0.25;
    // Most descriptions are English: a CJK word no skill uses is weak evidence against any of them.
    else if (index.df.get(unit.parts[0]) === undefined && hasCjk(unit.text)) weight *= CJK_UNKNOWN_FACTOR;
    return { ...unit, weight };
  });
}

/**
 * intent_match (DESIGN §3), in [0, 1]: the IDF mass of the query's instruction the skill
 * covers (M), counting twice what its name, triggers and tags cover (S), against the mass it
 * does not (U): (M + S) / (M + S + ¾·U). Minus twice the share its description explicitly
 * excludes ("Not for downloading files"); times 0.6 for an informational question unless a
 * phrase trigger hit. An instruction with no content words ("记一下：…", a bare `$name`) is
 * a full match for forced and rule candidates: the trigger is the whole request.
 */
export function intentMatch(
  recalled: Recalled,
  units: WeightedUnit[],
  informational: boolean,
): { value: number; covered: Set<string>; coveredMass: number } {
  const { doc } = recalled;
  const covered = new Set<string>();
  if (units.length === 0) return { value: recalled.source === 'semantic' ? 0 : 1, covered, coveredMass: 0 };
  let matched = 0;
  let strong = 0;
  let unmatched = 0;
  let excluded = 0;
  for (const unit of units) {
    if (allIn(unit.parts, doc.excluded)) {
      excluded += unit.weight;
      unmatched += unit.weight;
    } else if (allIn(unit.parts, doc.tf)) {
      matched += unit.weight;
      if (allIn(unit.parts, doc.strong)) strong += unit.weight;
      covered.add(unit.text);
    } else {
      unmatched += unit.weight;
    }
  }
  if (matched === 0) return { value: 0, covered, coveredMass: 0 };
  const similarity = (matched + strong) / (matched + strong + UNMATCHED_DISCOUNT * unmatched);
  let value = Math.max(0, similarity - (2 * excluded) / (matched + unmatched));
  const phraseHit = recalled.matchedTriggers.some((t) => /\s/.test(t.trim()) || /[^\p{ASCII}]{2}/u.test(t));
  if (informational && !phraseHit && recalled.source !== 'forced') value *= QUESTION_FACTOR;
  return { value, covered, coveredMass: matched };
}

/** Plain loop, no closure: this runs for every candidate on every keystroke. */
function allIn(parts: string[], set: { has(key: string): boolean }): boolean {
  for (let i = 0; i < parts.length; i++) if (!set.has(parts[i])) return false;
  return parts.length > 0;
}

/** trigger_match (DESIGN §3): forced 1.0, rule 0.9, semantic 0.6 raised by a partial trigger overlap. */
export function triggerMatch(recalled: Recalled, query: PreparedQuery): number {
  if (recalled.source === 'forced') return 1;
  if (recalled.source === 'rule') return 0.9;
  let overlap = 0;
  for (const phrase of recalled.doc.triggers) overlap = Math.max(overlap, phraseOverlap(phrase, query));
  return 0.6 + 0.15 * overlap;
}

/** success_rate: Laplace-smoothed (0.5 prior worth two runs), so one failure cannot sink a skill. */
export const smoothedSuccess = (runs: number, successes: number) => (successes + 1) / (runs + 2);

/** context_readiness: share of prerequisites met (bins on PATH, any-of bins, env set); what is missing. */
export function readiness(doc: SkillDoc, ctx: ScoreContext): { value: number; missing: string[] } {
  if (ctx.assumeReady) return { value: 1, missing: [] };
  const { bins, anyBins, env } = doc.metadata.requires;
  const missing: string[] = [];
  let total = 0;
  for (const bin of bins) {
    total++;
    if (!ctx.hasBin(bin)) missing.push(`bin:${bin}`);
  }
  if (anyBins.length > 0) {
    total++;
    if (!anyBins.some((bin) => ctx.hasBin(bin))) missing.push(`bin:${anyBins.join('|')}`);
  }
  for (const name of env) {
    total++;
    if (!ctx.env[name]) missing.push(`env:${name}`);
  }
  return { value: total === 0 ? 1 : (total - missing.length) / total, missing };
}

/** Phase 2 (routing spec §6.2): the six factors, weighted; weights are normalized to sum to 1. */
export function scoreCandidate(
  recalled: Recalled,
  query: { prepared: PreparedQuery; units: WeightedUnit[]; informational: boolean },
  weights: Weights,
  ctx: ScoreContext,
): Scored {
  const { doc } = recalled;
  const intent = intentMatch(recalled, query.units, query.informational);
  const { runs, successes } = ctx.stats(doc.name);
  const successRate = smoothedSuccess(runs, successes);
  const ready = readiness(doc, ctx);
  const matchedAntiTriggers = doc.antiTriggers
    .filter((p) => phraseHits(p, query.prepared, ANTI_TRIGGER_GAP))
    .map((p) => p.text);
  const values: Record<FactorName, number> = {
    intent_match: intent.value,
    trigger_match: triggerMatch(recalled, query.prepared),
    success_rate: successRate,
    context_readiness: ready.value,
    cost: COST_VALUE[doc.metadata.costHint],
    conflict: matchedAntiTriggers.length > 0 ? 0 : 1,
  };
  const { factors, score } = combine(values, weights);
  return {
    recalled,
    factors,
    score,
    covered: intent.covered,
    coveredMass: intent.coveredMass,
    matchedAntiTriggers,
    missing: ready.missing,
    runs,
    successRate,
  };
}

/** Weighted sum with per-factor contributions, for the score panel's stacked bars. */
export function combine(
  values: Record<FactorName, number>,
  weights: Weights,
): { factors: Factors; score: number } {
  const sum = FACTOR_NAMES.reduce((acc, name) => acc + weights[name], 0) || 1;
  let score = 0;
  const factors = {} as Factors;
  for (const name of FACTOR_NAMES) {
    const weight = weights[name] / sum;
    const value = Math.min(1, Math.max(0, values[name]));
    const contribution = weight * value;
    score += contribution;
    factors[name] = { value: round(value), weight: round(weight), contribution: round(contribution) };
  }
  return { factors, score: round(score) };
}

const round = (x: number) => Math.round(x * 10000) / 10000;
