/**
 * Text processing shared by the router's indexes (DESIGN §3): case folding, WordNet's
 * irregular lemmas and a light English stemmer, stop words, CJK words (zh.ts segments them
 * like jieba), and the negated spans of a description. Per-word results are memoized: index
 * builds see the same words thousands of times and keystrokes the same words again.
 */
import { englishWords, erNouns, irregular, traditionalChars, verbalForms, wordnet } from './lexdata';
import { segment, subWords } from './zh';

const CJK_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** A cheap pre-test for CJK_RE: any code point in the CJK, kana or Hangul blocks. */
const MAYBE_CJK_RE = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff]/;
/** A run of CJK characters, as the segmenter takes them. */
export const CJK_RUN_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

const STOP_WORDS = new Set(
  (
    'a an the and or but if then than so of to in on at by for from with without into onto over under ' +
    'about as is are was were be been being am do does did doing have has had having i me my we our you ' +
    'your he she it its they them their this that these those there here what which who whom whose when ' +
    'where why how can could would should will shall may might must please pls just also too very some ' +
    'any all each every no not nor only own same such both few more most other up down out off again ' +
    'further once let lets get got give gave make made need needs want wants like help thanks thank hi ' +
    'hello hey ok okay yes use using used user users tool tools one two something thing things ' +
    // What is left of a contraction once its apostrophe splits it (you've, don't, isn't).
    've ll re don isn aren wasn weren doesn didn hasn haven hadn wouldn couldn shouldn mustn'
  ).split(' '),
);

const CJK_STOP_WORDS = new Set(
  (
    '一下 这个 那个 这些 那些 一个 一些 帮我 帮忙 我要 我们 你们 他们 可以 什么 怎么 如何 为什么 能否 ' +
    '能不能 给我 我把 然后 还有 以及 或者 因为 所以 但是 应该 需要 请问 一起 现在 已经 就是 还是 不要 使用 用户 ' +
    '多少 等于 哪些 哪个 什么 是不是 有没有 怎么样 这样 那样 的话 帮助 一点 一张 一份 一个 出来 一样 ' +
    // Single-character function words: particles, pronouns, measure words, light verbs.
    '的 了 吗 呢 吧 啊 把 被 给 让 我 你 他 她 它 们 这 那 会 能 要 想 在 是 有 和 与 或 也 都 就 还 又 很 ' +
    '太 更 最 一 个 些 下 上 先 别 帮 请 将 对 从 到 为 以 及 其 之 者 所 而 但 并 如 若 等 张 份 段 篇 条 次 ' +
    '用 查 看 找 做 弄 搞 干 里 中 内 前 后 ' +
    // Resultative complements and aspect particles (整理成, 拆成, 看着): grammar, not meaning.
    '成 得 着'
  ).split(' '),
);

/** True for a word that says nothing about the task (English or CJK stop word). */
export const isStopWord = (word: string): boolean => STOP_WORDS.has(word) || CJK_STOP_WORDS.has(word);

/** WordNet's lemma of an irregular form (`ran` → `run`), else the word itself. */
export const lemmaOf = (word: string): string => irregular().get(word) ?? word;

/** Index terms of the Latin words of a text: lemmatized, stemmed, stop words dropped. */
export function wordTerms(text: string): string[] {
  const out: string[] = [];
  eachRun(fold(text), (word, cjk) => {
    if (cjk || (word.length < 2 && !/\d/.test(word)) || STOP_WORDS.has(word)) return;
    out.push(termOf(word));
  });
  return out;
}

/**
 * Lower-case, NFKC-normalized (full-width letters, compatibility forms folded), traditional Chinese
 * characters as their simplified forms (們 → 们): the segmenter's and CC-CEDICT's tables are keyed
 * by simplified words, and a zh-TW user's request means what a zh-CN one does.
 */
export function fold(text: string): string {
  const folded = text.normalize('NFKC').toLowerCase();
  if (!MAYBE_CJK_RE.test(folded)) return folded;
  const map = traditionalChars();
  return folded.replace(TRADITIONAL_CANDIDATE_RE, (c) => map.get(c) ?? c);
}

/**
 * A skill name as one word a user can type after `$` or `/`: folded, blanks and underscores
 * as hyphens ("Braintree Automation" → braintree-automation, capsule_crm → capsule-crm).
 */
export function nameSlug(name: string): string {
  return fold(name)
    .trim()
    .replace(/[\s_]+/g, '-');
}

/** Han characters, the only ones the traditional → simplified map holds. */
const TRADITIONAL_CANDIDATE_RE = /\p{Script=Han}/gu;

