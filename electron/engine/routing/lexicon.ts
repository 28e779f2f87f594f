import type { SkillMetadata, SkillSummary } from '../../../shared/contract';
import { buildDoc, type SkillDoc } from './skillDoc';
import { editsOf } from './spelling';
import { fold, hasCjk, lemmaOf, nameSlug, stem, terms, type Phrase } from './text';
import { translate } from './zh';

export { buildDoc, FIELD, type FieldName, type ImplicitPhrase, type SkillDoc } from './skillDoc';

/** The body text's weight against the metadata fields, applied after its own length normalization. */
export const TEXT_WEIGHT = 0.3;
/** BM25 length normalization of the metadata fields and of the body text. */
const B = 0.75;
const B_TEXT = 0.75;

/** A term's postings: the skills that use it and its BM25F pseudo-frequency in each. */
export interface Postings {
  docs: number[];
  tfs: number[];
  /** How many of those skills use it in their metadata (name, triggers, description, hints). */
  meta: number;
  /** Those skills and their pseudo-frequencies alone: what a match on the metadata only walks. */
  metaDocs: number[];
  metaTfs: number[];
}

/** One distinct trigger phrase and every skill that declares it (tested once per query). */
export interface TriggerRef {
  phrase: Phrase;
  docs: number[];
}

/** A listed skill: what the catalog knows, plus the body lines it kept for routing. */
export interface IndexedSkill {
  summary: SkillSummary;
  metadata: SkillMetadata;
  hints?: readonly string[];
  /** The start of the body (its words are indexed at a low weight). */
  text?: string;
}

/** What the index reads from a skill catalog (SkillCatalog; a structural type keeps skills/ out of the import graph). */
export interface CatalogView {
  list(): { skills: SkillSummary[] };
  metadata(id: string): SkillMetadata | undefined;
  hints(id: string): string[];
  bodyText(id: string): string;
}

/** Every listed skill of a catalog with what routing reads: metadata, body hints and body text. */
export function indexedSkills(catalog: CatalogView): IndexedSkill[] {
  return catalog.list().skills.flatMap((summary) => {
    const metadata = catalog.metadata(summary.id);
    return metadata
      ? [{ summary, metadata, hints: catalog.hints(summary.id), text: catalog.bodyText(summary.id) }]
      : [];
  });
}

/**
 * Prepared skills keyed by their metadata object: the catalog keeps a skill's metadata object
 * until the skill changes, so a rebuild after one edit re-prepares one skill (issue 10 §3:
 * the index build stays incremental). Weak keys let stale ones go.
 */
const prepared = new WeakMap<SkillMetadata, { summary: SkillSummary; doc: Omit<SkillDoc, 'index'> }>();

function cachedDoc(skill: IndexedSkill, index: number): SkillDoc {
  const hit = prepared.get(skill.metadata);
  if (hit && hit.summary === skill.summary) return { ...hit.doc, index };
  const doc = buildDoc(index, skill.summary, skill.metadata, skill.hints, skill.text);
  prepared.set(skill.metadata, { summary: skill.summary, doc });
  return doc;
}

/**
 * The routing index over routable skills (DESIGN §3 recall): BM25F postings over name,
 * triggers (declared and implicit), description, `when_to_use`, translations and body hints;
 * a trigger index keyed by each phrase's first word (or first CJK character).
 */
