import type { ActivationPlan, CandidateStatus, FallbackStep } from '../../../shared/contract';
import { describeEvidence } from './evidence';
import type { ChatKind } from './messageKind';
import type { Scored } from './score';
import type { SkillDoc } from './skillDoc';

export interface Decided extends Scored {
  status: CandidateStatus;
  reason: string;
}

export interface PlanOptions {
  threshold: number;
  /** routing spec §18 `max_parallel_skills`. */
  maxParallel: number;
  /** Query unit → IDF weight, for the minimal cover. */
  unitWeight: ReadonlyMap<string, number>;
  /** The message asks for no skill: nothing is selected unless named explicitly. */
  noSkill?: boolean;
  /**
   * Why a skill over T may not be picked on its own (its instructions are flagged), or null.
   * Asked only for candidates over T, so a costly check runs for few skills.
   */
  heldBack?: (doc: SkillDoc) => string | null;
}

/** What the plan reads besides the candidates: the decision's notes and what the message said. */
type PlanContext = PlanOptions & {
  notes: string[];
  unknownForced: string[];
  /** Why a listed skill of this name is not routable (turned off, an error, another OS), or null. */
  whyNotRoutable?: (name: string) => string | null;
  ruledOut?: string[];
  chat?: ChatKind | null;
};

/** Scores this close count as "near-equal" (routing spec §7: then cheaper, then more successful). */
export const NEAR_EQUAL = 0.02;
/** routing spec §15 / §18 `cool_start_requests`: below this many runs a skill is "new". */
export const COLD_START_RUNS = 20;
/** DESIGN §3: a new skill cannot become primary over an established one within this margin. */
export const COLD_START_MARGIN = 0.05;
/** A fallback skill must have at least this calibrated intent_match (routing spec §10: same intent). */
const FALLBACK_MIN_INTENT = 0.25;
/** A candidate must add this share of its own covered mass to join the cover. */
const MIN_NEW_COVERAGE = 0.5;

const COST_RANK = { low: 0, medium: 1, high: 2 } as const;
const f2 = (x: number) => x.toFixed(2);
/**
 * A score below T as a reason shows it: two decimals, or as many more as it takes not to read as
 * T itself ("score 0.649 is below T = 0.65", not "0.65 is below T = 0.65").
 */
const belowT = (score: number, threshold: number): string => {
  let digits = 2;
  while (digits < 6 && score.toFixed(digits) === threshold.toFixed(digits)) digits++;
  return score.toFixed(digits);
};
const isForced = (c: Scored) => c.recalled.source === 'forced';

/**
 * Gives every candidate a status and picks the selection (DESIGN §3, routing spec §6.2 and
 * §7): safety first (unavailable, anti-trigger veto), then forced, then T, then the minimal
 * cover. Returns candidates best score first and the selection primary first.
 */
export function decide(
  scored: Scored[],
  options: PlanOptions,
): { candidates: Decided[]; selected: Decided[]; notes: string[] } {
  const { threshold } = options;
  const notes: string[] = [];
  // Decided in place: copying every candidate per keystroke measured as the router's top cost.
  // The order the user named forced skills in, before sorting by score.
  const order = scored.filter(isForced).map((c) => c.recalled.doc.index);
  const candidates = scored as Decided[];
  candidates.sort((a, b) => b.score - a.score);
  for (const c of candidates) {
    c.status = 'below_threshold';
    c.reason = '';
  }
  for (const c of candidates) {
    if (c.missing.length > 0) {
      // routing spec §6.2: unmet prerequisites mark it unavailable — even when forced (safety).
      c.status = 'unavailable';
      c.reason = `missing ${c.missing.join(', ')}`;
    } else if (c.recalled.negated) {
      c.status = 'vetoed';
      c.reason = 'the message says not to use it';
    } else if (options.noSkill && !isForced(c) && c.score >= threshold) {
      c.status = 'vetoed';
      c.reason = 'the message asks for no skill';
    } else if (c.matchedAntiTriggers.length > 0 && !isForced(c)) {
      c.status = 'vetoed';
      c.reason = `anti-trigger “${c.matchedAntiTriggers[0]}” is in the query`;
    } else if (!isForced(c) && c.score < threshold) {
      c.reason = `score ${belowT(c.score, threshold)} is below T = ${f2(threshold)}`;
    } else if (!isForced(c)) {
      const held = options.heldBack?.(c.recalled.doc);
      if (held) {
        c.status = 'explicit_only';
        c.reason = `over T, but held back: ${held} ($${c.recalled.doc.name} still runs it)`;
      }
    }
  }

  const forced = candidates.filter((c) => isForced(c) && c.status !== 'unavailable');
  // A named skill that is unavailable is not silently swapped for another one: the user decides.
  if (candidates.some(isForced)) {
    // routing spec §6.2: forced skips the threshold; §9: the user's explicit choice comes first.
    forced.sort((a, b) => order.indexOf(a.recalled.doc.index) - order.indexOf(b.recalled.doc.index));
    for (const c of forced) {
      c.status = 'selected';
      c.reason = `named explicitly (forced, skips T = ${f2(threshold)})`;
      const held = options.heldBack?.(c.recalled.doc);
      if (held) c.reason += `; careful: ${held}`;
    }
    const names = candidates
      .filter(isForced)
      .map((c) => c.recalled.doc.name)
      .join(', ');
    for (const c of candidates) {
      if (c.status === 'below_threshold' && !isForced(c) && c.score >= threshold) {
        c.status = 'dropped_overlap';
        c.reason = `over T, but the user named ${names} explicitly`;
      }
    }
    return { candidates, selected: forced, notes };
  }

  const eligible = candidates.filter((c) => c.status === 'below_threshold' && c.score >= threshold);
  preferCheaperAmongNearEqual(eligible);
  applyColdStart(eligible, notes);

  const selected: Decided[] = [];
  const covered = new Set<string>();
  for (const c of eligible) {
    const weightOf = (u: string) => options.unitWeight.get(u) ?? 0;
    let fresh = 0;
    for (const unit of c.covered) if (!covered.has(unit)) fresh += weightOf(unit);
    if (selected.length > 0 && (c.coveredMass === 0 || fresh < MIN_NEW_COVERAGE * c.coveredMass)) {
      c.status = 'dropped_overlap';
      c.reason = `overlaps ${selected[0].recalled.doc.name}: adds little the selection does not already cover`;
      continue;
    }
    if (selected.length > 0 && c.recalled.source === 'semantic') {
      // A second skill needs its own evidence of a second sub-task: a trigger phrase.
      c.status = 'dropped_overlap';
      c.reason = `${selected[0].recalled.doc.name} leads; a second skill joins only on its own trigger phrase`;
      continue;
    }
    for (const unit of c.covered) covered.add(unit);
    c.status = 'selected';
    c.reason =
      selected.length === 0
        ? `best score ${f2(c.score)} ≥ T = ${f2(threshold)}`
        : `covers more of the request (score ${f2(c.score)})`;
    selected.push(c);
  }
  return { candidates, selected, notes };
}

