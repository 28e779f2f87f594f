import type { RoutingIndex, SkillDoc } from './lexicon';
import { fold, nameSlug } from './text';

// What a message rules out (routing spec §6.1): a skill it says not to use, no skill at all, or
// an order not to do something. Found before forced recall, so none of it forces or counts.

/** A skill's name as typed after `$`, `/`, "use" or "don't use". */
export const NAME = String.raw`[\p{L}\p{N}][\p{L}\p{N}_.:-]*`;

/** The skill a forced name means: its name, its hyphenated spelling or its folder's name. */
export const forcedDoc = (index: RoutingIndex, name: string): SkillDoc | undefined =>
  index.byName.get(fold(name)) ?? index.byName.get(nameSlug(name));

/**
 * A skill the message rules out: "don't use the weather skill", "instead of $weather",
 * "不要用 weather 技能". The span neither forces the skill nor counts as words of the request.
 */
const NEGATED_USE_RES: RegExp[] = [
  new RegExp(
    String.raw`\b(?:don[’']?t|do not|never|not|without|no need to|instead of|rather than)\s+(?:use|using|call|calling|run|running|invoke|invoking)\s+(?:the\s+)?\$?(${NAME}(?: ${NAME}){0,3})\s+skill\b`,
    'giu',
  ),
  new RegExp(
    String.raw`\b(?:don[’']?t|do not|never|not|without|instead of|rather than)\s+(?:use\s+|using\s+)?\$(${NAME})`,
    'giu',
  ),
  new RegExp(
    String.raw`(?:不要|别|不用|无需|不必|不需要)\s*(?:使用|用|调用)\s*(${NAME}(?: ${NAME}){0,3})\s*(?:skill|技能)`,
    'giu',
  ),
];

/**
 * A skill ruled out by its bare name, with no "skill" after it: "don't use brand-guidelines, just
 * …", "apply our colors without theme-factory". Only a run of words that names a skill counts (see
 * bareNegated); "without pdf files" rules out no skill named pdf.
 */
const BARE_NEGATED_RE = new RegExp(
  String.raw`\b(?:(?:don[’']?t|do not|never|no need to)\s+(?:use|call|run|invoke)|without(?:\s+(?:using|calling|running|invoking))?|not\s+(?:with|using|via)|instead of(?:\s+using)?|rather than(?:\s+using)?)\s+(?:the\s+)?(${NAME}(?: ${NAME}){0,3})`,
  'giu',
);
/** What may follow a bare name the message rules out: the clause ends, or the next one starts. */
const AFTER_BARE_NAME_RE =
  /^(?:\s*(?:$|[,.;:!?—–)]|\s(?:and|but|just|instead|please|here|this|for|to|or|then|so|only)\b))/iu;

/**
 * The skill a bare ruled-out name means and the words that name it, as typed: the longest
 * leading run of the captured words that is a skill's name. A name of one plain word ("weather")
 * counts only where its clause ends, so "without weather worries" rules nothing out; a hyphenated
 * or underscored name ("theme-factory") is a name wherever it stands.
 */
function bareNegated(
  index: RoutingIndex,
  words: string,
  rest: string,
): { doc: SkillDoc; typed: string } | undefined {
  const parts = words.split(' ');
  for (let n = parts.length; n > 0; n--) {
    const typed = parts.slice(0, n).join(' ');
    const name = typed.replace(/[.:-]+$/, '');
    const doc = forcedDoc(index, name);
    if (!doc) continue;
    const after = words.slice(typed.length) + rest;
    if (n > 1 || /[-_.]/.test(name) || AFTER_BARE_NAME_RE.test(after)) return { doc, typed };
  }
  return undefined;
}

