import { domainLexicon, genericWords, similarWords, wordnet } from './lexdata';
import { CJK_RUN_RE, fold, hasCjk, isStopWord, lemmaOf, stem, wordTerms } from './text';
import { segment, subWords, translate } from './zh';
import { entityGroups } from './entities';
import { deliverableWords } from './instruction';
import { gluedWords, lowercaseOnly, namedAsTyped, siteNames, typedNames, typedSites } from './typedNames';

/**
 * How a query word reached a skill's word (issue 10 §3, and the evidence the score panel names):
 * the word itself, a WordNet synonym or related word, the curated domain lexicon, a CC-CEDICT
 * translation, a word similar by static word embedding, or a skill's word one letter away from a
 * word no skill uses (a typo: "wether" → weather; match.ts, since it depends on the catalog), or
 * the words for a thing whose shape says what it is (an IP address → ip; entities.ts).
 */
export type Via =
  'exact' | 'synonym' | 'related' | 'lexicon' | 'translation' | 'similar' | 'spelling' | 'entity';

/** One index term a query word may match, with how much a match is worth (exact = 1). */
export interface Variant {
  term: string;
  weight: number;
  via: Via;
  /** The word as the expansion gave it, unstemmed ("rain", "automobile"), for the score panel. */
  shown: string;
}

/** One word (or CJK word) of the query and every term that would count as meaning it. */
export interface QueryGroup {
  text: string;
  /** The user's word as typed (folded): what the score panel quotes. */
  surface: string;
  variants: Variant[];
  /** 1, or GENERIC_WEIGHT for a request word ("grab", "tomorrow"; data/generic.txt). */
  weight: number;
  /** Typed the way names are (Docmosis, SimilarWeb, iCIMS, U301), not as a plain or all-caps word. */
  cased?: true;
  /** The capitalized parts of a word typed in CamelCase (GoHighLevel → go, high, level). */
  camel?: string[];
  /** Typed as a site's name (Files.com, Polygon.io, Scrape.do): a product, though an English word. */
  site?: true;
  /** Typed in small letters only (activecampaign, not PRD or Notion). */
  lower?: true;
  /** Typed glued to another word by - or _ (redis-cache): part of a name, never a typo. */
  glued?: true;
  /**
   * English compounds this Chinese word and the next one may translate to together, when
   * CC-CEDICT has no entry for the pair (工作 "work" + 流 "flow" → workflow): match.ts keeps
   * those a skill uses and reads the two as one word.
   */
  joins?: Join[];
}

/** A compound of two neighbouring Chinese words' glosses (analyzeQuery). */
export interface Join {
  /** The index term of the compound. */
  term: string;
  /** The compound as an English word, for the score panel. */
  shown: string;
  /** The next word, that the compound takes in. */
  next: string;
}

/** Each later CC-CEDICT sense of a word counts this much less than the one before, down to the floor. */
const GLOSS_DECAY = 0.15;
const GLOSS_FLOOR = 0.4;

/** How many of a Chinese word's first senses bring their WordNet synonyms. */
const SYNONYM_GLOSSES = 2;

/** How much a request word weighs against a content word. */
export const GENERIC_WEIGHT = 0.33;
/** How much the thing a request asks to be made weighs ("write a tune for our radio ad": tune). */
const DELIVERABLE_WEIGHT = 1.5;

/** Match weights by route: an exact word counts fully, a translation or synonym less. */
export const VIA_WEIGHT: Record<Via, number> = {
  exact: 1,
  lexicon: 0.8,
  translation: 0.75,
  synonym: 0.6,
  related: 0.35,
  // Below a WordNet synonym: GloVe neighbours are related words, sometimes opposites (colder ≈ warmer).
  similar: 0.55,
  // The user's own word, mistyped: nearly as good as the word, but "Paris" is also one letter from "pairs".
  spelling: 0.7,
  // A thing the user pasted whose shape says what it is (entities.ts): as sure as the domain lexicon.
  entity: 0.8,
};

/** The weight of a multi-character word's second gloss: its first two senses stand for the word itself. */
export const SECOND_GLOSS_WEIGHT = VIA_WEIGHT.translation * (1 - GLOSS_DECAY);

/**
 * A Latin word in a Chinese message is typed on purpose — a product, a file type, a term (帮我查一下
 * Jira 里 PAY 项目…): it weighs more than each of the many words the Chinese is glossed to, which
 * otherwise outvote it (a skill whose body glosses to time, priority and timeline won over Jira).
 */
const LATIN_IN_CJK_WEIGHT = 1.5;

/** Cosine similarity at which an embedding neighbour starts to count, and where it counts fully. */
const SIMILAR_FROM = 0.5;
const SIMILAR_FULL = 0.85;