/** routing spec §7: among near-equal candidates prefer the cheaper, then the more successful. */
function preferCheaperAmongNearEqual(list: Decided[]): void {
  for (let i = 1; i < list.length; i++) {
    for (let j = i; j > 0; j--) {
      const [a, b] = [list[j - 1], list[j]];
      if (Math.abs(a.score - b.score) > NEAR_EQUAL) break;
      const costA = COST_RANK[a.recalled.doc.metadata.costHint];
      const costB = COST_RANK[b.recalled.doc.metadata.costHint];
      const better = costB < costA || (costB === costA && b.successRate > a.successRate);
      if (!better) break;
      [list[j - 1], list[j]] = [b, a];
    }
  }
}

/** DESIGN §3 cold start: fewer than 20 runs cannot win over an established candidate within 0.05. */
function applyColdStart(list: Decided[], notes: string[]): void {
  const top = list[0];
  if (!top || top.runs >= COLD_START_RUNS) return;
  const established = list.findIndex(
    (c) => c.runs >= COLD_START_RUNS && top.score - c.score <= COLD_START_MARGIN,
  );
  if (established <= 0) return;
  const [winner] = list.splice(established, 1);
  list.unshift(winner);
  notes.push(
    `${top.recalled.doc.name} has only ${top.runs} recorded runs (cold start), so the established ${winner.recalled.doc.name} within ${COLD_START_MARGIN} leads`,
  );
}

/** The ActivationPlan (routing spec §7–8, §10) for a decided candidate list. */
export function buildPlan(
  candidates: Decided[],
  selected: Decided[],
  task: string,
  options: PlanContext,
): ActivationPlan {
  const names = selected.map((c) => c.recalled.doc.name);
  const groups: string[][] = [];
  let open: string[] | null = null;
  for (const c of selected) {
    if (!c.recalled.doc.metadata.parallelSafe) {
      groups.push([c.recalled.doc.name]);
      open = null;
    } else if (open && open.length < options.maxParallel) {
      open.push(c.recalled.doc.name);
    } else {
      open = [c.recalled.doc.name];
      groups.push(open);
    }
  }
  // routing spec §10: same-intent next best skills, then generic chat, then ask the user.
  const fallback: FallbackStep[] = candidates
    .filter(
      (c) =>
        (c.status === 'below_threshold' || c.status === 'dropped_overlap') &&
        // Calibrated intent (issue 10): "the same intent" means at least plausibly what was asked.
        c.factors.intent_match.value >= FALLBACK_MIN_INTENT,
    )
    .filter((c) => c.score >= options.threshold / 2)
    .slice(0, 2)
    .map((c) => ({ type: 'skill' as const, id: c.recalled.doc.id, name: c.recalled.doc.name }));
  // A message that asks for no skill falls back to no skill either.
  if (options.noSkill && selected.length === 0) fallback.length = 0;
  fallback.push({ type: 'generic_chat' }, { type: 'ask_user' });
  const rank = Math.max(-1, ...selected.map((c) => COST_RANK[c.recalled.doc.metadata.costHint]));
  return {
    skills: names,
    skill_ids: selected.map((c) => c.recalled.doc.id),
    primary: names[0] ?? null,
    primary_id: selected[0]?.recalled.doc.id ?? null,
    parallel_groups: groups,
    fallback_chain: fallback,
    estimated_cost: rank < 0 ? 'none' : (['low', 'medium', 'high'] as const)[rank],
    routing_reason: reasonFor(candidates, selected, options),
    parameters: { task },
    ...(options.noSkill && selected.length === 0 ? { no_skill: true as const } : {}),
  };
}

