import { z } from 'zod';
import { InstallHint } from './skills';

/**
 * The router's contract (DESIGN §3, §7; routing spec §6–7, §14). JSON keys are snake_case
 * because this is the exact shape `skilldeck route --json` prints.
 */

/** A stock ticker as typed after `$`: one to five capitals, and a share class (`BRK.B`). */
export const TICKER = String.raw`[A-Z]{1,5}(?:\.[A-Z])?`;
const AMOUNT_OR_TICKER_RE = new RegExp(String.raw`^(?:\d[\d,.]*[kKmMbB]?|${TICKER})$`);

/**
 * A `$` word that is an amount or a stock ticker, not a skill to force (DESIGN §3's `$name`):
 * `$5`, `$3.50`, `$1,200`, `$2k`, and one to five capitals as typed — `$TSLA`, `$BRK.B`. The
 * router looks names up first, so a skill that really is named so is still forced.
 */
export const isAmountOrTicker = (typed: string): boolean => AMOUNT_OR_TICKER_RE.test(typed);

/** The six scoring factors, in the order DESIGN §3 lists them. */
export const FACTOR_NAMES = [
  'intent_match',
  'trigger_match',
  'success_rate',
  'context_readiness',
  'cost',
  'conflict',
] as const;
export type FactorName = (typeof FACTOR_NAMES)[number];

/** One factor of a score: its value in [0, 1] (1 is best), its weight, and weight × value. */
export const Factor = z.object({
  value: z.number(),
  weight: z.number(),
  contribution: z.number(),
});
export type Factor = z.infer<typeof Factor>;

export const Factors = z.object({
  intent_match: Factor,
  trigger_match: Factor,
  success_rate: Factor,
  context_readiness: Factor,
  cost: Factor,
  conflict: Factor,
});
export type Factors = z.infer<typeof Factors>;

/**
 * How a candidate was recalled (routing spec §6.1): `forced` (`$name`, `/name`,
 * `use X skill`, `使用 X skill`), `rule` (a trigger phrase occurs in the query),
 * `semantic` (lexical top-k). `none` only appears in "why not?" for a skill recall missed.
 */
export const CandidateSource = z.enum(['forced', 'rule', 'semantic', 'none']);
export type CandidateSource = z.infer<typeof CandidateSource>;

/**
 * What became of a candidate. `explicit_only`: never-auto-select / implicit invocation off,
 * and not forced. `unroutable`: an error, an excluded OS, or shadowing keeps it out of routing.
 * `disabled`, `explicit_only`, `unroutable` and `not_recalled` only appear in "why not?".
 */
export const CandidateStatus = z.enum([
  'selected',
  'below_threshold',
  'vetoed',
  'unavailable',
  'dropped_overlap',
  'disabled',
  'explicit_only',
  'unroutable',
  'not_recalled',
]);
export type CandidateStatus = z.infer<typeof CandidateStatus>;

export const CostLevel = z.enum(['low', 'medium', 'high']);

/**
 * What made a skill match (issue 10 §6): a declared trigger phrase, an implicit trigger (the
 * skill's name, an item of its "Use when …" clause, `when_to_use`, its body's "When to use"
 * lines), the query's own word, a WordNet synonym or related word, the curated domain
 * lexicon, a CC-CEDICT translation, a similar word, a typo's neighbour, a recognized thing (an IP
 * address → ip); `embedding` and `arbiter` are reserved for the model-backed sources; `lead`
 * marks a request's clear leader, raised toward T (score.ts liftClearLeader).
 */
export const EvidenceKind = z.enum([
  'declared_trigger',
  'implicit_trigger',
  'word',
  'synonym',
  'related',
  'lexicon',
  'translation',
  'similar',
  'spelling',
  'entity',
  'embedding',
  'arbiter',
  'lead',
]);
export type EvidenceKind = z.infer<typeof EvidenceKind>;

/** One piece of evidence for a candidate, as the score panel lists it. */
export const MatchEvidence = z.object({
  kind: EvidenceKind,
  /** The user's word or phrase ("下雨", "umbrella"); for a trigger, the phrase as found. */
  query: z.string(),
  /** What it matched in the skill: the trigger phrase, or the skill's word ("rain"). */
  matched: z.string(),
  /**
   * Where the skill says it: `name`, `declared` (triggers, tags), `implicit` (a "Use when …"
   * item), `description`, `translation` (its own Chinese, translated), `body`, `when_to_use`.
   */
  field: z.string().optional(),
});
export type MatchEvidence = z.infer<typeof MatchEvidence>;