export class RoutingIndex {
  /** Routable skills, in catalog order. */
  readonly docs: SkillDoc[] = [];
  /** Every listed skill by id, routable or not ("why not?" covers them all). */
  readonly all = new Map<string, IndexedSkill>();
  /** Routable skills by folded name (forced recall). */
  readonly byName = new Map<string, SkillDoc>();
  /** Routable skills by id. */
  readonly byId = new Map<string, SkillDoc>();
  private readonly postings = new Map<string, Postings>();
  private readonly triggerKeys = new Map<string, TriggerRef[]>();
  /** Term → skills whose name holds it (the name bonus looks only at these). */
  private readonly names = new Map<string, number[]>();
  /** Terms that are some skill's whole name as one word (activecampaign, hubspot). */
  private readonly wholeNames = new Set<string>();
  /**
   * Every skill's name phrases laid out flat at build: the name bonus reads them for about a
   * hundred skills per query, and walking each skill's own objects (doc → phrase → terms) cost a
   * cache miss per hop on a 10k-skill index.
   */
  private readonly nameTermList: string[] = [];
  /** Where each name phrase's terms start in nameTermList, and one more entry: the end. */
  private readonly phraseStarts: number[] = [];
  /** Where each skill's name phrases start in phraseStarts, and one more entry: the end. */
  private readonly docPhrases: Int32Array;
  /** Per name phrase, 1 when it has several words and no other skill's name holds its first (a brand). */
  private readonly brandFirst: Uint8Array;
  /** Per skill, 1 when it may be invoked without being named (metadata.invocation.implicit): recall tests it per trigger hit. */
  readonly implicitlyInvoked: Uint8Array;
  avgLength = 1;
  avgTextLength = 1;
  private readonly neighbours = new Map<string, SpellingNeighbour[]>();