/** What the plan says of a message read as chat (messageKind.ts chatKind) when no skill is chosen. */
const CHAT_REASON: Record<ChatKind, string> = {
  question: 'The message asks to learn, not to do: a skill’s words in it are its topic.',
  report: 'The message is news that something works now, with nothing asked.',
  remark:
    'The message is a remark, an opinion or a feeling, with nothing asked: a skill’s words in it are its topic.',
  statement: 'The message tells what happened, with nothing asked: a skill’s words in it are its topic.',
  chat: 'The message is worded like chat, not like a request (as read by a model of how the two are worded): a skill’s words in it are its topic.',
};

function reasonFor(candidates: Decided[], selected: Decided[], options: PlanContext): string {
  const parts: string[] = [];
  // A name the user typed for a skill that is listed but cannot be routed says why, not "no skill".
  const named = options.unknownForced.map((name) => ({ name, why: options.whyNotRoutable?.(name) ?? null }));
  const unknown = named.filter((n) => n.why === null).map((n) => `“${n.name}”`);
  if (unknown.length > 0) parts.push(`No routable skill named ${unknown.join(', ')}.`);
  for (const { name, why } of named) if (why) parts.push(`“${name}” ${why}${/[.!?]$/.test(why) ? '' : '.'}`);
  if (options.ruledOut?.length)
    parts.push(`Set aside what the message rules out: ${options.ruledOut.map((o) => `“${o}”`).join(', ')}.`);
  const primary = selected[0];
  if (!primary && options.noSkill) {
    parts.push('The message asks for no skill; plain chat.');
    return parts.join(' ');
  }
  if (!primary) {
    const unready = candidates.find(
      (c) => c.status === 'unavailable' && (isForced(c) || c.score >= options.threshold),
    );
    if (unready) {
      parts.push(
        `${unready.recalled.doc.name} fits (score ${f2(unready.score)}) but cannot run here: ${unready.reason}; plain chat.`,
      );
      return parts.join(' ');
    }
    const held = candidates.find((c) => c.status === 'explicit_only' && c.score >= options.threshold);
    if (held) {
      parts.push(
        `${held.recalled.doc.name} fits (score ${f2(held.score)}) but is held back: its instructions are flagged; plain chat.`,
      );
      return parts.join(' ');
    }
    const best = candidates.find((c) => c.status === 'below_threshold');
    if (options.chat && best) parts.push(CHAT_REASON[options.chat]);
    // A skill scored above the best one that may run is named first, with why it may not: "best"
    // alone read as the top score of the list.
    const above = best
      ? candidates.filter(
          (c) => c.score > best.score && (c.status === 'unavailable' || c.status === 'vetoed'),
        )
      : [];
    for (const c of above.slice(0, 2))
      parts.push(
        `${c.recalled.doc.name} (score ${c.score < options.threshold ? belowT(c.score, options.threshold) : f2(c.score)}) ${c.status}: ${c.reason}.`,
      );
    const other = above.some((c) => c.score >= options.threshold) ? 'other ' : '';
    const label = above.length > 0 ? 'best of the rest' : 'best';
    parts.push(
      best
        ? `No ${other}skill reached T = ${f2(options.threshold)} (${label}: ${best.recalled.doc.name} at ${belowT(best.score, options.threshold)}); plain chat.`
        : candidates.length > 0
          ? `No usable skill (${candidates.map((c) => `${c.recalled.doc.name}: ${c.status}`).join('; ')}); plain chat.`
          : 'No skill matches this request; plain chat.',
    );
    return parts.join(' ');
  }
  const why = (c: Decided) =>
    c.recalled.source === 'forced'
      ? 'named explicitly'
      : c.recalled.source === 'rule'
        ? `trigger “${c.recalled.matchedTriggers[0]}”, score ${f2(c.score)}`
        : `${describeEvidence(c.evidence) || 'lexical match'}, score ${f2(c.score)}`;
  parts.push(`${primary.recalled.doc.name} (${why(primary)}) is primary.`);
  for (const c of selected.slice(1)) parts.push(`${c.recalled.doc.name} (${why(c)}) covers another part.`);
  for (const note of options.notes) parts.push(`${note}.`);
  const blocked = candidates.filter((c) => c.status === 'unavailable' || c.status === 'vetoed').slice(0, 2);
  for (const c of blocked) parts.push(`${c.recalled.doc.name} ${c.status}: ${c.reason}.`);
  return parts.join(' ');
}
