import type { RouteCandidate, RouteResult, Settings, WhyNot } from '../../../shared/contract';
import type { Calibration } from './calibration';
import { notFound } from '../errors';
import { installHints } from '../skills/installHints';
import { onPath } from '../skills/readiness';
import { buildDoc, type RoutingIndex, type SkillDoc } from './lexicon';
import { buildPlan, decide, type Decided } from './plan';
import { autoSelectable, MAX_RULE_CANDIDATES, recall, type Recalled, type SemanticRecall } from './recall';
import { analyzeQuery } from './analyze';
import { describeEvidence } from './evidence';
import { matchQuery } from './match';
import { asksForWork, chatKind, creativeKind, type ChatKind } from './messageKind';
import { type ChatForm, defaultChatForm } from './chatForm';
import { liftClearLeader, scoreCandidate, type ScoreContext, type Scored } from './score';
import { splitInstruction } from './instruction';
import { prepareQuery } from './text';

/** The live knobs of one routing call (settings `routing` and `skills`, DESIGN §3). */
export interface RouterConfig {
  weights: Settings['routing']['weights'];
  threshold: number;
  topK: number;
  maxParallel: number;
  disabled: ReadonlySet<string>;
  /** The part of `disabled` turned off in the open workspace only (for the reason "why not" gives). */
  workspaceDisabled?: ReadonlySet<string>;
  neverAutoSelect: ReadonlySet<string>;
  /** Optional embedding recall; the lexical index is always used. */
  semanticRecall?: SemanticRecall;
  /** Cosine similarity of the query to skills, by id, from that embedding recall (evidence, intent). */
  semanticSimilarity?: ReadonlyMap<string, number>;
  /** Calibration override (quality/fit.ts tries candidates); data/calibration.json otherwise. */
  calibration?: Calibration;
  /** Chat-form model override (quality tools train one without a group); null reads no form. */
  chatForm?: ChatForm | null;
  /** Why a skill may not be picked on its own though it scores over T (flagged instructions), or null. */
  heldBack?: (doc: SkillDoc) => string | null;
  /** Why a listed skill of this name is not in the index (turned off, an error, another OS), or null. */
  whyNotRoutable?: (name: string) => string | null;
}

/** Router knobs from the settings file; they change live, so this runs per call (cheap). */
export function configFromSettings(settings: Settings): RouterConfig {
  return {
    weights: settings.routing.weights,
    threshold: settings.routing.threshold,
    topK: settings.routing.topK,
    maxParallel: settings.routing.maxParallel,
    disabled: new Set(settings.skills.disabled),
    neverAutoSelect: new Set(settings.skills.neverAutoSelect),
  };
}

interface Routed {
  result: RouteResult;
  decided: Decided[];
}

/**
 * Two-phase routing (DESIGN §3): recall → score → ActivationPlan. Pure over the index,
 * the config and the context; nothing is recorded here.
 */
export function route(
  index: RoutingIndex,
  query: string,
  config: RouterConfig,
  ctx: ScoreContext,
): RouteResult {
  return routeDetailed(index, query, config, ctx).result;
}

function routeDetailed(index: RoutingIndex, query: string, config: RouterConfig, ctx: ScoreContext): Routed {
  const start = performance.now();
  const recalled = recall(index, query, config.topK, config, config.semanticRecall);
  const { match } = recalled;
  const unitWeight = new Map(match.groups.map((g, i) => [g.text, match.reach[i]]));
  const kind = readChat(recalled.instruction, recalled.task, config);
  const prepared = {
    prepared: recalled.prepared,
    match,
    chat: kind,
    creative: creativeKind(recalled.instruction),
    index,
    said: { task: recalled.task, reworded: recalled.reworded },
    similarity: config.semanticSimilarity,
    calibration: config.calibration,
  };
  const scored = recalled.candidates.map((c) => scoreCandidate(c, prepared, config.weights, ctx));
  // A request in so many words (no chat, no creative piece, no "without skills") may have a clear
  // leader; chat that slipped past chatKind (a typo in "favourite") may not.
  if (kind === null && !prepared.creative && !recalled.noSkill && asksForWork(recalled.task))
    liftClearLeader(scored, config.threshold, config.weights);
  const options = {
    threshold: config.threshold,
    maxParallel: config.maxParallel,
    unitWeight,
    noSkill: recalled.noSkill,
    heldBack: config.heldBack,
  };
  const { candidates: decided, selected, notes } = decide(scored, options);
  const plan = buildPlan(decided, selected, recalled.task, {
    ...options,
    notes,
    unknownForced: recalled.unknownForced,
    whyNotRoutable: config.whyNotRoutable,
    ruledOut: recalled.ruledOut,
    chat: kind,
  });
  const result: RouteResult = {
    query,
    latency_ms: Math.round((performance.now() - start) * 1000) / 1000,
    candidates: decided.map(toCandidate),
    plan,
    threshold: config.threshold,
  };
  return { result, decided };
}