/** True when the text contains CJK characters (then phrases match as substrings). */
export const hasCjk = (text: string): boolean => CJK_RE.test(text);

/**
 * Derivational suffixes and what they may come from (`[suffix, replacements, shortest base]`),
 * tried in order. A rule applies only when the word it yields is a WordNet lemma, so
 * extraction → extract, translator → translate, analysis → analyze, deployment → deploy and
 * British organise → organize meet their base, while mission, million or motor stay apart
 * ("miss" and "mill" are too short a base, and WordNet has no "mot").
 */
const DERIVATIONS: [string, string[], number][] = [
  ['ically', ['ic'], 5],
  ['ization', ['ize'], 5],
  ['isation', ['ize'], 5],
  ['ification', ['ify'], 4],
  ['ation', ['ate', 'e', ''], 5],
  ['ition', ['e', ''], 5],
  ['ption', ['be'], 5],
  ['ssion', ['ss', 't'], 5],
  ['sion', ['de', 'd', 't'], 5],
  ['ion', ['', 'e'], 5],
  ['ysis', ['yze'], 5],
  ['ator', ['ate'], 5],
  ['ment', [''], 3],
  ['ness', [''], 4],
  ['ance', ['', 'e'], 5],
  ['ence', ['', 'e'], 5],
  ['able', ['', 'e'], 4],
  ['ible', ['', 'e'], 4],
  ['ive', ['', 'e'], 5],
  ['ful', [''], 4],
  ['ise', ['ize'], 5],
  ['yse', ['yze'], 5],
  ['ally', ['al'], 4],
  ['or', [''], 4],
];

/** Suffixes whose base is unambiguous: no dictionary check (optimization → optimize, not in WordNet). */
const REGULAR = new Set(['ically', 'ization', 'isation']);

/** The WordNet lemma a derived word comes from (extraction → extract), or null. */
function derivedBase(word: string): string | null {
  if (word.length < 6) return null;
  for (const [suffix, replacements, shortest] of DERIVATIONS) {
    if (!word.endsWith(suffix)) continue;
    const stemPart = word.slice(0, -suffix.length);
    // The longest suffix that fits decides: "nation" is not "n" + ation, so not "nat" + ion either.
    if (stemPart.length < 3) return null;
    for (const replacement of replacements) {
      const base = stemPart + replacement;
      if (base.length >= shortest && (REGULAR.has(suffix) || wordnet(base) !== null)) return base;
    }
  }
  return null;
}

/**
 * A light suffix stemmer, enough that invoice/invoices, download/downloading and
 * organize/organizing/organized meet, with the derivations WordNet confirms (derivedBase);
 * not Porter, because routing runs per keystroke and Porter's conflations (organ/organize)
 * cost more than they find.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  // A word WordNet knows as a lemma ending in s (news, series, analytics) is not a plural.
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w) && wordnet(w) === null) w = w.slice(0, -1);
  const base = derivedBase(w);
  if (base !== null) return stem(base);
  let cut = false;
  if (w.endsWith('ing') && w.length >= 6) [w, cut] = [w.slice(0, -3), true];
  // speed, need and proceed end in -ed without being past tenses; agreed and freed are.
  else if (w.endsWith('eed'))
    w = wordnet(w) === null && wordnet(w.slice(0, -1)) !== null ? w.slice(0, -1) : w;
  else if (w.endsWith('ed') && w.length >= 5) [w, cut] = [w.slice(0, -2), true];
  else if (w.endsWith('ation') && w.length >= 7) w = w.slice(0, -3);
  // An agent noun loses its -er (converter → convert); flower, number and corner are no flow,
  // numb or corn (data/er-nouns.txt: WordNet's nouns in -er it does not derive from their stem).
  // A word WordNet lacks keeps it unless what is left is a word (linter → lint, bundler → bundle):
  // Clawker is a name, no clawk.
  else if (w.endsWith('er') && w.length >= 6 && !erNouns().has(w) && agentNoun(w))
    [w, cut] = [w.slice(0, -2), true];
  // An adverb WordNet knows loses its -ly (weekly → week); a name does not (Raisely, Feedly).
  else if (w.endsWith('ly') && w.length >= 6 && englishWords().has(w)) w = w.slice(0, -2);
  // running → run, but keep ss/ll (class, full), a word with its double end (staffing → staff)
  // and a word that only ends so (Cutt.ly is no cut).
  if (
    cut &&
    w.length >= 4 &&
    w[w.length - 1] === w[w.length - 2] &&
    !/[slz]/.test(w[w.length - 1]) &&
    !englishWords().has(w)
  )
    w = w.slice(0, -1);
  // coding → code, hoping → hope, using → use: a suffix took the e of a word WordNet knows
  // (a consonant-vowel-consonant end, as Porter's *o, so singing stays sing, not singe).
  else if (cut && (w.length <= 2 || SHORT_SYLLABLE_RE.test(w)) && wordnet(`${w}e`) !== null) w = `${w}e`;
  // A final e goes (manage and managing meet at manag), unless without it the word is another
  // word: plane is not plan, code not cod, care not car.
  if (w.endsWith('e') && w.length >= 4 && !(wordnet(w) !== null && wordnet(w.slice(0, -1)) !== null))
    w = w.slice(0, -1);
  return w;
}

/**
 * A word in -er that WordNet has, or whose stem is a word or an -ize verb (linter, bundler,
 * tokenizer; not Clawker).
 */
