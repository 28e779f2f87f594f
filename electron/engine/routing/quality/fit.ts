import { CALIBRATION, type Calibration } from '../calibration';
import { readTriggerEvals, runTriggerEvals } from '../evals';
import type { RoutingIndex } from '../lexicon';
import type { RouterConfig } from '../router';
import { routers, scoreRouter } from './devEval';
import type { DevQuery } from './devset';

/** What a calibration does on one set at the configured T. */
export interface SetScore {
  /** Should-route cases routed right. */
  p_at_1: number;
  /** Should-not cases that fired anyway. */
  false_trigger: number;
}

/** One thing the fit must keep right: a catalog and its labelled queries, or skills' own trigger evals. */
export interface FitSet {
  name: string;
  evaluate(config: RouterConfig): SetScore;
  /** This set's false-trigger budget, when stricter than the fit's. */
  budget?: number;
}

/** Labelled queries over a catalog (the dev half, or a sampled catalog of it). */
export function querySet(
  name: string,
  index: RoutingIndex,
  queries: readonly DevQuery[],
  toRel: (id: string) => string,
): FitSet {
  return {
    name,
    evaluate: (config) => {
      const all = scoreRouter([...queries], routers(index, config).skilldeck, toRel).rows[0];
      return { p_at_1: all.p_at_1 ?? 0, false_trigger: all.false_trigger ?? 0 };
    },
  };
}

/**
 * Skills' own trigger evals (`evals/trigger_evals.json`) over their catalog: a should-trigger case
 * counts when the skill is selected, a should-not case fires when it is. The bundled skills are a
 * dozen-skill catalog whose evals are near misses ("Write a Python function that reads a CSV"), the
 * small-install end the dev set's catalogs do not reach.
 */
export function triggerEvalSet(name: string, index: RoutingIndex, ids: readonly string[]): FitSet {
  const evals = ids.map((id) => ({ id, evals: readTriggerEvals(id) }));
  return {
    name,
    // The bundled skills' evals are tests that must all pass: no false trigger allowed.
    budget: 0,
    evaluate: (config) => {
      let positives = 0;
      let hits = 0;
      let negatives = 0;
      let fired = 0;
      for (const { id, evals: cases } of evals) {
        for (const c of runTriggerEvals(index, id, cases, config).cases) {
          if (c.should_trigger) {
            positives++;
            if (c.triggered) hits++;
          } else {
            negatives++;
            if (c.triggered) fired++;
          }
        }
      }
      return { p_at_1: positives ? hits / positives : 0, false_trigger: negatives ? fired / negatives : 0 };
    },
  };
}

/** What a calibration does at the configured T on each set. */
export interface FitResult {
  calibration: Calibration;
  sets: (SetScore & { name: string })[];
}

export interface FitOptions {
  /** The largest false-trigger rate allowed on any set (default 0.01). */
  budget?: number;
  /** The weights of log(1 + strength) to try (the slope of the logistic). */
  strengths?: readonly number[];
  /** The weights of log(catalog size) to try. */
  catalogs?: readonly number[];
  /** The weight of `relative` (it only orders a query's runners-up, so it is not searched). */
  relative?: number;
  /** The weight of `chinese` (chosen on the dev half's Chinese slice, not searched here). */
  chinese?: number;
}

/** Every set's score with `calibration` at the configured T. */
export function evaluateCalibration(
  sets: readonly FitSet[],
  config: RouterConfig,
  calibration: Calibration,
): FitResult {
  return {
    calibration,
    sets: sets.map((set) => ({ name: set.name, ...set.evaluate({ ...config, calibration }) })),
  };
}

/**
 * Fits intent_match's calibration for the decision it feeds (issue 10 §2: T means "probably
 * right"): for each slope and catalog weight, the largest bias whose false-trigger rate stays
 * within the budget on every set (a binary search: more bias only ever fires more), then the
 * pair whose precision@1 summed over the sets is best. A log-loss fit over every recalled
 * candidate was tried first and lost: it spends its slope separating runners-up nobody selects,
 * and a steep slope saturates intent near 1, where the trigger and cost factors, not the words,
 * then rank the skills.
 */
export function fitCalibration(
  sets: readonly FitSet[],
  config: RouterConfig,
  options: FitOptions = {},
): FitResult {
  const budget = options.budget ?? 0.01;
  const relative = options.relative ?? 4;
  const chinese = options.chinese ?? CALIBRATION.chinese;
  let best: FitResult | null = null;
  const total = (r: FitResult) => r.sets.reduce((sum, s) => sum + s.p_at_1, 0);
  const grid = (options.strengths ?? [5, 6, 7, 8, 10]).flatMap((strength) =>
    (options.catalogs ?? [0, 0.3, 0.6, 1]).map((catalog) => ({ strength, catalog })),
  );
  for (const { strength, catalog } of grid) {
    const at = (bias: number): FitResult =>
      evaluateCalibration(sets, config, { coverage: 0, relative, strength, catalog, chinese, bias });
    let lo = -20;
    let hi = 5;
    let found: FitResult | null = null;
    for (let step = 0; step < 14; step++) {
      const mid = (lo + hi) / 2;
      const result = at(mid);
      if (result.sets.every((s, i) => s.false_trigger <= Math.min(budget, sets[i].budget ?? budget))) {
        found = result;
        lo = mid;
      } else hi = mid;
    }
    if (found && (!best || total(found) > total(best))) best = found;
  }
  if (!best) throw new Error(`No calibration keeps false triggers within ${budget} on every set.`);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const calibration = Object.fromEntries(
    Object.entries(best.calibration).map(([k, v]) => [k, round(v)]),
  ) as Calibration;
  return { ...best, calibration };
}
