import type { CandidateSource } from '../../../shared/contract';
import type { RoutingIndex, SkillDoc, TriggerRef } from './lexicon';
import { fold, phraseHits, prepareQuery, splitInstruction, terms, type PreparedQuery } from './text';

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
}

export interface RecallResult {
  prepared: PreparedQuery;
  /** The query without `$name` / `/name` / "use X skill" markers: the task text. */
  task: string;
  /** The part of the task that says what to do (before "instruction: payload"); recall and intent read it. */
  instruction: string;
  /** Names the user forced that match no routable skill (reported in routing_reason). */
  unknownForced: string[];
  candidates: Recalled[];
}

const NAME = String.raw`[\p{L}\p{N}][\p{L}\p{N}_.:-]*`;
/** routing spec §6.1 hard triggers: `$name`, `/name`, "use X skill", "使用 X skill / 技能". */
const FORCED_RES: { re: RegExp; reportMiss: boolean }[] = [
  { re: new RegExp(String.raw`\$(${NAME})`, 'gu'), reportMiss: true },
  // A `/path` or "/tmp" that names no skill is ordinary text, not a failed invocation.
  {
    re: new RegExp(String.raw`(?<![\p{L}\p{N}/.~])\/(${NAME})(?=$|[\s,!?;，。！？、])`, 'gu'),
    reportMiss: false,
  },
  { re: new RegExp(String.raw`\buse (?:the )?(${NAME}) skill\b`, 'giu'), reportMiss: true },
  { re: new RegExp(String.raw`(?:使用|用)\s*(${NAME})\s*(?:skill|技能)`, 'giu'), reportMiss: true },
];

/** At most this many trigger hits become candidates (the best by BM25). */
export const MAX_RULE_CANDIDATES = 12;

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
  let task = query;

  for (const { re, reportMiss } of FORCED_RES) {
    for (const match of query.matchAll(re)) {
      const name = match[1].replace(/[.:-]+$/, '');
      const doc = index.byName.get(fold(name));
      if (!doc || eligibility.disabled.has(doc.name) || !doc.metadata.invocation.user) {
        if (reportMiss && !unknownForced.includes(name)) unknownForced.push(name);
        continue;
      }
      task = task.replace(match[0], ' ');
      if (seen.has(doc.index)) continue;
      seen.add(doc.index);
      candidates.push({ doc, source: 'forced', matchedTriggers: [] });
    }
  }
  task = task.replace(/\s+/g, ' ').trim();

  const { instruction } = splitInstruction(task);
  const prepared = prepareQuery(instruction);
  const touched = index.accumulate(terms(instruction));
  const hits = new Map<number, TriggerRef[]>();
  for (const ref of index.triggersFor(new Set(prepared.words))) {
    if (!phraseHits(ref.phrase, prepared)) continue;
    for (const d of ref.docs) {
      const list = hits.get(d);
      if (list) list.push(ref);
      else hits.set(d, [ref]);
    }
  }
  const ruleDocs: number[] = [];
  for (const d of hits.keys()) {
    const doc = index.docs[d];
    if (seen.has(d)) {
      const forced = candidates.find((c) => c.doc.index === d);
      if (forced) forced.matchedTriggers = triggerTexts(doc, hits.get(d) ?? []);
    } else if (!eligibility.disabled.has(doc.name) && autoSelectable(doc, eligibility)) {
      ruleDocs.push(d);
    }
  }
  // A trigger shared by hundreds of skills must not cost a keystroke: keep the best by BM25.
  if (ruleDocs.length > MAX_RULE_CANDIDATES) {
    ruleDocs.sort((a, b) => index.bm25(b) - index.bm25(a));
    ruleDocs.length = MAX_RULE_CANDIDATES;
  }
  for (const d of ruleDocs) {
    seen.add(d);
    candidates.push({
      doc: index.docs[d],
      source: 'rule',
      matchedTriggers: triggerTexts(index.docs[d], hits.get(d) ?? []),
    });
  }

  const accept = (doc: SkillDoc) =>
    !seen.has(doc.index) && !eligibility.disabled.has(doc.name) && autoSelectable(doc, eligibility);
  for (const { doc } of index.best(touched, topK, accept)) {
    seen.add(doc.index);
    candidates.push({ doc, source: 'semantic', matchedTriggers: [] });
  }
  index.release(touched);
  for (const doc of semantic?.(instruction, topK, accept) ?? []) {
    if (seen.has(doc.index) || !accept(doc)) continue;
    seen.add(doc.index);
    candidates.push({ doc, source: 'semantic', matchedTriggers: [] });
  }
  return { prepared, task, instruction, unknownForced, candidates };
}