function agentNoun(word: string): boolean {
  const words = englishWords();
  if (words.has(word)) return true;
  const base = word.slice(0, -2);
  return (
    base.endsWith('iz') ||
    words.has(base) ||
    words.has(`${base}e`) ||
    (base.at(-1) === base.at(-2) && words.has(base.slice(0, -1)))
  );
}

/** A consonant-vowel-consonant end whose last consonant is not w, x or y (Porter's *o). */
const SHORT_SYLLABLE_RE = /[^aeiou][aeiouy][^aeiouwxy]$/;

/** A letter-or-digit run; runs that mix CJK and Latin ("3斤", "A股") are split after. */
const RUN_RE = /[\p{L}\p{N}]+/gu;

/**
 * Calls `each(run, cjk)` for every word run of folded text, CJK and Latin apart. Cheaper than
 * one regex with a per-character lookahead: most runs hold no CJK at all.
 */
export function eachRun(folded: string, each: (run: string, cjk: boolean) => void): void {
  for (const match of folded.matchAll(RUN_RE)) {
    const run = match[0];
    if (!MAYBE_CJK_RE.test(run) || !CJK_RE.test(run)) {
      each(run, false);
      continue;
    }
    let last = 0;
    for (const cjk of run.matchAll(CJK_RUN_RE)) {
      if ((cjk.index ?? 0) > last) each(run.slice(last, cjk.index), false);
      each(cjk[0], true);
      last = (cjk.index ?? 0) + cjk[0].length;
    }
    if (last < run.length) each(run.slice(last), false);
  }
}

/** Word → index term (lemma, then stem), memoized: index builds see the same words thousands of times. */
const termCache = new Map<string, string>();
export function termOf(word: string): string {
  let term = termCache.get(word);
  if (term === undefined) {
    if (termCache.size > 100_000) termCache.clear();
    term = stem(lemmaOf(word));
    termCache.set(word, term);
  }
  return term;
}

/** CJK run → its words and the dictionary words inside them, memoized like termOf. */
const cjkCache = new Map<string, string[]>();
function cjkTerms(run: string): string[] {
  let out = cjkCache.get(run);
  if (out === undefined) {
    out = [];
    for (const word of segment(run)) {
      if (CJK_STOP_WORDS.has(word)) continue;
      out.push(word);
      for (const sub of subWords(word)) if (!CJK_STOP_WORDS.has(sub)) out.push(sub);
    }
    if (cjkCache.size > 50_000) cjkCache.clear();
    cjkCache.set(run, out);
  }
  return out;
}

/** Index terms of a text, each Latin word through `latin` (termOf or a name's nameTermOf). */
function indexTerms(text: string, latin: (word: string) => string): string[] {
  const out: string[] = [];
  eachRun(fold(text), (run, cjk) => {
    if (cjk) {
      for (const term of cjkTerms(run)) out.push(term);
      return;
    }
    if ((run.length < 2 && !/\d/.test(run)) || STOP_WORDS.has(run)) return;
    out.push(latin(run));
  });
  return out;
}

/**
 * Index terms of a text: lemmatized, stemmed non-stop words, and CJK words (segmented like
 * jieba, with the dictionary words inside long ones, so 实时行情 also indexes 实时 and 行情).
 */
export const terms = (text: string): string[] => indexTerms(text, termOf);

/** A name's word: an irregular verb or adjective form stays itself (see nameTerms). */
const nameTermOf = (word: string): string => (verbalForms().has(word) ? stem(word) : termOf(word));

