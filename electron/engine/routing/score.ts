import type { Factors, FactorName, MatchEvidence, Settings } from '../../../shared/contract';
import { FACTOR_NAMES } from '../../../shared/contract';
import { calibrate, type Calibration, type IntentFeatures } from './calibration';
import { evidenceFor } from './evidence';
import type { RoutingIndex, SkillDoc } from './lexicon';
import { holdsVariant, type QueryMatch } from './match';
import type { Recalled } from './recall';
import { respell } from './spelling';
import { phraseHits, phraseOverlap, terms, type PreparedQuery } from './text';

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
  /** intent_match before calibration: the share of the routable mass the skill's match covers. */
  coverage: number;
  matchedAntiTriggers: string[];
  /** What matched, for the score panel (issue 10 §6). */
  evidence: MatchEvidence[];
  missing: string[];
  runs: number;
  successRate: number;
}

/** An informational question ("how do I…", "what is…") asks to learn, not to run a skill. */
const QUESTION_FACTOR = 0.6;
/** Anti-triggers match with up to this many words between their words ("merge these PDFs"). */
const ANTI_TRIGGER_GAP = 3;
const QUESTION_RE =
  /^\s*(?:how (?:do|can|should|would|does) (?:i|you|we|one)\b|how to\b|what (?:was|were|does|do)\b(?! (?:my|our)\b)|what(?: is|'s| are) (?:a|an|some|good|the (?:difference|meaning|point|best|history|origin|(?:fastest|easiest|quickest|simplest|cheapest|right) way))\b|(?:can you )?recommend\b|why\b|explain\b|tell me about\b|can you explain\b|who (?:is|was|were|invented|created|wrote|painted|founded|won|discovered)\b|(?:in )?(?:what|which) year\b|when (?:was|were|did)\b|is it (?:rude|normal|true|possible|ok|okay|safe|bad|good|worth)\b|(?:give|share|offer) (?:me |us )?(?:(?:a few|a couple of|some|any|\w+) )?(?:good |quick |practical |general )?(?:tips|advice|pointers)\b|what(?:'s| is| are| was) your (?:favou?rite|opinion|take|view|thoughts?)\b|(?:do|would|did) you (?:like|prefer|enjoy|love|hate|have (?:a )?favou?rite)\b|are you (?:a|an|human|real|conscious|alive|sentient)\b|who (?:are|made|built|created) you\b)|^\s*(?:如何|怎么|怎样|什么是|为什么|请问|你(?:最)?喜欢|你是谁|你有(?:没有)?(?:最)?喜欢)/iu;
