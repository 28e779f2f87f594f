import type { SkillMetadata, SkillSummary } from '../../../shared/contract';
import { implicitTriggers, type ImplicitOrigin } from './implicit';
import { compilePhrase, isStopWord, nameTerms, negatedTerms, phraseWords, terms, type Phrase } from './text';
import { translate } from './zh';

// How one skill becomes what the router matches against (lexicon.ts indexes many of them).

/** The fields of BM25F (issue 10 §2). A term's field bits say where a skill says it. */
export const FIELD = {
  name: 1,
  declared: 2,
  implicit: 4,
  description: 8,
  translation: 16,
  body: 32,
} as const;
export type FieldName = keyof typeof FIELD;

/**
 * Field weights: a word in the name or a declared trigger says more than one in prose; an
 * implicit trigger ("Use when …") more than the rest of the description, which it repeats;
 * a translation of the skill's own Chinese less than its words.
 */
const FIELD_WEIGHT: Record<FieldName, number> = {
  name: 3,
  declared: 2.5,
  implicit: 1.5,
  description: 1,
  translation: 0.6,
  body: 0.5,
};

/** An implicit trigger ready to test against a query. */
export interface ImplicitPhrase {
  text: string;
  origin: ImplicitOrigin;
  /** Index terms that must all be in the query. */
  terms: string[];
  /**
   * A name with a stop word in it (mails-so, post-at, dont-hack-me) as a phrase: the query must
   * say it as written, or "mails" alone would name Mails.so and "post" Post.at.
   */
  verbatim?: Phrase;
}

/** One skill as the router sees it, prepared once per skill content (and cached by the index). */
export interface SkillDoc {
  index: number;
  id: string;
  name: string;
  summary: SkillSummary;
  metadata: SkillMetadata;
  /** Field-weighted term frequencies (BM25F), the glosses of the skill's Chinese included. */
  tf: Map<string, number>;
  /**
   * The part of each tf that is a gloss of the skill's own Chinese, and their total weight: the
   * index normalizes the glosses as if the skill's text were as long as all of them, since one
   * Chinese word brings up to six English keywords (lexicon.ts).
   */
  glossTf: Map<string, number>;
  glossLength: number;
  /** Which fields hold each term (FIELD bits), for the evidence the score panel shows. */
  fields: Map<string, number>;
  /** Terms that only occur in a negated span of the description ("not for downloading"). */
  excluded: Set<string>;
  length: number;
  /** Term frequencies of the body text (its own BM25F field, normalized apart). */
  textTf: Map<string, number>;
  textLength: number;
  triggers: Phrase[];
  antiTriggers: Phrase[];
  implicit: ImplicitPhrase[];
  /** The `implicit` phrases of origin `name`, in order: the name bonus reads them per query. */
  names: ImplicitPhrase[];
}

const translationCache = new Map<string, string[]>();
/** Index terms of a Chinese word's CC-CEDICT English keywords, memoized. */
function translationTerms(word: string): string[] {
  let out = translationCache.get(word);
  if (out === undefined) {
    out = translate(word).flatMap((english) => terms(english));
    if (translationCache.size > 50_000) translationCache.clear();
    translationCache.set(word, out);
  }
  return out;
}

