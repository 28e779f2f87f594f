import { isAmountOrTicker, type CandidateSource } from '../../../shared/contract';
import { analyzeQuery, type QueryGroup } from './analyze';
import type { ImplicitPhrase, RoutingIndex, SkillDoc, TriggerRef } from './lexicon';
import { matchQuery, topDocs, type QueryMatch } from './match';
import { splitInstruction } from './instruction';
import { forcedDoc, NAME, setAside } from './ruledOut';
import { phraseHits, prepareQuery, type PreparedQuery } from './text';

/** Who may be recalled at all (DESIGN §3; settings `skills.disabled` / `neverAutoSelect`). */
export interface Eligibility {
  disabled: ReadonlySet<string>;
  neverAutoSelect: ReadonlySet<string>;
}

/**
 * A second semantic source (DESIGN §3: embeddings when a provider has them, cached per skill
 * content hash). Its top-k merge after the lexical top-k as `semantic` candidates.
 */
export type SemanticRecall = (
  instruction: string,
  k: number,
  accept: (doc: SkillDoc) => boolean,
) => SkillDoc[];

export interface Recalled {
  doc: SkillDoc;
  source: Exclude<CandidateSource, 'none'>;
  matchedTriggers: string[];
  /** Implicit triggers (name, "Use when …" items, when_to_use) whose words are all in the query. */
  implicitHits: ImplicitPhrase[];
  /** The message says not to use this skill ("don't use the weather skill"). */
  negated?: true;
}

export interface RecallResult {
  prepared: PreparedQuery;
  /** The query without `$name` / `/name` / "use X skill" markers: the task text. */
  task: string;
  /** The part of the task that says what to do (before "instruction: payload"); recall and intent read it. */
  instruction: string;
  /** The user's words the instruction rewords ("make" of "make a new skill"), if it does. */
  reworded?: string;
  /** Names the user forced that match no routable skill (reported in routing_reason). */
  unknownForced: string[];
  /** The message asks for no skill at all ("without using any skill", "不用技能"). */
  noSkill: boolean;
  /** What the message says not to do ("do not convert anything"): set aside, named in routing_reason. */
  ruledOut: string[];
  candidates: Recalled[];
  /** The query's BM25F match over the index (scores, routable mass). */
  match: QueryMatch;
}

/** routing spec §6.1 hard triggers: `$name`, `/name`, "use X skill", "使用 X skill / 技能". */
const FORCED_RES: { re: RegExp; reportMiss: boolean; words?: boolean }[] = [
  { re: new RegExp(String.raw`\$(${NAME})`, 'gu'), reportMiss: true, words: true },
  // A `/path` or "/tmp" that names no skill is ordinary text, not a failed invocation.
  {
    re: new RegExp(String.raw`(?<![\p{L}\p{N}/.~])\/(${NAME})(?=$|[\s,!?;，。！？、])`, 'gu'),
    reportMiss: false,
    words: true,
  },
  // "use the Braintree Automation skill": a name of up to four words.
  // "use a skill", "use your best skill" name none.
  {
    re: new RegExp(
      String.raw`\buse (?:the )?(?!(?:a|an|any|some|my|your|our|this|that|another|one|no)\s)(${NAME}(?: ${NAME}){0,3}) skill\b`,
      'giu',
    ),
    reportMiss: true,
  },
  {
    re: new RegExp(String.raw`(?:使用|用)\s*(${NAME}(?: ${NAME}){0,3})\s*(?:skill|技能)`, 'giu'),
    reportMiss: true,
  },
];

/** Up to three words after a `$name`: the rest of a name with blanks ("$Braintree Automation"). */
const NAME_TAIL_RE = new RegExp(String.raw`^(?: ${NAME}){1,3}`, 'u');

/**
 * The skill a forced match names and the text that named it. After `$` or `/`, a name with
 * blanks goes on into the next words: the longest run that names a skill wins.
 */
function forcedTarget(
  index: RoutingIndex,
  query: string,
  match: RegExpMatchArray,
  words: boolean,
): { doc: SkillDoc | undefined; name: string; text: string } {
  const name = match[1].replace(/[.:-]+$/, '');
  const exact = forcedDoc(index, name);
  const tail = words && !exact ? NAME_TAIL_RE.exec(query.slice((match.index ?? 0) + match[0].length)) : null;
  if (tail) {
    const more = tail[0].split(' ').slice(1);
    for (let n = more.length; n > 0; n--) {
      const longer = `${name} ${more.slice(0, n).join(' ')}`.replace(/[.:-]+$/, '');
      const doc = forcedDoc(index, longer);
      if (doc) return { doc, name: longer, text: `${match[0]} ${more.slice(0, n).join(' ')}` };
    }
  }
  return { doc: exact, name, text: match[0] };
}

const SEPARATORS = ' ,;:，；：、—–';

/**
 * The task without the separators a span taken out left at its ends: ", just tell me…",
 * "apply colors, but". A loop, not a regex: a regex that ends in a run of them is quadratic on a
 * long run that does not end the text.
 */