/**
 * WordNet's derivation links join whole synsets, so a lemma's list mixes its own derived forms
 * (add → addition, additive) with those of its synonyms' (add → linear, via "additive"). Only
 * the words that share most of the lemma's stem are its morphology.
 */
export function sameStem(lemma: string, derived: string): boolean {
  const a = lemma.toLowerCase();
  const b = derived.toLowerCase();
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return common >= Math.max(3, 0.6 * Math.min(a.length, b.length));
}

/** Terms a synonym or translation may stand for: content words only, each as an index term. */
function expansionTerms(text: string): string[] {
  return wordTerms(text).filter((t) => t.length > 1);
}

function addVariant(group: QueryGroup, term: string, via: Via, scale = 1, shown = term): void {
  const weight = VIA_WEIGHT[via] * scale;
  const existing = group.variants.find((v) => v.term === term);
  if (existing) {
    if (existing.weight < weight) Object.assign(existing, { weight, via, shown });
    return;
  }
  group.variants.push({ term, weight, via, shown });
}

/** WordNet and domain-lexicon neighbours of an English lemma (or two-word collocation). */
function expandLemma(group: QueryGroup, lemma: string, scale = 1): void {
  for (const other of domainLexicon().get(lemma) ?? []) {
    const words = expansionTerms(other);
    for (const term of words)
      addVariant(group, term, 'lexicon', scale / Math.max(1, words.length - 0.5), other);
  }
  const entry = wordnet(lemma);
  if (!entry) return;
  for (const syn of entry.syn) {
    const words = expansionTerms(syn);
    for (const term of words)
      addVariant(group, term, 'synonym', scale / Math.max(1, words.length - 0.5), syn);
  }
  for (const der of entry.der) {
    if (!sameStem(lemma, der)) continue;
    for (const term of expansionTerms(der)) addVariant(group, term, 'synonym', scale * 1.3, der);
  }
  for (const rel of entry.rel) {
    const words = expansionTerms(rel);
    for (const term of words)
      addVariant(group, term, 'related', scale / Math.max(1, words.length - 0.5), rel);
  }
}

const LATIN_RE =
  /(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}])[\p{L}\p{N}])+/gu;

/**
 * The query as groups of interchangeable index terms: each English content word with its
 * lemma's WordNet synonyms and related words and its domain-lexicon neighbours; each Chinese
 * word (jieba segmentation) with its sub-words and its CC-CEDICT English keywords. A group
 * counts once however many of its variants a skill matches, so expansion adds recall without
 * inflating scores. `request` false reads pasted material, which asks for no deliverable.
 */
export function analyzeQuery(typed: string, request = true): QueryGroup[] {
  const text = siteNames(typed);
  const groups: QueryGroup[] = [];
  const byText = new Set<string>();
  const entities = entityGroups(text, fold(text));
  const folded = entities.rest;
  const latin: string[] = [];
  let last = 0;
  for (const match of folded.matchAll(CJK_RUN_RE)) {
    latin.push(folded.slice(last, match.index));
    last = (match.index ?? 0) + match[0].length;
    const words = segment(match[0]);
    for (const [i, word] of words.entries()) {
      if (isStopWord(word) || byText.has(word) || reduplicated(word, words[i + 1])) continue;
      byText.add(word);
      const next = words[i + 1];
      const joins = next && !isStopWord(next) ? joinsOf(word, next) : [];
      groups.push({
        text: word,
        surface: word,
        variants: cached(`c:${word}`, () => cjkVariants(word)),
        weight: 1,
        ...(joins.length > 0 ? { joins } : {}),
      });
    }
  }
  latin.push(folded.slice(last));
  const words = latin.flatMap((chunk) => chunk.match(LATIN_RE) ?? []);
  const cjkQuery = hasCjk(text);
  const names = typedNames(text);
  const sites = typedSites(text);
  const lower = lowercaseOnly(text);
  const glued = gluedWords(text);
  const cased = new Set([...names.map(fold), ...sites]);
  // GoHighLevel → go, high, level: a skill may be named by a run of them (highlevel).
  const camel = new Map(
    names
      .filter((name) => /[a-z][A-Z]/u.test(name))
      .map((name) => [fold(name), name.split(/(?<=[a-z0-9])(?=[A-Z])/u).map(fold)]),
  );
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (isStopWord(word) || (word.length < 2 && !/\d/.test(word))) continue;
    const lemma = lemmaOf(word);
    const term = stem(lemma);
    if (byText.has(term)) continue;
    byText.add(term);
    const next = words[i + 1] && !isStopWord(words[i + 1]) ? words[i + 1] : '';
    const third = next && words[i + 2] && !isStopWord(words[i + 2]) ? words[i + 2] : '';
    // Request words and bare numbers ("3.13", "2024", "30%") say little about which skill.
    const weak =
      genericWords().has(word) || genericWords().has(lemma) || genericTerms().has(term) || /^\d+$/.test(word);
    const variants = cached(`${weak ? 'g' : 'w'}:${word} ${next} ${third}`, () =>
      latinVariants(word, lemma, term, next, weak, third),
    );
    groups.push({
      text: term,
      surface: word,
      variants: namedAsTyped(text, word)
        ? [...variants, { term: stem(word), weight: 1, via: 'exact', shown: word }]
        : variants,
      weight: weak ? GENERIC_WEIGHT : cjkQuery && !/^\d+$/.test(word) ? LATIN_IN_CJK_WEIGHT : 1,
      ...(cased.has(word) ? { cased: true as const } : {}),
      ...(camel.has(word) ? { camel: camel.get(word) } : {}),
      ...(sites.has(word) ? { site: true as const } : {}),
      ...(lower.has(word) ? { lower: true as const } : {}),
      ...(glued.has(word) ? { glued: true as const } : {}),
    });
  }
  // What "make a …" asks for weighs more than what it is about, unless the message types a name
  // (Sage). A capital that opens the sentence counts as one too: "Write a …" gets no weight (the
  // routing corpus README, stop 33, says why that stays). Pasted material (request false) asks
  // for nothing, whatever its first words are.
  const deliverable = request && names.length === 0 ? deliverableWords(folded) : new Set<string>();
  for (const group of groups)
    if (group.weight === 1 && deliverable.has(group.surface)) group.weight = DELIVERABLE_WEIGHT;
  groups.push(...entities.groups);
  return withoutEchoes(groups);
}