/** The message asks for no skill at all: plain chat, whatever its words match. */
const NO_SKILL_RE =
  /\b(?:(?:don[’']?t|do not|never)(?:\s+(?:want|need)\s+to)?\s+(?:use|call|run|invoke)|without(?:\s+(?:using|calling|running|invoking))?|no need (?:to use|for))\s+(?:any|a)\s+skills?\b|\bwithout\s+skills\b|(?:不要|别|不用|无需|不必|不需要)\s*(?:使用|用|调用)?\s*(?:任何)?\s*(?:skill|技能)/giu;

/**
 * What the message tells the assistant not to do, as an order at the start of a clause: "do not
 * convert anything, just tell me a joke", "no need to translate it", 先别写代码, 不要上传到云端. Those
 * words ask for nothing, so they count for no skill. Not a statement ("I don't know how to
 * convert HEIC" asks for the conversion) nor a reminder ("don't forget to back up the db"), and
 * only up to a condition: "don't tell me it's done until you've run pytest" asks for the run.
 */
const DONT_DO_RES: RegExp[] = [
  /(^|[,.;:!?—–]\s*|\b(?:just|please|and|but|so|then)\s+)(?:please\s+)?(?:don[’']?t|do not|no need to|you don[’']?t need to|there[’']?s no need to)\s+(?!forget\b|miss\b|hesitate\b|worry\b|stop\b|let\b|bother\b)(?:[^,.;:!?\n—–]*?)(?=\s+(?:just|but|instead|rather|only|simply|until|till|unless|before)\b|[,.;:!?\n—–]|$)/giu,
  /(^|[，,。；;！!？?、\s])(?:先|就|也|还|千万|请)?(?:不要|别|不用|无需|不需要|没必要|不必)(?!人|的|名|忘|客气|担心|着急|急)[^，,。；;！!？?\n]*/gu,
  // "summarize it instead of translating it": what the user does not want, wherever it stands.
  /(\b)(?:instead of|rather than)\s+(?:[^,.;:!?\n—–]*?)(?=\s+(?:just|but|only|simply)\b|[,.;:!?\n—–]|$)/giu,
  /()(?:而不是|而非)[^，,。；;！!？?\n]*/gu,
];

/** The skill a ruled-out name means: the whole name, or its last words ("the old weather" → weather). */
function negatedDoc(index: RoutingIndex, name: string): SkillDoc | undefined {
  const words = name.split(' ');
  for (let k = 0; k < words.length; k++) {
    const doc = forcedDoc(index, words.slice(k).join(' '));
    if (doc) return doc;
  }
  return undefined;
}

/** What a message rules out, and the message without it. */
export interface SetAside {
  /** The message with what it rules out blanked: what forced recall and the request read. */
  said: string;
  /** Routing indexes of the skills it says not to use. */
  negated: Set<number>;
  /** Orders not to do something ("do not convert anything"), named in routing_reason. */
  ruledOut: string[];
  /** It asks for no skill at all ("without using any skill", "不用技能"). */
  noSkill: boolean;
}

/** Finds what `query` rules out: no skill, skills by name (with or without "skill"), orders. */
export function setAside(index: RoutingIndex, query: string): SetAside {
  // Stryker disable next-line Regex: a fresh RegExp, so `test` never starts from a previous lastIndex
  const noSkill = new RegExp(NO_SKILL_RE.source, 'iu').test(query);
  let said = query.replace(NO_SKILL_RE, ' ');
  const negated = new Set<number>();
  for (const re of NEGATED_USE_RES)
    said = said.replace(re, (_span, name: string) => {
      const doc = negatedDoc(index, name);
      if (doc) negated.add(doc.index);
      return ' ';
    });
  said = said.replace(BARE_NEGATED_RE, (span: string, words: string, at: number, whole: string) => {
    const found = bareNegated(index, words, whole.slice(at + span.length));
    if (!found) return span;
    negated.add(found.doc.index);
    // Only the words up to the name go; what follows them is the request ("… just apply our colors").
    return ` ${words.slice(found.typed.length)}`;
  });
  const ruledOut: string[] = [];
  for (const re of DONT_DO_RES)
    said = said.replace(re, (span: string, lead: string) => {
      const order = span.slice(lead.length).trim();
      if (order && !ruledOut.includes(order)) ruledOut.push(order);
      return `${lead} `;
    });
  return { said, negated, ruledOut, noSkill };
}
