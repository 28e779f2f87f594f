import { z } from 'zod';
import { CandidateStatus, Query, SkillId } from './routing';

/**
 * Trigger evals (DESIGN §2, what-users-ask §15): a skill's `evals/trigger_evals.json` run
 * against the router, its cases stored from the app, and its description tuned against them.
 */

/** One trigger-eval case run through the router: pass = (skill selected) == should_trigger. */
export const EvalCase = z.object({
  query: z.string(),
  should_trigger: z.boolean(),
  triggered: z.boolean(),
  pass: z.boolean(),
  /** The skill's status and score for this query. */
  status: CandidateStatus,
  score: z.number(),
  /** What the router chose instead, when it chose another primary. */
  primary: z.string().nullable(),
});
export type EvalCase = z.infer<typeof EvalCase>;

export const EvalReport = z.object({
  id: z.string(),
  name: z.string(),
  /** `evals/trigger_evals.json`, or null when the skill has none. */
  file: z.string().nullable(),
  cases: z.array(EvalCase),
  passed: z.number().int(),
  failed: z.number().int(),
  /** TP / (TP + FP); null when nothing triggered. */
  precision: z.number().nullable(),
  /** TP / (TP + FN); null when no case should trigger. */
  recall: z.number().nullable(),
});
export type EvalReport = z.infer<typeof EvalReport>;

/** A saved or removed trigger-eval case, and the skill's evals run again with it. */
export const EvalEdit = z.object({
  /** `unchanged`: the file already held that query with that answer. */
  change: z.enum(['added', 'updated', 'unchanged', 'removed']),
  report: EvalReport,
});
export type EvalEdit = z.infer<typeof EvalEdit>;

/** How many of a split's trigger-eval cases a description gets right. */
const SplitScore = z.object({ passed: z.number().int(), total: z.number().int() });

/** One description judged by the router on the train and test cases (`evals.improve`). */
export const DescriptionCandidate = z.object({
  /** 0 for the skill's current description, then the model's round. */
  round: z.number().int(),
  description: z.string(),
  train: SplitScore,
  test: SplitScore,
  /** The cases, train and test, it gets wrong. */
  failing: z.array(z.string()),
});
export type DescriptionCandidate = z.infer<typeof DescriptionCandidate>;

/** Description tuning: the current description and the model's, judged on held-out cases too. */
export const DescriptionTuning = z.object({
  id: z.string(),
  name: z.string(),
  /** SKILL.md, and its SHA-256 as read: `evals.applyDescription` writes only that version. */
  file: z.string(),
  content_hash: z.string(),
  /** The queries the model saw, and those held out to judge (a stratified 60/40 split). */
  train: z.array(z.string()),
  test: z.array(z.string()),
  baseline: DescriptionCandidate,
  candidates: z.array(DescriptionCandidate),
  /** The candidate that beats the current description on train, best first; null when none does. */
  best: z.number().int().nullable(),
  model: z.string(),
  tokens_in: z.number().int(),
  tokens_out: z.number().int(),
  /** Rounds that gave nothing usable, and why. */
  notes: z.array(z.string()),
});
export type DescriptionTuning = z.infer<typeof DescriptionTuning>;

export const evalsRequests = {
  /** Run a skill's `evals/trigger_evals.json` against the router (nothing is recorded). */
  'evals.run': { input: z.object({ id: SkillId }).strict(), output: EvalReport },
  /**
   * Save a query as a trigger-eval case of a skill (its `evals/trigger_evals.json`, created when
   * missing); the same query again changes its answer. Runs the evals again.
   */
  'evals.save': {
    input: z.object({ id: SkillId, query: Query, should_trigger: z.boolean() }).strict(),
    output: EvalEdit,
  },
  /** Remove a skill's trigger-eval case by its query; runs the evals again. */
  'evals.remove': { input: z.object({ id: SkillId, query: Query }).strict(), output: EvalEdit },
  /**
   * Tune the skill's description with the configured model against its trigger evals, train and
   * held-out test halves (agentskills.io "Optimizing descriptions"). Writes nothing.
   */
  'evals.improve': {
    input: z.object({ id: SkillId, rounds: z.number().int().min(1).max(5).optional() }).strict(),
    output: DescriptionTuning,
  },
  /** Write a description into SKILL.md (the version `content_hash` names), reload, run the evals. */
  'evals.applyDescription': {
    input: z
      .object({ id: SkillId, description: z.string().min(1).max(1024), content_hash: z.string().length(64) })
      .strict(),
    output: EvalReport,
  },
} as const;

export const evalsEvents = {} as const;