/**
 * An expansion that is another word of the query counts as that word, once: the "root" that
 * square's collocation brings in "square root", the "body" near human in "the human body", would
 * have a skill that says "root" or "body" answer two words of the question with one of its own.
 */
function withoutEchoes(groups: QueryGroup[]): QueryGroup[] {
  const own = new Set(groups.map((g) => g.variants[0]?.term));
  return groups.map((group) => {
    const echoes = group.variants.filter((v, i) => i > 0 && v.via !== 'exact' && own.has(v.term));
    if (echoes.length === 0) return group;
    return { ...group, variants: group.variants.filter((v) => !echoes.includes(v)) };
  });
}

/**
 * A verb doubled to soften it (聊聊天 "have a little chat", 散散步, 洗洗澡) segments as its first
 * character and then the word: the lone character is the same verb again, not a second word.
 */
const reduplicated = (word: string, next: string | undefined): boolean =>
  next !== undefined && Array.from(word).length === 1 && Array.from(next).length > 1 && next.startsWith(word);

/** The index terms of the request words, so "fetches" and "creating" weigh like "fetch" and "create". */
const genericTerms = (() => {
  let set: Set<string> | undefined;
  return () => (set ??= new Set([...genericWords()].map((w) => stem(lemmaOf(w)))));
})();

/**
 * Expansions depend on the word alone (and the next word), never on the catalog: cached, so a
 * keystroke re-analyses only the word being typed. Variant lists are shared and never mutated.
 */
const variantCache = new Map<string, Variant[]>();
function cached(key: string, build: () => Variant[]): Variant[] {
  let variants = variantCache.get(key);
  if (!variants) {
    if (variantCache.size > 20_000) variantCache.clear();
    variantCache.set(key, (variants = build()));
  }
  return variants;
}

/** How many of each word's first senses a compound is built from. */
const JOIN_SENSES = 3;

/** English compounds of one-word glosses of `word` and `next` (工作 + 流 → workflow), cached. */
function joinsOf(word: string, next: string): Join[] {
  const key = `${word} ${next}`;
  let joins = joinCache.get(key);
  if (joins) return joins;
  joins = [];
  const oneWord = (w: string) =>
    translate(w)
      .slice(0, JOIN_SENSES)
      .filter((sense) => /^[a-z]+$/.test(sense));
  for (const head of oneWord(word))
    for (const tail of oneWord(next)) {
      const shown = head + tail;
      if (shown.length >= 6 && !joins.some((j) => j.shown === shown))
        joins.push({ term: stem(lemmaOf(shown)), shown, next });
    }
  if (joinCache.size > 20_000) joinCache.clear();
  joinCache.set(key, joins);
  return joins;
}
const joinCache = new Map<string, Join[]>();