/** Prepares one skill for routing (exported for "why not?" on skills outside the index). */
export function buildDoc(
  index: number,
  summary: SkillSummary,
  metadata: SkillMetadata,
  hints: readonly string[] = [],
  text = '',
): SkillDoc {
  const tf = new Map<string, number>();
  const fields = new Map<string, number>();
  const glossTf = new Map<string, number>();
  let length = 0;
  let glossLength = 0;
  const add = (text: string | undefined, field: FieldName) => {
    if (!text) return;
    const weight = FIELD_WEIGHT[field];
    for (const term of field === 'name' ? nameTerms(text) : terms(text)) {
      tf.set(term, (tf.get(term) ?? 0) + weight);
      fields.set(term, (fields.get(term) ?? 0) | FIELD[field]);
      length += weight;
      // The skill's own Chinese words also stand for their English translations.
      if (/[\u3400-\u9fff]/.test(term)) {
        for (const t of translationTerms(term)) {
          tf.set(t, (tf.get(t) ?? 0) + FIELD_WEIGHT.translation);
          glossTf.set(t, (glossTf.get(t) ?? 0) + FIELD_WEIGHT.translation);
          glossLength += FIELD_WEIGHT.translation;
          fields.set(t, (fields.get(t) ?? 0) | FIELD.translation);
        }
      }
    }
  };
  // Names are kebab-case: `invoice-organizer` yields invoice, organizer.
  add(metadata.name.replace(/[-_.:]+/g, ' '), 'name');
  // Product names are one word in prose and two in a folder name: digital-ocean is DigitalOcean.
  // Another spelling of the name, not more name: like a translation, it adds no length.
  const nameParts = metadata.name.split(/[-_.:\s]+/).filter(Boolean);
  for (let i = 0; i + 1 < nameParts.length; i++) {
    for (const term of terms(nameParts[i] + nameParts[i + 1])) {
      if (tf.has(term)) continue;
      tf.set(term, FIELD_WEIGHT.name);
      fields.set(term, FIELD.name);
    }
  }
  if (metadata.displayName) add(metadata.displayName, 'name');
  for (const trigger of metadata.triggers) add(trigger, 'declared');
  for (const tag of metadata.tags) add(tag, 'declared');
  add(metadata.description, 'description');
  add(metadata.shortDescription, 'description');
  add(metadata.whenToUse, 'description');
  const implicit: ImplicitPhrase[] = [];
  for (const trigger of implicitTriggers(metadata, hints)) {
    const phraseTerms = [...new Set((trigger.origin === 'name' ? nameTerms : terms)(trigger.phrase))];
    if (phraseTerms.length === 0) continue;
    const verbatim =
      trigger.origin === 'name' && phraseWords(trigger.phrase).some(isStopWord)
        ? compilePhrase(trigger.phrase)
        : null;
    implicit.push({
      text: trigger.phrase,
      origin: trigger.origin,
      terms: phraseTerms,
      ...(verbatim ? { verbatim } : {}),
    });
    if (trigger.origin !== 'name') add(trigger.phrase, trigger.origin === 'body' ? 'body' : 'implicit');
  }
  for (const hint of hints) add(hint, 'body');
  const textTf = new Map<string, number>();
  let textLength = 0;
  // The body's "Not for …" sentences exclude, like the description's; their words are no match.
  for (const term of terms(stripNegated(text))) {
    textTf.set(term, (textTf.get(term) ?? 0) + 1);
    textLength++;
  }

  const negated = negatedTerms(`${metadata.description}\n${metadata.whenToUse ?? ''}\n${text}`);
  const positive = new Set(
    terms(
      [
        metadata.name,
        metadata.triggers.join(' '),
        metadata.tags.join(' '),
        stripNegated(metadata.description),
        stripNegated(metadata.whenToUse ?? ''),
      ].join('\n'),
    ),
  );
  const excluded = new Set([...negated].filter((term) => !positive.has(term)));
  const compile = (list: string[]) => list.map(compilePhrase).filter((p): p is Phrase => p !== null);
  return {
    index,
    id: summary.id,
    name: metadata.name,
    summary,
    metadata,
    tf,
    glossTf,
    glossLength,
    fields,
    excluded,
    length: Math.max(1, length),
    textTf,
    textLength,
    triggers: compile(metadata.triggers),
    antiTriggers: compile(metadata.antiTriggers),
    implicit,
    names: implicit.filter((phrase) => phrase.origin === 'name'),
  };
}

/** The description without its negated sentences, so "Not for PDFs" does not count PDFs as covered. */
function stripNegated(text: string): string {
  // Most bodies negate nothing: skip the per-sentence split (a cold index build reads 3,000 bodies).
  if (!/not\b|n't\b|不/iu.test(text)) return text;
  return text
    .split(/(?<=[.;!?。；！？\n])/u)
    .filter(
      (sentence) =>
        !/\bnot (?:for|meant|intended|suitable)\b|\bdo(?:n't| not) use\b|不适用|不用于|不要用于|不适合/iu.test(
          sentence,
        ),
    )
    .join(' ');
}
