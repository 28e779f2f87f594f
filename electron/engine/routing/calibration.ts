import calibrationData from './data/calibration.json';

/**
 * Calibration of intent_match (issue 10 §2): a logistic map from the lexical evidence —
 * coverage of the query's routable mass, the score relative to the query's best, and the
 * absolute strength of the match — to the probability
 * that the skill is one the user meant, fitted on the dev half of the third-party dev set
 * (quality/fit.ts) and kept as data. The score relative to the query's best separates the
 * right skill from its neighbours; coverage and the absolute score separate a real request
 * from chat that happens to share a word. A skill that declares no triggers and one that
 * does then read the same: 0.7 means right about 7 times in 10.
 */
export interface Calibration {
  coverage: number;
  relative: number;
  strength: number;
  declared: number;
  implicit: number;
  bias: number;
}

/** The lexical evidence of one candidate that the calibration reads. */
export interface IntentFeatures {
  /** Share of the query's routable mass the skill's BM25F match covers, in [0, 1]. */
  coverage: number;
  /** The skill's BM25F score over the best score for this query, in [0, 1]. */
  relative: number;
  /**
   * The skill's BM25F score in units of one rare word matched: over the score a term that
   * one skill in the catalog uses would give, so a 20-skill catalog and a 2,000-skill one read
   * alike.
   */
  strength: number;
  /** 1 when a declared trigger phrase (several words, or two CJK characters) is in the query, 0.5 for a single word. */
  declared: number;
  /** 1 when an implicit trigger (name, "Use when …" item) is in the query. */
  implicit: number;
}

export const CALIBRATION: Calibration = calibrationData;

/** The calibration's linear predictor (log-odds) for one candidate. */
export function logit(f: IntentFeatures, params: Calibration = CALIBRATION): number {
  return (
    params.coverage * f.coverage +
    params.relative * f.relative +
    params.strength * Math.log1p(f.strength) +
    params.bias
  );
}

/** The calibrated intent: the probability the candidate is a skill the user meant. */
export function calibrate(f: IntentFeatures, params: Calibration = CALIBRATION): number {
  return 1 / (1 + Math.exp(-logit(f, params)));
}