function cjkVariants(word: string): Variant[] {
  const group: QueryGroup = { text: word, surface: word, variants: [], weight: 1 };
  addVariant(group, word, 'exact');
  for (const sub of subWords(word)) if (!isStopWord(sub)) addVariant(group, sub, 'exact', 0.8);
  // A lone character's glosses scatter over its many senses (调: adjust, tune, transfer…).
  const scale = Array.from(word).length === 1 ? 0.6 : 1;
  // CC-CEDICT lists a word's senses commonest first; later senses (老板 "boss" after the brand
  // "Robam", 笑话 "mock" after "joke") are likelier one the user did not mean.
  translate(word).forEach((sense, i) => {
    const weight = scale * Math.max(GLOSS_FLOOR, 1 - GLOSS_DECAY * i);
    // Each word of the sense as itself, so the score panel names the word a skill holds ("time"
    // of 过期 "exceed time limit"), not the whole sense.
    const english = sense.split(' ');
    for (const gloss of english)
      for (const term of expansionTerms(gloss)) addVariant(group, term, 'translation', weight, gloss);
    // Morphology and the domain lexicon beyond a translation; synonyms only of the first senses,
    // since synonyms of a late sense drift.
    for (const gloss of english) {
      for (const der of wordnet(gloss)?.der ?? []) {
        if (!sameStem(gloss, der)) continue;
        for (const term of expansionTerms(der)) addVariant(group, term, 'translation', 0.8 * weight, der);
      }
      for (const other of domainLexicon().get(gloss) ?? [])
        for (const term of expansionTerms(other)) addVariant(group, term, 'translation', 0.8 * weight, other);
    }
    // A sense of several words is a collocation ("sum up", "curriculum vitae"): its WordNet
    // synonyms are other ways to translate the word (总结 → summarize), not a word's neighbours.
    if (english.length > 1 && i < SYNONYM_GLOSSES)
      for (const syn of wordnet(sense)?.syn ?? []) {
        const synWords = expansionTerms(syn);
        for (const term of synWords)
          addVariant(group, term, 'translation', (0.8 * weight) / Math.max(1, synWords.length - 0.5), syn);
      }
    // A sense is said by one English word of several (图片 "picture", a skill says "image";
    // 地铁 "subway", a skill says "metro"): the first two senses of a word of two or more
    // characters bring their WordNet synonyms, at a synonym's weight.
    else if (i < SYNONYM_GLOSSES && scale === 1)
      for (const syn of wordnet(sense)?.syn ?? []) {
        const synWords = expansionTerms(syn);
        for (const term of synWords)
          addVariant(group, term, 'synonym', weight / Math.max(1, synWords.length - 0.5), syn);
      }
  });
  return group.variants;
}

/**
 * A word's index terms: itself, its WordNet and lexicon neighbours, its embedding neighbours, and
 * a collocation it starts. A request word (`weak`) says how the user asks, not what: it matches
 * as itself and in a collocation ("pull request"), never through its senses or neighbours
 * ("step through" is no "finished", "next" no "close", "keep" no "proceed").
 */
function latinVariants(
  word: string,
  lemma: string,
  term: string,
  next: string,
  weak = false,
  third = '',
): Variant[] {
  const group: QueryGroup = { text: term, surface: word, variants: [], weight: 1 };
  addVariant(group, term, 'exact', 1, word);
  // A name with a version or size ("sha256", "python3") also means its name ("SHA-256", "Python").
  const named = /^([a-z]{3,})\d+$/.exec(word);
  if (named) addVariant(group, stem(named[1]), 'exact', 0.8, named[1]);
  if (/\d/.test(word)) return group.variants;
  if (!weak) {
    expandLemma(group, lemma);
    // Static word embeddings (data/similar.tsv) bridge what WordNet does not link: bakery ≈ shop.
    const similar = similarWords(word);
    for (const { word: other, cosine } of similar.length > 0 ? similar : similarWords(lemma)) {
      const scale = Math.min(1, (cosine - SIMILAR_FROM) / (SIMILAR_FULL - SIMILAR_FROM));
      if (scale <= 0) continue;
      for (const term of expansionTerms(other)) addVariant(group, term, 'similar', scale, other);
    }
  }
  if (next) {
    // A collocation the data knows ("credit card", "pull request") speaks for its first word.
    expandLemma(group, `${lemma} ${lemmaOf(next)}`);
    // Product names written as one word match the user's two ("Google Tasks" → googletasks).
    addVariant(group, stem(word + next), 'exact', 1, `${word}${next}`);
    // And a name of three ("People Data Labs" → peopledatalabs).
    if (third) addVariant(group, stem(word + next + third), 'exact', 1, `${word}${next}${third}`);
  }
  return group.variants;
}