/** One scored candidate with its full breakdown. */
export const RouteCandidate = z.object({
  /** Skill id (its folder path), as in `skills.list`. */
  id: z.string(),
  name: z.string(),
  source: CandidateSource,
  /** Σ weight × value over the six factors, in [0, 1]. */
  score: z.number(),
  status: CandidateStatus,
  /** One line: why this status (e.g. "0.58 is below T = 0.65", "anti-trigger “开发票” hit"). */
  reason: z.string(),
  /** Unmet prerequisites (`bin:pdftotext`, `env:OPENAI_API_KEY`) when `unavailable`. */
  missing: z.array(z.string()).optional(),
  /** How to install a missing program, from the skill's own `install` entries ("Install X (brew): brew install x"). */
  install: z.array(InstallHint).optional(),
  factors: Factors,
  /** Trigger phrases found in the query. */
  matched_triggers: z.array(z.string()),
  /** Anti-trigger phrases found in the query. */
  matched_anti_triggers: z.array(z.string()),
  /** What matched, strongest first (issue 10 §6); absent for a candidate nothing matched. */
  evidence: z.array(MatchEvidence).optional(),
  cost_hint: CostLevel,
  parallel_safe: z.boolean(),
  /** Recorded runs behind `success_rate` (cold start below 20). */
  runs: z.number().int(),
});
export type RouteCandidate = z.infer<typeof RouteCandidate>;

/** A step of the fallback chain (routing spec §10): next best skills → generic chat → ask the user. */
export const FallbackStep = z.discriminatedUnion('type', [
  z.object({ type: z.literal('skill'), id: z.string(), name: z.string() }),
  z.object({ type: z.literal('generic_chat') }),
  z.object({ type: z.literal('ask_user') }),
]);
export type FallbackStep = z.infer<typeof FallbackStep>;

/** The ActivationPlan (DESIGN §3, routing spec §7–8). Skills are named; `*_ids` carry the ids. */
export const ActivationPlan = z.object({
  /** Selected skill names, best first (the minimal cover). */
  skills: z.array(z.string()),
  skill_ids: z.array(z.string()),
  /** The primary skill's name; null when the message goes to plain chat. */
  primary: z.string().nullable(),
  primary_id: z.string().nullable(),
  /** Execution order: each group runs together (only `parallel_safe` skills share one, ≤ 2). */
  parallel_groups: z.array(z.array(z.string())),
  fallback_chain: z.array(FallbackStep),
  /** The highest cost hint among the selected skills; `none` when nothing is selected. */
  estimated_cost: z.enum(['none', 'low', 'medium', 'high']),
  /** Human-readable account of the decision. */
  routing_reason: z.string(),
  parameters: z.object({ task: z.string() }),
  /**
   * The message asks for no skill ("without using any skill", "不用技能"): plain chat, and it
   * offers the model no skill either. Absent otherwise.
   */
  no_skill: z.literal(true).optional(),
});
export type ActivationPlan = z.infer<typeof ActivationPlan>;

/** The result of routing one query: the DESIGN §7 `route --json` shape. */
export const RouteResult = z.object({
  query: z.string(),
  latency_ms: z.number(),
  /** Recalled candidates, best score first (disabled / explicit-only / unroutable are not listed). */
  candidates: z.array(RouteCandidate),
  plan: ActivationPlan,
  /** T at the time of routing (it is a live setting). */
  threshold: z.number(),
  /**
   * What a configured model added on a send (issue 10 §4–5); absent for the local preview.
   * `embedding`: semantic recall's model, tokens and the best cosine similarities by skill id;
   * `arbiter`: the chat model asked to choose in the gray zone, its choice (null = none), cost,
   * and `outcome`: `chose` / `none` decided the route; `unclear` (an answer naming no listed
   * skill, nor none) and `failed` (an error, a timeout; `note` says which) left the local route
   * standing. Records from before `outcome` existed were all decisions.
   */
  model: z
    .object({
      embedding: z
        .object({ model: z.string(), tokens: z.number(), similarity: z.record(z.string(), z.number()) })
        .optional(),
      arbiter: z
        .object({
          model: z.string(),
          choice: z.string().nullable(),
          tokens_in: z.number(),
          tokens_out: z.number(),
          latency_ms: z.number(),
          outcome: z.enum(['chose', 'none', 'unclear', 'failed']).optional(),
          note: z.string().optional(),
        })
        .optional(),
    })
    .optional(),
});
export type RouteResult = z.infer<typeof RouteResult>;

/**
 * The skill a message is for that cannot run on this machine: over T (or named by the user) but
 * with unmet prerequisites, so never selected (DESIGN §3). Chat says so instead of "no skill".
 */