/**
 * Index terms of a skill's name: as terms(), but an irregular verb or adjective form stays itself
 * (felt-automation is named by Felt, not by "feel"; better-auth not by "good"), so "I felt sick"
 * or "a good idea" does not name them. A noun's plural still meets its singular (big-data).
 */
export const nameTerms = (text: string): string[] => indexTerms(text, nameTermOf);

/** Determiners a phrase may swap ("save a note" ~ "save the note", "review my code" ~ "review this code"). */
const DETERMINERS = new Set('a an the this that these those my your our his her its their some'.split(' '));

/**
 * Phrase keys for trigger matching: stemmed words minus determiners (other stop words stay:
 * "to csv" must not match every query that mentions csv), plus, for CJK, each character.
 */
export function phraseWords(text: string): string[] {
  const out: string[] = [];
  eachRun(fold(text), (run, cjk) => {
    if (cjk) out.push(...Array.from(run));
    else if (!DETERMINERS.has(run)) out.push(stem(run));
  });
  return out;
}

/** A compiled trigger or anti-trigger phrase. */
export interface Phrase {
  /** As written in the skill. */
  text: string;
  /** Folded, whitespace-collapsed: CJK phrases match as substrings of the folded query. */
  folded: string;
  /** Folded without whitespace (what a CJK phrase is looked up as). */
  compact: string;
  cjk: boolean;
  /** Stemmed words (non-CJK phrases match as a contiguous word sequence). */
  words: string[];
}

/** Compile a phrase; null for one that has no content word (e.g. "the"). */
export function compilePhrase(text: string): Phrase | null {
  const folded = fold(text).replace(/\s+/g, ' ').trim();
  if (!folded) return null;
  const cjk = hasCjk(folded);
  const words = cjk ? [] : phraseWords(folded);
  if (!cjk && words.length === 0) return null;
  return { text, folded, compact: folded.replace(/\s+/g, ''), cjk, words };
}

/** A query prepared once for every phrase test. */
export interface PreparedQuery {
  folded: string;
  /** Folded with whitespace removed, for CJK substring tests ("发 票" still hits). */
  compact: string;
  words: string[];
}

export function prepareQuery(query: string): PreparedQuery {
  const folded = fold(query);
  return { folded, compact: folded.replace(/\s+/g, ''), words: phraseWords(folded) };
}

/**
 * Does the phrase occur in the query (case-insensitive, word-aligned for non-CJK)? `gap`
 * allows that many extra words between consecutive phrase words: anti-triggers use it so
 * "merge pdf" also excludes "merge these three PDFs".
 */
export function phraseHits(phrase: Phrase, query: PreparedQuery, gap = 0): boolean {
  if (phrase.cjk) return query.compact.includes(phrase.compact);
  const { words } = query;
  const first = phrase.words[0];
  for (let i = words.indexOf(first); i !== -1; i = words.indexOf(first, i + 1)) {
    let at = i;
    let ok = true;
    for (let j = 1; j < phrase.words.length && ok; j++) {
      const limit = Math.min(words.length - 1, at + 1 + gap);
      ok = false;
      for (let k = at + 1; k <= limit; k++) {
        if (words[k] === phrase.words[j]) {
          at = k;
          ok = true;
          break;
        }
      }
    }
    if (ok) return true;
  }
  return false;
}

/** Share of a phrase's words found anywhere in the query (the "trigger overlap" of DESIGN §3). */
export function phraseOverlap(phrase: Phrase, query: PreparedQuery): number {
  if (phrase.cjk || phrase.words.length < 2) return 0;
  let found = 0;
  for (const word of phrase.words) if (query.words.includes(word)) found++;
  return found / phrase.words.length;
}

const NEGATION_RE =
  /\b(?:not (?:for|to be used for|meant for|intended for|suitable for)|do not use (?:it )?(?:for|to|when)|don't use (?:it )?(?:for|to|when)|never (?:for|use (?:it )?for)|except for|excluding)\b([^.;:!?()\n]*)|(?:不适用于|不用于|不要用于|不适合|不能用于|不负责|并非用于|不处理)([^。；;！!？?\n]*)/giu;

/**
 * Terms of the spans a description excludes ("Not for reviewing essays, books or films",
 * "不适用于…"): DESIGN §3, a description that excludes the query's intent lowers intent_match.
 */
export function negatedTerms(text: string): Set<string> {
  const out = new Set<string>();
  for (const match of fold(text).matchAll(NEGATION_RE)) {
    for (const term of terms(match[1] ?? match[2] ?? '')) out.add(term);
  }
  return out;
}