function withoutLooseEnds(text: string): string {
  let start = 0;
  while (start < text.length && SEPARATORS.includes(text[start])) start++;
  let end = text.length;
  for (;;) {
    while (end > start && SEPARATORS.includes(text[end - 1])) end--;
    const dangling = /(?:^|[ ,;:，；：、—–])(?:but|and|or)$/iu.exec(
      text.slice(Math.max(start, end - 4), end),
    );
    if (!dangling || end - dangling[0].length === start) break;
    end -= dangling[0].length;
  }
  return text.slice(start, end);
}

/** At most this many trigger hits become candidates (the best by BM25). */
export const MAX_RULE_CANDIDATES = 12;

/** The payload's first words count at this weight: "make this modal accessible: focus trap, ARIA…". */
const PAYLOAD_WEIGHT = 0.4;
const PAYLOAD_GROUPS = 8;

/**
 * The instruction's groups plus the payload's first few at a low weight: the text after
 * "…:" is mostly material to work on, but sometimes it says what the task is about.
 */
function withPayload(groups: QueryGroup[], payload: string): QueryGroup[] {
  // Stryker disable next-line ConditionalExpression,MethodExpression: an empty payload (splitInstruction's payload is never blank) adds no groups either
  if (!payload.trim()) return groups;
  const seen = new Set(groups.map((g) => g.text));
  const extra = analyzeQuery(payload.slice(0, 400), false)
    .filter((g) => !seen.has(g.text))
    .slice(0, PAYLOAD_GROUPS);
  for (const group of extra) group.weight *= PAYLOAD_WEIGHT;
  return [...groups, ...extra];
}

/**
 * An implicit trigger must carry this share of a one-skill word's IDF to count: "files" alone
 * says little, "heap snapshot" a lot. Relative, so it reads the same in a dozen-skill catalog.
 */
const IMPLICIT_MIN_IDF = 0.5;

/** Implicit triggers of a skill whose terms are all among the query's (exact, translated or lexicon) terms. */
export function implicitHits(
  index: RoutingIndex,
  doc: SkillDoc,
  queryTerms: ReadonlySet<string>,
  query?: PreparedQuery,
): ImplicitPhrase[] {
  const hits: ImplicitPhrase[] = [];
  for (const phrase of doc.implicit) {
    // A lone word of a "Use when …" list ("sessions", "files") is too weak; a name is not.
    if (phrase.origin !== 'name' && phrase.terms.length < 2) continue;
    if (query && phrase.verbatim && !phraseHits(phrase.verbatim, query)) continue;
    let idf = 0;
    let all = true;
    for (const term of phrase.terms) {
      if (!queryTerms.has(term)) {
        all = false;
        break;
      }
      idf += index.idf(term);
    }
    if (all && (phrase.origin === 'name' || idf >= IMPLICIT_MIN_IDF * index.idfMax)) hits.push(phrase);
  }
  return hits;
}

/** Each skill reports its own spelling of the phrases that hit. */
function triggerTexts(doc: SkillDoc, refs: TriggerRef[]): string[] {
  const out: string[] = [];
  for (const ref of refs) {
    const own = doc.triggers.find((p) => p.compact === ref.phrase.compact)?.text ?? ref.phrase.text;
    if (!out.includes(own)) out.push(own);
  }
  return out;
}

/** True when the skill may be picked without being named (implicit invocation, not never-auto-select). */
export function autoSelectable(doc: SkillDoc, eligibility: Eligibility): boolean {
  return doc.metadata.invocation.implicit && !eligibility.neverAutoSelect.has(doc.name);
}

/**
 * Neither disabled nor never-auto-select: with the index's copy of autoSelectable's invocation
 * bit, what rule recall may bring in for each skill a trigger lists. Most settings name no
 * skill, and then nothing is looked up per skill.
 */
const eligible = (doc: SkillDoc, eligibility: Eligibility): boolean =>
  (eligibility.disabled.size === 0 || !eligibility.disabled.has(doc.name)) &&
  (eligibility.neverAutoSelect.size === 0 || !eligibility.neverAutoSelect.has(doc.name));