/** A concrete thing to work on: a file name or path, a fenced block, a pasted multi-line text. */
const ARTIFACT_RE = /[\w~./-]+\.[a-z0-9]{2,5}\b|```|(?:^|\s)[~.]?\/[\w.-]+\/|\n/iu;
/**
 * A question about how the world is or was — history, causes, definitions, how things work,
 * opinions — rather than about the user's own things or the live state of something: "How did
 * YouTube get its name?", "What language is Kubernetes written in?", "股票和基金有什么区别".
 * Read only when PERSONAL_RE finds nothing (see isInformational).
 */
const KNOWLEDGE_RE =
  /^\s*(?:(?:how|what|when|where|why|who) (?:did|was|were)\b|who (?:designed|built|directed|composed|owns|made|is|are)\b|(?:what|which) (?:year|century|decade|language|country|city|planet|animal|bird|element)\b|how (?:do|does|did) (?!i\b|you\b|we\b|one\b)|how (?:long|far|big|tall|old|high|deep|fast|hot|cold|heavy|large|small) |(?:is|are|was|were) (?:it |there )?(?:\S+ ){0,4}(?:useful|good|bad|worth|safe|healthy|better|worse|true|real|possible|legal|rude|normal|dangerous|harmful)\b|(?:do|does) (?:you|anyone) (?:think|know|believe|feel)\b|can (?!you\b|i\b|we\b)\w+ (?:eat|drink|live|survive|see|hear|fly|swim)\b)|\b(?:history|origin|invention|inventor|meaning|definition|etymology|rules) of\b|\bdifference between\b|(?:为什么|是谁|谁发明|谁创|哪一年|哪年|有什么区别|的区别|什么意思|是怎么.{0,12}的|你觉得|你认为|的历史|的起源|的由来|有(?:什么|哪些)(?:好的?|实用的?)?(?:建议|技巧|窍门|诀窍))|^\s*(?:推荐|解释)/iu;
/**
 * The user's own things, or the live state of something: a knowledge-style question with one of
 * these ("how long until the next train", "what did I bench last week", "这个pod为什么一直重启")
 * asks for a lookup a skill does.
 */
const PERSONAL_RE =
  /\b(?:i|i'm|i've|i'd|me|my|mine|we|we're|our|ours|us|this|these|here|now|today|tonight|tomorrow|yesterday|currently|current|latest|next|live|real-?time)\b|我|咱|这个|这些|这篇|这段|这份|现在|今天|今晚|明天|昨天|最新|实时|目前/iu;

/**
 * A question followed by a request ("why is the payments pod crash-looping? check it with
 * kubectl", "洗完了没有？顺便把冰箱调到3度"): the question is the request's context, the message a task.
 */
const FOLLOWED_BY_REQUEST_RE =
  /[?？]\s*(?:(?:please|and|then|also|so)\s+)?(?:check|fix|run|show|list|find|get|fetch|open|look|debug|restart|deploy|install|update|set|add|create|make|send|move|book|cancel|download|delete|remove|save|schedule|remind)\b|[?？]\s*(?:请|帮我|给我|顺便|用)/iu;

/** The words of five letters or more the question patterns read: a typo in one of them ("What's the differvnce…") must not turn a question into a task. */
const QUESTION_WORDS = [
  ...new Set(
    [QUESTION_RE, KNOWLEDGE_RE, FOLLOWED_BY_REQUEST_RE].flatMap((re) => re.source.match(/[a-z]{5,}/g) ?? []),
  ),
];

/**
 * Greetings and fillers before a question ("Hi! Can you explain…", "ok so how does…", "btw why…",
 * 你好，请问…, 对了，为什么…): the question patterns read the start of the message, so they go first.
 */
const LEAD_IN_RE =
  /^\s*(?:(?:hey|hi|hello|yo|ok|okay|so|well|oh|um+|uh+|hmm+|btw|by the way|quick question|also|and|but|anyway)\b[\s,.!:;-]*|(?:你好|您好|嗨|哈喽|那个|嗯|哦|对了|顺便问一下|另外|还有)[\s，,。.！!：:]*)+/iu;
const withoutLeadIn = (text: string) => text.replace(LEAD_IN_RE, '');

/**
 * The user reporting that something now works ("I finally fixed the bug, it was a missing
 * semicolon", "it works now", 终于搞定了): news, not a request — unless a request follows
 * ("…, now write a test for it").
 */
const REPORT_RE =
  /^\s*(?:i (?:finally |just |already )?(?:fixed|solved|figured out|sorted out|got (?:[\w'-]+ ){1,3}?(?:working|to work))\b|(?:it|that|this|everything) (?:finally |now )?works?(?: now)?(?=\s*(?:$|[,.!，。！]|thanks?\b|thank you))|(?:我)?(?:终于|已经|刚刚?)?(?:搞定|解决|修好|弄好)了)/iu;
const REQUEST_AFTER_RE =
  /(?:^|[,，.。;；!！]\s*|\b(?:now|please|can you|could you|would you|help me|then)\s+)(?:check|fix|run|write|add|create|make|update|review|deploy|test|send|show|find|explain|help|commit|push|open)\b|[?？]|(?:请|帮我|给我|再|接下来)/iu;

/** "…but the signup one still fails": what follows the report is a problem, not news. */
const CONTRAST_RE = /\b(?:but|still|except|fails?|failing|error|broken|however)\b|但是|还是|可是|不过|报错/iu;

/** True for a report that something works now, with nothing asked or wrong after it (REPORT_RE). */
function isReport(instruction: string): boolean {
  const match = REPORT_RE.exec(instruction);
  if (match === null) return false;
  const after = instruction.slice(match[0].length);
  return !REQUEST_AFTER_RE.test(after) && !CONTRAST_RE.test(after);
}

/**
 * True for a question that asks to learn rather than to do, or news that something works now
 * (isReport) — neither asks for a skill (spec §6.1 rule recall reads
 * "the intent classification result"): "How do I password protect a PDF?" wants an answer,
 * not pdf-to-text. A question about a concrete file ("What does page 3 of a.pdf say?") is a task.
 */
export function isInformational(typedInstruction: string, typedTask: string): boolean {
  const typedRest = typedTask.slice(typedTask.indexOf(typedInstruction) + typedInstruction.length);
  const [instruction, task, rest] = [typedInstruction, typedTask, typedRest].map((s) =>
    withoutLeadIn(respell(s, QUESTION_WORDS)),
  );
  if (ARTIFACT_RE.test(task) || FOLLOWED_BY_REQUEST_RE.test(task)) return false;
  if (QUESTION_RE.test(instruction) || QUESTION_RE.test(rest.replace(/^\s*[:：]\s*/u, ''))) return true;
  if (isReport(instruction)) return true;
  return KNOWLEDGE_RE.test(instruction) && !PERSONAL_RE.test(task);
}
/**
 * A request to write a piece of creative text ("write a poem about rain", "a toast for my best
 * friend's wedding", 讲个笑话): the piece is the task and the rest its topic, so a skill that does
 * not do such pieces (a weather skill, a wedding planner) hears only its topic. Group 1 is the kind.
 */
const CREATIVE_RE =
  /\b(?:write|compose|draft|pen|make up|give|tell|come up with|create)\s+(?:me\s+|us\s+)?(?:a|an|some|one|two|three|\d+)?\s*(?:[\w'-]+\s+){0,2}?(poems?|haikus?|limericks?|sonnets?|stor(?:y|ies)|tales?|fables?|songs?|lyrics|jingles?|jokes?|puns?|riddles?|toasts?|speech(?:es)?|eulog(?:y|ies)|essays?|raps?|verses?|odes?|ballads?|slogans?|taglines?|messages?|cards?|wish(?:es)?|greetings?)\b|(?:写|作|编|讲|说)[^，。！？,.!?]{0,12}?(诗歌|诗|笑话|故事|歌词|祝酒词|段子|对联|散文|童话|祝福语|贺卡|贺词)/iu;

/** The index term of the creative piece a request asks to write, or null (see CREATIVE_RE). */
export function creativeKind(instruction: string): string | null {
  const match = CREATIVE_RE.exec(instruction);
  if (!match) return null;
  return match[1] ? (terms(match[1])[0] ?? null) : (match[2] ?? null);
}

const COST_VALUE = { low: 1, medium: 0.5, high: 0 } as const;

/** What the scorer needs from the query: its phrase form, its BM25F match, its question type. */
export interface ScoreQuery {
  prepared: PreparedQuery;
  match: QueryMatch;
  informational: boolean;
  /** The kind of creative piece the request asks to write (creativeKind), if any. */
  creative?: string | null;
  /** The index the match ran on (for the evidence's IDF). */
  index: RoutingIndex;
  /** Embedding cosine similarity by skill id, when a send used semantic recall (issue 10 §4). */
  similarity?: ReadonlyMap<string, number>;
  /** The calibration to read intent through (data/calibration.json unless a fit is trying others). */
  calibration?: Calibration;
}

/**
 * Cosine similarity → intent for embedding recall. A fixed map, not yet calibrated: the dev set
 * has no real embedding model to fit against here (the scripted server's vectors are hashes),
 * so it only lets a clear semantic match stand where the words do not meet.
 */
const embeddingIntent = (similarity: number) => Math.max(0, Math.min(1, (similarity - 0.45) / 0.4));

/**
 * intent_match (DESIGN §3), in [0, 1] (issue 10 §2): how much of the query's routable mass
 * the skill's BM25F match covers — words no skill uses (a city, a company, a file name) are
 * payload and count neither way — mapped through the calibration (calibration.ts) so that the
 * value reads as "probably right" the same way for every skill. Minus twice the share its
 * description explicitly excludes ("Not for downloading files"); times 0.6 for an
 * informational question unless a trigger phrase hit. An instruction with no routable word
 * ("记一下：…", a bare `$name`) is a full match for forced and rule candidates.
 */
export function intentMatch(
  recalled: Recalled,
  query: ScoreQuery,
): { value: number; covered: Set<string>; coveredMass: number; coverage: number } {
  const { doc } = recalled;
  const { match } = query;
  const covered = new Set<string>();
  if (match.mass === 0) {
    const value = recalled.source === 'semantic' ? 0 : 1;
    return { value, covered, coveredMass: 0, coverage: value };
  }
  const score = match.score(doc.index);
  let excluded = 0;
  let coveredMass = 0;
  match.groups.forEach((group, g) => {
    const exact = group.variants[0]?.term;
    if (exact !== undefined && doc.excluded.has(exact)) excluded += match.reach[g];
    else if (match.reach[g] > 0 && group.variants.some((v) => holdsVariant(doc, v))) {
      covered.add(group.text);
      coveredMass += match.reach[g];
    }
  });
  const coverage = Math.max(0, Math.min(1, score / match.mass) - (2 * excluded) / match.mass);
  const phraseHit = isPhraseHit(recalled);
  let value = calibrate(intentFeatures(recalled, match), query.calibration);
  // A declared trigger is the author's own handle: with one in the query, the share of the
  // request the skill explains is evidence enough, whatever the catalog's size (in a dozen-skill
  // catalog little IDF backs any match; "weather and news and calendar" splits coverage three
  // ways). Third-party skills rarely declare triggers, so the calibration cannot learn this.
  // Routing spec §6.1: rule recall reads the intent classification too. A lone keyword trigger in
  // a question ("What does JSON stand for?") is a topic, not the author's handle being used.
  const ruleHit = recalled.source === 'rule' && !(query.informational && !phraseHit);
  if (ruleHit) value = Math.max(value, Math.sqrt(coverage));
  // DESIGN §3: a description that excludes the query's intent ("not for downloading") lowers it.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: with nothing excluded the factor is 1
  if (excluded > 0) value *= Math.max(0, 1 - (2 * excluded) / match.mass);
  // A poem about rain is not a weather request: a skill that does not write such pieces hears a topic.
  const topicOnly = !!query.creative && !doc.tf.has(query.creative) && !doc.textTf.has(query.creative);
  if ((query.informational || topicOnly) && !phraseHit && recalled.source !== 'forced')
    value *= QUESTION_FACTOR;
  return { value, covered, coveredMass, coverage };
}

/** A declared trigger of several words, or of two CJK characters, occurs in the query. */
export const isPhraseHit = (recalled: Recalled): boolean =>
  recalled.matchedTriggers.some((t) => /\s/.test(t.trim()) || /[^\p{ASCII}]{2}/u.test(t));

/** The lexical evidence calibration.ts reads, for one recalled candidate. */
export function intentFeatures(recalled: Recalled, match: QueryMatch): IntentFeatures {
  const score = match.score(recalled.doc.index);
  return {
    coverage: match.mass > 0 ? Math.min(1, score / match.mass) : 0,
    relative: match.best > 0 ? score / match.best : 0,
    strength: score / match.unit,
    catalog: Math.log(Math.max(2, match.size)),
  };
}

/** trigger_match for an implicit trigger hit: below a declared trigger's 0.9 (issue 10 §2). */
export const IMPLICIT_TRIGGER_MATCH = 0.75;

/**
 * trigger_match (DESIGN §3): forced 1.0, a declared trigger 0.9, an implicit trigger (name,
 * "Use when …" item) 0.75, else semantic 0.6 raised by a partial declared-trigger overlap.
 * In a knowledge question a one-word trigger, declared or implicit, is the question's topic
 * ("How do weather forecasters predict hurricanes?" names no weather skill), not a handle.
 */
export function triggerMatch(recalled: Recalled, query: PreparedQuery, informational = false): number {
  if (recalled.source === 'forced') return 1;
  if (recalled.source === 'rule' && !(informational && !isPhraseHit(recalled))) return 0.9;
  const handles = informational
    ? recalled.implicitHits.filter((h) => h.terms.length > 1)
    : recalled.implicitHits;
  if (handles.length > 0) return IMPLICIT_TRIGGER_MATCH;
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
  query: ScoreQuery,
  weights: Weights,
  ctx: ScoreContext,
): Scored {
  const { doc } = recalled;
  const intent = intentMatch(recalled, query);
  const similarity = query.similarity?.get(doc.id);
  if (similarity !== undefined) intent.value = Math.max(intent.value, embeddingIntent(similarity));
  const { runs, successes } = ctx.stats(doc.name);
  const successRate = smoothedSuccess(runs, successes);
  const ready = readiness(doc, ctx);
  const matchedAntiTriggers = doc.antiTriggers
    .filter((p) => phraseHits(p, query.prepared, ANTI_TRIGGER_GAP))
    .map((p) => p.text);
  const values: Record<FactorName, number> = {
    intent_match: intent.value,
    trigger_match: triggerMatch(recalled, query.prepared, query.informational),
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
    coverage: intent.coverage,
    matchedAntiTriggers,
    evidence: [
      ...(similarity !== undefined
        ? [{ kind: 'embedding' as const, query: doc.name, matched: `cosine ${similarity.toFixed(2)}` }]
        : []),
      ...evidenceFor(query.index, recalled, query.match),
    ],
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
