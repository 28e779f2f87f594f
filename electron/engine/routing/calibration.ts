import calibrationData from './data/calibration.json';

/**
 * Calibration of intent_match (issue 10 §2): a logistic map from the lexical evidence of one
 * candidate to the probability that it is a skill the user meant, fitted on the dev half of the
 * third-party dev set (quality/fit.ts) and kept as data. The absolute strength of the match
 * separates a real request from chat that happens to share a word; the score relative to the
 * query's best separates the right skill from its neighbours. A skill that declares no triggers
 * and one that does then read the same.
 */
export const FEATURES = ['coverage', 'relative', 'strength', 'catalog', 'chinese'] as const;
export type FeatureName = (typeof FEATURES)[number];

/** The weight of each feature and the bias (log-odds). */
export type Calibration = Record<FeatureName | 'bias', number>;

/** The lexical evidence of one candidate that the calibration reads. */
export interface IntentFeatures {
  /** Share of the query's routable mass the skill's BM25F match covers, in [0, 1]. */
  coverage: number;
  /** The skill's BM25F score over the best score for this query, in [0, 1]. */
  relative: number;
  /**
   * The skill's BM25F score in units of one rare word matched: over the score a term that
   * one skill in the catalog uses would give, so a 20-skill catalog and a 2,000-skill one read
   * alike. The calibration reads log(1 + strength).
   */
  strength: number;
  /**
   * log of the number of routable skills: the prior odds that some installed skill is what a
   * request wants grow with the catalog, so the same words say less among a dozen skills than
   * among a thousand.
   */
  catalog: number;
  /**
   * The share of the query's routable mass its Chinese words carry, in [0, 1]. A Chinese word
   * reaches a skill written in English through its CC-CEDICT glosses, each weighed below the
   * user's own word, so a whole request in Chinese reads weaker than the same request typed in
   * English; this weight gives that back.
   */
  chinese: number;
}

export const CALIBRATION: Calibration = {
  ...(Object.fromEntries(FEATURES.map((f) => [f, 0])) as Record<FeatureName, number>),
  ...calibrationData,
};

/** The feature vector the calibration's weights multiply (strength on a log scale). */
export function featureVector(f: IntentFeatures): number[] {
  return FEATURES.map((name) => (name === 'strength' ? Math.log1p(f.strength) : f[name]));
}

/** The calibration's linear predictor (log-odds) for one candidate. */
export function logit(f: IntentFeatures, params: Calibration = CALIBRATION): number {
  const x = featureVector(f);
  return FEATURES.reduce((sum, name, i) => sum + params[name] * x[i], params.bias);
}

/** The calibrated intent: the probability the candidate is a skill the user meant. */
export function calibrate(f: IntentFeatures, params: Calibration = CALIBRATION): number {
  return 1 / (1 + Math.exp(-logit(f, params)));
}