/** True when `d` is in `docs`, which the index keeps ascending (a trigger's skills, in index order). */
function holds(docs: readonly number[], d: number): boolean {
  let lo = 0;
  let hi = docs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (docs[mid] === d) return true;
    if (docs[mid] < d) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * Phase 1 (routing spec §6.1): forced, then rule (trigger phrases), then semantic top-k
 * over the lexical index; merged, first source wins. Disabled skills are never recalled;
 * explicit-only skills only when forced.
 */
export function recall(
  index: RoutingIndex,
  query: string,
  topK: number,
  eligibility: Eligibility,
  semantic?: SemanticRecall,
): RecallResult {
  const candidates: Recalled[] = [];
  const seen = new Set<number>();
  const unknownForced: string[] = [];
  // What the message rules out goes first: it is neither forced nor words of the request.
  const { said, negated, ruledOut, noSkill } = setAside(index, query);
  let task = said;

  for (const { re, reportMiss, words = false } of FORCED_RES) {
    for (const match of said.matchAll(re)) {
      const { doc, name, text } = forcedTarget(index, said, match, words);
      if (doc && negated.has(doc.index)) continue;
      if (!doc || eligibility.disabled.has(doc.name) || !doc.metadata.invocation.user) {
        // A several-word "use … skill" that names nothing is just a sentence ("use your best skill");
        // "$5" and "$TSLA" that name nothing are an amount and a ticker.
        const misnamed = !name.includes(' ') && !(words && !doc && isAmountOrTicker(name));
        if (reportMiss && misnamed && !unknownForced.includes(name)) unknownForced.push(name);
        continue;
      }
      task = task.replace(text, ' ');
      if (seen.has(doc.index)) continue;
      seen.add(doc.index);
      candidates.push({ doc, source: 'forced', matchedTriggers: [], implicitHits: [] });
    }
  }
  task = withoutLooseEnds(task.replace(/\s+/g, ' '));

  const { instruction, payload, reworded } = splitInstruction(task);
  const prepared = prepareQuery(instruction);
  const match = matchQuery(index, withPayload(analyzeQuery(instruction), payload));
  const queryTerms = new Set<string>();
  for (const group of match.groups)
    for (const v of group.variants)
      if (['exact', 'translation', 'lexicon', 'spelling', 'entity'].includes(v.via)) queryTerms.add(v.term);
  const refs = index.triggersFor(new Set(prepared.words)).filter((ref) => phraseHits(ref.phrase, prepared));
  const refsOf = (d: number) => refs.filter((ref) => holds(ref.docs, d));
  for (const c of candidates)
    if (c.source === 'forced') c.matchedTriggers = triggerTexts(c.doc, refsOf(c.doc.index));
  const ruleSet = new Set<number>();
  // A common trigger (a word hundreds of skills declare) lists each skill once per phrase: test each once.
  for (const ref of refs)
    for (const d of ref.docs)
      if (
        !ruleSet.has(d) &&
        !seen.has(d) &&
        index.implicitlyInvoked[d] === 1 &&
        eligible(index.docs[d], eligibility)
      )
        ruleSet.add(d);
  // A trigger shared by hundreds of skills must not cost a keystroke: keep the best by BM25F.
  const ruleDocs = topDocs(ruleSet, match.score, MAX_RULE_CANDIDATES);
  for (const d of ruleDocs) {
    seen.add(d);
    candidates.push({
      doc: index.docs[d],
      source: 'rule',
      matchedTriggers: triggerTexts(index.docs[d], refsOf(d)),
      implicitHits: implicitHits(index, index.docs[d], queryTerms, prepared),
    });
  }
  for (const c of candidates)
    if (c.source === 'forced') c.implicitHits = implicitHits(index, c.doc, queryTerms, prepared);

  const accept = (doc: SkillDoc) =>
    !seen.has(doc.index) && !eligibility.disabled.has(doc.name) && autoSelectable(doc, eligibility);
  // Lexical recall: skills whose implicit triggers all occur (best first, capped), then the top k by BM25F.
  const ranked = match.pool;
  let implicitCount = 0;
  let semanticCount = 0;
  for (const d of ranked) {
    const doc = index.docs[d];
    if (!accept(doc)) continue;
    const found = implicitHits(index, doc, queryTerms, prepared);
    if (found.length > 0 && implicitCount < MAX_RULE_CANDIDATES) implicitCount++;
    else if (semanticCount < topK) semanticCount++;
    else continue;
    seen.add(d);
    candidates.push({ doc, source: 'semantic', matchedTriggers: [], implicitHits: found });
  }
  shareNameHits(candidates);
  for (const doc of semantic?.(instruction, topK, accept) ?? []) {
    // Stryker disable next-line ConditionalExpression: accept() refuses a seen skill too; dropping either check alone changes nothing
    if (seen.has(doc.index) || !accept(doc)) continue;
    seen.add(doc.index);
    candidates.push({ doc, source: 'semantic', matchedTriggers: [], implicitHits: [] });
  }
  for (const c of candidates) if (negated.has(c.doc.index)) c.negated = true;
  return { prepared, task, instruction, reworded, unknownForced, noSkill, ruledOut, candidates, match };
}

/**
 * A skill whose name holds the whole name another candidate was named by is named by it too:
 * "Discord bot won't connect, diagnose the token" names discord, and names discord-doctor no less.
 * Otherwise the bare topic's skill wins on the name alone over the sibling whose other words say
 * what the request is for.
 */
function shareNameHits(candidates: Recalled[]): void {
  const hits = candidates.flatMap((c) => c.implicitHits.filter((h) => h.origin === 'name'));
  const longest = Math.max(0, ...hits.map((h) => h.terms.length));
  const named = hits.filter((h) => h.terms.length === longest);
  if (named.length === 0) return;
  for (const c of candidates) {
    if (c.implicitHits.some((h) => h.origin === 'name')) continue;
    const own = new Set(c.doc.names.flatMap((p) => p.terms));
    const hit = named.find((h) => h.terms.every((t) => own.has(t)));
    if (hit) c.implicitHits = [...c.implicitHits, hit];
  }
}