  constructor(skills: IndexedSkill[]) {
    for (const skill of skills) {
      this.all.set(skill.summary.id, skill);
      if (!skill.summary.routable) continue;
      const doc = cachedDoc(skill, this.docs.length);
      this.docs.push(doc);
      this.byId.set(doc.id, doc);
      const key = fold(doc.name);
      if (!this.byName.has(key)) this.byName.set(key, doc);
    }
    // A name with blanks also answers to its hyphenated spelling, and a skill to its folder's
    // name ($braintree-automation for "Braintree Automation"), where no skill is called that.
    for (const doc of this.docs)
      for (const alias of [nameSlug(doc.name), nameSlug(doc.id.split(/[\\/]/).pop() ?? '')])
        if (alias && !this.byName.has(alias)) this.byName.set(alias, doc);
    let total = 0;
    let textTotal = 0;
    for (const doc of this.docs) {
      total += doc.length;
      textTotal += doc.textLength;
    }
    this.avgLength = this.docs.length ? total / this.docs.length : 1;
    this.avgTextLength = this.docs.length ? Math.max(1, textTotal / this.docs.length) : 1;
    const distinct = new Map<string, TriggerRef>();
    // One map lookup per posting: at 3,000 skills with their bodies a rebuild posts a million.
    const post = (term: string, d: number, tf: number, meta: number) => {
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = { docs: [], tfs: [], meta: 0, metaDocs: [], metaTfs: [] }));
      list.docs.push(d);
      list.tfs.push(tf);
      if (meta === 0) return;
      list.meta++;
      list.metaDocs.push(d);
      list.metaTfs.push(tf);
    };
    this.docPhrases = new Int32Array(this.docs.length + 1);
    this.implicitlyInvoked = new Uint8Array(this.docs.length);
    for (const doc of this.docs) {
      const textNorm = TEXT_WEIGHT / (1 - B_TEXT + (B_TEXT * doc.textLength) / this.avgTextLength);
      for (const term of doc.tf.keys())
        post(term, doc.index, this.metaTf(doc, term) + (doc.textTf.get(term) ?? 0) * textNorm, 1);
      if (TEXT_WEIGHT > 0)
        for (const [term, tf] of doc.textTf) if (!doc.tf.has(term)) post(term, doc.index, tf * textNorm, 0);
      if (doc.metadata.invocation.implicit) this.implicitlyInvoked[doc.index] = 1;
      this.docPhrases[doc.index] = this.phraseStarts.length;
      for (const phrase of doc.names) {
        this.phraseStarts.push(this.nameTermList.length);
        for (const term of phrase.terms) this.nameTermList.push(term);
        if (phrase.terms.length === 1) this.wholeNames.add(phrase.terms[0]);
        for (const term of phrase.terms) {
          const list = this.names.get(term);
          if (!list) this.names.set(term, [doc.index]);
          else if (list[list.length - 1] !== doc.index) list.push(doc.index);
        }
      }
      for (const phrase of doc.triggers) {
        const unique = `${phrase.cjk ? 'c' : 'w'}:${phrase.cjk ? phrase.compact : phrase.words.join(' ')}`;
        let ref = distinct.get(unique);
        if (!ref) {
          distinct.set(unique, (ref = { phrase, docs: [] }));
          // A CJK phrase is keyed by its first character, or its first word when it starts in Latin ("pdf转文字").
          const latinHead = phrase.cjk ? /^[a-z0-9]+/.exec(phrase.compact)?.[0] : undefined;
          const key = phrase.cjk
            ? latinHead
              ? stem(latinHead)
              : Array.from(phrase.compact)[0]
            : phrase.words[0];
          const refs = this.triggerKeys.get(key);
          if (refs) refs.push(ref);
          else this.triggerKeys.set(key, [ref]);
        }
        if (ref.docs[ref.docs.length - 1] !== doc.index) ref.docs.push(doc.index);
      }
    }
    const phrases = this.phraseStarts.length;
    this.docPhrases[this.docs.length] = phrases;
    this.phraseStarts.push(this.nameTermList.length);
    this.brandFirst = new Uint8Array(phrases);
    for (let p = 0; p < phrases; p++) {
      const first = this.nameTermList[this.phraseStarts[p]];
      const several = this.phraseStarts[p + 1] - this.phraseStarts[p] > 1;
      if (several && this.namedBy(first).length === 1) this.brandFirst[p] = 1;
    }
  }

  /**
   * The largest share of the skill's name phrases that `queryTerms` holds, a brand's first word
   * counting for `brandShare` (match.ts nameShare), read from the flat name table.
   */
  nameShareOf(d: number, queryTerms: ReadonlySet<string>, brandShare: number): number {
    let best = 0;
    const starts = this.phraseStarts;
    const list = this.nameTermList;
    for (let p = this.docPhrases[d]; p < this.docPhrases[d + 1]; p++) {
      const from = starts[p];
      const to = starts[p + 1];
      let hit = 0;
      for (let i = from; i < to; i++) if (queryTerms.has(list[i])) hit++;
      best = Math.max(best, hit / (to - from));
      if (this.brandFirst[p] === 1 && queryTerms.has(list[from])) best = Math.max(best, brandShare);
    }
    return best;
  }

  /**
   * BM25F's pseudo-frequency of a term in a skill: each field's frequency over its own length
   * normalization, then weighted (Robertson & Zaragoza): a long body must not dilute the name.
   */
  normalizedTf(doc: SkillDoc, term: string): number {
    let tf = this.metaTf(doc, term);
    const text = TEXT_WEIGHT > 0 ? doc.textTf.get(term) : undefined;
    if (text !== undefined)
      tf += (TEXT_WEIGHT * text) / (1 - B_TEXT + (B_TEXT * doc.textLength) / this.avgTextLength);
    return tf;
  }

  /**
   * The metadata fields' part of normalizedTf. The glosses of a skill's Chinese are normalized as
   * if its text were as long as all of them: one Chinese word brings up to six English keywords,
   * and a skill written in Chinese met any English request that shared its glosses' everyday
   * words (play, back, time, stage) as strongly as a skill that says them.
   */
  private metaTf(doc: SkillDoc, term: string): number {
    const tf = doc.tf.get(term) ?? 0;
    const gloss = doc.glossTf.get(term) ?? 0;
    const own = (tf - gloss) / (1 - B + (B * doc.length) / this.avgLength);
    if (gloss === 0) return own;
    return own + gloss / (1 - B + (B * (doc.length + doc.glossLength)) / this.avgLength);
  }

  get size(): number {
    return this.docs.length;
  }

  /** How many skills use a term in their metadata (name, triggers, description, hints). */
  metaDf(term: string): number {
    return this.postings.get(term)?.meta ?? 0;
  }

  /**
   * BM25 inverse document frequency, of the metadata's document frequency when the term has one
   * (a word many bodies mention keeps its weight in names and descriptions), else the body's; 0 for
   * a term no skill uses (the user's own payload).
   */
  idf(term: string): number {
    const list = this.postings.get(term);
    return list ? this.idfOf(list, term) : 0;
  }

  /**
   * idf() of a term whose postings the caller holds. A Chinese word counts as common as the
   * first thing it means: few skills are written in Chinese, so 写 ("write") or 问题 ("problem")
   * would otherwise be as rare as a product name, and a Chinese skill that says them would
   * answer every Chinese request that does.
   */
  idfOf(list: Postings, term?: string): number {
    let df = list.meta || list.docs.length;
    // The code-point test first: this runs for every variant of every query word.
    if (term !== undefined && term.charCodeAt(0) >= 0x2e80 && hasCjk(term))
      df = Math.max(df, this.meaningDf(term));
    return Math.log(1 + (this.docs.length - df + 0.5) / (df + 0.5));
  }

  private readonly meaningDfs = new Map<string, number>();
  /** How many skills use the rarest index term of a Chinese word's first English sense (0: none). */
  private meaningDf(word: string): number {
    let df = this.meaningDfs.get(word);
    if (df === undefined) {
      const sense = translate(word)[0];
      const counts = sense
        ? terms(sense).map((t) => {
            const list = this.postings.get(t);
            return list ? list.meta || list.docs.length : 0;
          })
        : [];
      df = counts.length > 0 ? Math.min(...counts) : 0;
      if (this.meaningDfs.size > 20_000) this.meaningDfs.clear();
      this.meaningDfs.set(word, df);
    }
    return df;
  }

  /** The IDF of a term only one skill uses: the most a word can say in this catalog. */
  get idfMax(): number {
    return Math.log(1 + (this.docs.length - 0.5) / 1.5);
  }

  /** The postings of a term (docs and field-weighted tfs), or undefined. */
  postingsOf(term: string): Postings | undefined {
    return this.postings.get(term);
  }

  /** True when some skill's name, as one word, is the term (activecampaign-automation, hubspot). */
  namesWhole(term: string): boolean {
    return this.wholeNames.has(term);
  }

  /** Skills whose name (or display name) holds the term. */
  namedBy(term: string): readonly number[] {
    return this.names.get(term) ?? [];
  }

  /**
   * The terms of skills' names, triggers and descriptions that a word one letter away from
   * `word` stands for (an insertion, deletion, substitution or swap of two neighbours: "wether" →
   * weather), for a word no skill uses. Every such spelling is stemmed as the query's words are
   * and looked up (about 54 per letter): no table to build, so the first typo costs what the next
   * one does. Memoized.
   */
  spellingNeighbours(word: string): SpellingNeighbour[] {
    let near = this.neighbours.get(word);
    if (near) return near;
    const own = stem(lemmaOf(word));
    const found = new Set<string>();
    for (const spelled of editsOf(word)) {
      if (spelled.length < MIN_SPELLED) continue;
      // A short stem is one letter from too much: "boting" (for boeing) would stand for "bot".
      const term = stem(lemmaOf(spelled));
      if (term.length >= MIN_SPELLED && term !== own && (this.postings.get(term)?.meta ?? 0) > 0)
        found.add(term);
    }
    near = [...found].sort().map((term) => ({ term, shown: this.surfaceOf(term) }));
    if (this.neighbours.size > 5000) this.neighbours.clear();
    this.neighbours.set(word, near);
    return near;
  }

  /** A word of the skills' metadata that `term` is the stem of ("weather" for weath), for the score panel. */
  private surfaceOf(term: string): string {
    for (const d of this.postings.get(term)?.metaDocs.slice(0, 5) ?? []) {
      const { name, description } = this.docs[d].metadata;
      for (const word of fold(`${name} ${description}`).match(/[a-z]+/g) ?? [])
        if (stem(lemmaOf(word)) === term) return word;
    }
    return term;
  }

  /** Trigger phrases that start with one of `keys` (candidates to verify against the query). */
  triggersFor(keys: Iterable<string>): TriggerRef[] {
    const out: TriggerRef[] = [];
    for (const key of keys) {
      const refs = this.triggerKeys.get(key);
      if (refs) for (const ref of refs) out.push(ref);
    }
    return out;
  }
}

/** Words shorter than this are not given spelling neighbours (too many words are one letter apart). */
const MIN_SPELLED = 4;

/** A term of the skills a mistyped word may stand for, and a word of theirs it is the stem of. */
export interface SpellingNeighbour {
  term: string;
  shown: string;
}