/** The contract shape of one decided candidate. */
export function toCandidate(c: Decided): RouteCandidate {
  const { doc } = c.recalled;
  const candidate: RouteCandidate = {
    id: doc.id,
    name: doc.name,
    source: c.recalled.source,
    score: c.score,
    status: c.status,
    reason: c.reason,
    factors: c.factors,
    matched_triggers: c.recalled.matchedTriggers,
    matched_anti_triggers: c.matchedAntiTriggers,
    evidence: c.evidence,
    cost_hint: doc.metadata.costHint,
    parallel_safe: doc.metadata.parallelSafe,
    runs: c.runs,
  };
  if (c.missing.length > 0) {
    candidate.missing = c.missing;
    const bins = c.missing.filter((m) => m.startsWith('bin:')).flatMap((m) => m.slice(4).split('|'));
    const install =
      bins.length > 0 ? installHints(doc.metadata.install, bins, process.platform, 2, (b) => onPath(b)) : [];
    if (install.length > 0) candidate.install = install;
  }
  // Issue 10 §6: the reason names what matched, so a user sees why a paraphrase routed.
  const matched = describeEvidence(c.evidence);
  if (matched && c.status !== 'vetoed' && c.status !== 'unavailable')
    candidate.reason = `${c.reason} — ${matched}`;
  return candidate;
}

/**
 * "Why not X?" (DESIGN §3): one skill's full breakdown for a query and the rule that kept it
 * out — not recalled, below T, vetoed, unavailable, dropped as overlap, disabled,
 * explicit-only or unroutable. Unknown ids are `not_found`.
 */
export function whyNot(
  index: RoutingIndex,
  query: string,
  id: string,
  config: RouterConfig,
  ctx: ScoreContext,
): WhyNot {
  const listed = index.all.get(id);
  if (!listed) throw notFound(`No skill with id "${id.slice(0, 200)}"; list the skills to get valid ids.`);
  const { result } = routeDetailed(index, query, config, ctx);
  const base = { query, primary: result.plan.primary, threshold: config.threshold };
  const found = result.candidates.find((c) => c.id === id);
  if (found) return { ...base, candidate: found, explanation: explain(found) };

  const doc: SkillDoc = index.byId.get(id) ?? buildDoc(-1, listed.summary, listed.metadata);
  const candidate = unrecalled(index, doc, query, config, ctx);
  const { summary } = listed;
  if (!summary.routable) {
    const problem = summary.problems.find((p) => p.severity === 'error' || p.code === 'os-excluded');
    candidate.status = 'unroutable';
    candidate.reason = summary.shadowedBy
      ? `shadowed by the same-named skill at ${summary.shadowedBy}`
      : problem
        ? `not routable: ${problem.message}`
        : 'not routable on this machine';
  } else if (config.disabled.has(doc.name)) {
    candidate.status = 'disabled';
    candidate.reason = config.workspaceDisabled?.has(doc.name)
      ? 'turned off in this workspace: never a candidate here'
      : 'disabled in Settings: never a candidate';
  } else if (!autoSelectable(doc, config)) {
    candidate.status = 'explicit_only';
    candidate.reason = `only runs when named ($${doc.name}): automatic selection is off for it`;
  } else {
    candidate.status = 'not_recalled';
    candidate.reason = `not recalled: no trigger phrase in the query (or outranked among more than ${MAX_RULE_CANDIDATES} trigger hits), and not in the lexical top ${config.topK}`;
  }
  return { ...base, candidate, explanation: explain(candidate) };
}

/**
 * How a message reads as chat: the forms the rules name, then the learned form (chatForm.ts) —
 * not for a creative piece, which asks for writing whatever its topic (score.ts weighs the topic).
 */
function readChat(instruction: string, task: string, config: RouterConfig): ChatKind | null {
  const kind = chatKind(instruction, task);
  if (kind !== null || creativeKind(instruction) !== null) return kind;
  const form = config.chatForm === undefined ? defaultChatForm() : config.chatForm;
  return form?.readsAsChat(task) ? 'chat' : null;
}

/** Scores a skill recall did not bring in, as if lexical recall had brought it in. */
function unrecalled(
  index: RoutingIndex,
  doc: SkillDoc,
  query: string,
  config: RouterConfig,
  ctx: ScoreContext,
): RouteCandidate {
  const { instruction, reworded } = splitInstruction(query);
  const match = matchQuery(index, analyzeQuery(instruction));
  const recalled: Recalled = { doc, source: 'semantic', matchedTriggers: [], implicitHits: [] };
  const prepared = {
    prepared: prepareQuery(instruction),
    match,
    chat: readChat(instruction, query, config),
    creative: creativeKind(instruction),
    index,
    said: { task: query, reworded },
  };
  const scored: Scored = scoreCandidate(recalled, prepared, config.weights, ctx);
  const candidate = toCandidate({ ...scored, status: 'not_recalled', reason: '' });
  return { ...candidate, source: 'none' };
}

function explain(c: RouteCandidate): string {
  switch (c.status) {
    case 'selected':
      return `${c.name} is selected: ${c.reason}.`;
    case 'dropped_overlap':
      return `${c.name} was dropped from the minimal cover: ${c.reason}.`;
    default:
      return `${c.name} is ${c.status.replace(/_/g, ' ')}: ${c.reason}.`;
  }
}