export function unreadySkill(
  route: Pick<RouteResult, 'plan' | 'candidates' | 'threshold'>,
): RouteCandidate | null {
  if (route.plan.primary_id) return null;
  return (
    route.candidates.find(
      (c) => c.status === 'unavailable' && (c.source === 'forced' || c.score >= route.threshold),
    ) ?? null
  );
}

/** An execution outcome attached to a recorded route (filled in by the chat / run flows). */
export const RouteOutcome = z.object({
  status: z.enum(['success', 'failure', 'denied', 'timeout', 'blocked', 'cancelled']),
  /** The skill that produced the outcome, when one ran. */
  skill_id: z.string().optional(),
  /** Its name (the skill may not be among the candidates when the model chose it). */
  skill: z.string().optional(),
  fallback_used: z.boolean().default(false),
  /**
   * The router chose no skill and plain chat offered the model its closest candidates: the
   * model ran `skill_id` (issue 10 §5, the arbiter's in-turn form; its tokens are the turn's).
   */
  chosen_by_model: z.boolean().optional(),
  tokens_in: z.number().int().min(0).optional(),
  tokens_out: z.number().int().min(0).optional(),
  duration_ms: z.number().min(0).optional(),
});
export type RouteOutcome = z.infer<typeof RouteOutcome>;

/** One line of `$SKILLDECK_HOME/events/routes.jsonl` (routing spec §14). */
export const RouteEvent = RouteResult.extend({
  route_id: z.string(),
  /** ISO 8601 time of routing. */
  ts: z.string(),
  /** Who routed: the CLI, the chat, or an API client. */
  origin: z.enum(['cli', 'chat', 'api']),
  result: RouteOutcome.optional(),
});
export type RouteEvent = z.infer<typeof RouteEvent>;

/** "Why not X?": one skill's full breakdown for a query and the rule that kept it out. */
export const WhyNot = z.object({
  query: z.string(),
  candidate: RouteCandidate,
  /** The plan's primary for the same query, for comparison. */
  primary: z.string().nullable(),
  threshold: z.number(),
  /** The rule, in one sentence ("not recalled: no trigger and too little lexical overlap"). */
  explanation: z.string(),
});
export type WhyNot = z.infer<typeof WhyNot>;

/** Metrics over the route log (routing spec §14); rates are null until there is data. */
export const RouteMetrics = z.object({
  /** Routes recorded. */
  total: z.number().int(),
  /** Share of routes that selected at least one skill. */
  trigger_rate: z.number().nullable(),
  /** Share of routes with an outcome that succeeded. */
  success_rate: z.number().nullable(),
  /** Share of routes with an outcome that used a fallback. */
  fallback_rate: z.number().nullable(),
  latency_p50: z.number().nullable(),
  latency_p95: z.number().nullable(),
  /** Mean tokens in + out over routes where a model ran. */
  avg_tokens: z.number().nullable(),
});
export type RouteMetrics = z.infer<typeof RouteMetrics>;

export const Query = z
  .string()
  .min(1, 'query must not be empty')
  .max(20_000, 'query is longer than 20,000 characters');
export const SkillId = z.string().min(1).max(4096);
const RouteId = z.string().min(1).max(128);

export const routingRequests = {
  /** Route a query without recording anything (the live score panel calls this per keystroke). */
  'route.preview': { input: z.object({ query: Query }).strict(), output: RouteResult },
  /** One skill's breakdown for a query and why it was not chosen (works for any listed skill). */
  'route.whyNot': { input: z.object({ query: Query, id: SkillId }).strict(), output: WhyNot },
  /** Route a query and record it as a route event (announced as `route.recorded`). */
  'route.commit': {
    input: z.object({ query: Query, origin: z.enum(['chat', 'api']).default('api') }).strict(),
    output: RouteEvent,
  },
  /** Attach an execution outcome to a recorded route; updates the skill's run stats. */
  'route.recordResult': {
    input: z.object({ route_id: RouteId, result: RouteOutcome }).strict(),
    output: RouteEvent,
  },
  /** Past route events, newest first; `before` is a route_id to page from. */
  'activity.list': {
    input: z
      .object({ limit: z.number().int().min(1).max(500).default(50), before: RouteId.optional() })
      .strict(),
    output: z.object({ events: z.array(RouteEvent), has_more: z.boolean() }),
  },
  /** One recorded route with its full breakdown. */
  'activity.get': { input: z.object({ route_id: RouteId }).strict(), output: RouteEvent },
  /** Metrics over the whole route log. */
  'metrics.get': { input: z.object({}).strict(), output: RouteMetrics },
} as const;

export const routingEvents = {
  /** A route was recorded (`route.commit`, the CLI, the chat). */
  'route.recorded': RouteEvent,
  /** A recorded route got its execution outcome. */
  'route.completed': RouteEvent,
} as const;
