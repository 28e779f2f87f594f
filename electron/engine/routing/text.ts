/**
 * Text processing shared by the router's indexes (DESIGN §3): case folding, a light English
 * stemmer, stop words, CJK character bigrams, and the negated spans of a description.
 * Everything here runs per keystroke, so it avoids allocation-heavy APIs (Intl.Segmenter
 * measured far slower than bigrams and finds `发票` no better).
 */

/** A run of CJK ideographs, kana or Hangul; or a run of other letters and digits. */
const TOKEN_RE =
  /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)|([\p{L}\p{N}]+)/gu;
const CJK_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

const STOP_WORDS = new Set(
  (
    'a an the and or but if then than so of to in on at by for from with without into onto over under ' +
    'about as is are was were be been being am do does did doing have has had having i me my we our you ' +
    'your he she it its they them their this that these those there here what which who whom whose when ' +
    'where why how can could would should will shall may might must please pls just also too very some ' +
    'any all each every no not nor only own same such both few more most other up down out off again ' +
    'further once let lets get got give gave make made need needs want wants like help thanks thank hi ' +
    'hello hey ok okay yes use using used user users skill skills tool tools one two something thing things'
  ).split(' '),
);

const CJK_STOP_WORDS = new Set(
  (
    '一下 这个 那个 这些 那些 一个 一些 帮我 帮忙 我要 我们 你们 他们 可以 什么 怎么 如何 为什么 能否 ' +
    '能不能 给我 我把 然后 还有 以及 或者 因为 所以 但是 应该 需要 请问 一起 现在 已经 就是 还是 不要 使用 用户 ' +
    '多少 等于 哪些 哪个 什么 是不是 有没有 怎么样 这样 那样 的话 帮助'
  ).split(' '),
);
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/** A unit of query meaning: one stemmed word, or one CJK word as the bigrams the index holds. */
export interface QueryUnit {
  text: string;
  /** Index terms that must all be present for the unit to count as covered. */
  parts: string[];
}

/**
 * The query as units of meaning for intent_match: English words, and CJK words found by
 * `Intl.Segmenter` (dictionary-based), so chatty filler like 帮我/一下 and cross-word
 * bigrams like 的发 do not dilute "发票". Single CJK characters are skipped: they are
 * mostly particles, and the index cannot tell them apart.
 */
export function queryUnits(text: string): QueryUnit[] {
  const seen = new Set<string>();
  const out: QueryUnit[] = [];
  const push = (unit: QueryUnit) => {
    if (seen.has(unit.text)) return;
    seen.add(unit.text);
    out.push(unit);
  };
  for (const match of fold(text).matchAll(TOKEN_RE)) {
    if (match[2] !== undefined) {
      const word = match[2];
      if ((word.length < 2 && !/\d/.test(word)) || STOP_WORDS.has(word)) continue;
      const stemmed = stem(word);
      push({ text: stemmed, parts: [stemmed] });
      continue;
    }
    for (const segment of segmenter.segment(match[1])) {
      const word = segment.segment;
      if (word.length < 2 || CJK_STOP_WORDS.has(word)) continue;
      const parts: string[] = [];
      pushCjk(word, parts);
      push({ text: word, parts });
    }
  }
  return out;
}

/** Lower-case, NFKC-normalized (full-width letters, compatibility forms folded). */
export function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** True when the text contains CJK characters (then phrases match as substrings). */
export const hasCjk = (text: string): boolean => CJK_RE.test(text);

/**
 * A light suffix stemmer, enough that invoice/invoices, download/downloading and
 * organize/organizing/organized meet; not Porter, because routing runs per keystroke.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length >= 6) w = w.slice(0, -3);
  else if (w.endsWith('ed') && w.length >= 5) w = w.slice(0, -2);
  else if (w.endsWith('ation') && w.length >= 7) w = w.slice(0, -3);
  else if (w.endsWith('er') && w.length >= 6) w = w.slice(0, -2);
  else if (w.endsWith('ly') && w.length >= 6) w = w.slice(0, -2);
  // running → run, but keep ss/ll (class, full).
  if (w.length >= 4 && w[w.length - 1] === w[w.length - 2] && !/[slz]/.test(w[w.length - 1]))
    w = w.slice(0, -1);
  if (w.endsWith('e') && w.length >= 4) w = w.slice(0, -1);
  return w;
}

/** Index terms of a text: stemmed non-stop words, and CJK character bigrams (a lone character as itself). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const match of fold(text).matchAll(TOKEN_RE)) {
    if (match[1] !== undefined) pushCjk(match[1], out);
    else {
      const word = match[2];
      if (word.length < 2 && !/\d/.test(word)) continue;
      if (STOP_WORDS.has(word)) continue;
      out.push(stem(word));
    }
  }
  return out;
}

function pushCjk(run: string, out: string[]): void {
  const chars = Array.from(run);
  if (chars.length === 1) {
    out.push(chars[0]);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
}

/** Determiners a phrase may swap ("save a note" ~ "save the note", "review my code" ~ "review this code"). */
const DETERMINERS = new Set('a an the this that these those my your our his her its their some'.split(' '));

/**
 * Phrase keys for trigger matching: stemmed words minus determiners (other stop words stay:
 * "to csv" must not match every query that mentions csv), plus, for CJK, each character.
 */
export function phraseWords(text: string): string[] {
  const out: string[] = [];
  for (const match of fold(text).matchAll(TOKEN_RE)) {
    if (match[1] !== undefined) out.push(...Array.from(match[1]));
    else if (!DETERMINERS.has(match[2])) out.push(stem(match[2]));
  }
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

/**
 * Splits "instruction: payload" (routing looks at what is asked, not at the text to work on):
 * "Translate this into Chinese: Click Save…", "记一下：周五前提交报销单". Fenced code is payload too.
 */
export function splitInstruction(query: string): { instruction: string; payload: string } {
  const unfenced = query.replace(/```[\s\S]*?(?:```|$)/g, ' ');
  // A colon followed by a space or a new line, or a full-width colon; not "https://", not "9:30".
  const match = /^([^:：\n]{1,80})(?:：|:(?=\s))\s*(\S[\s\S]*)$/u.exec(unfenced.trim());
  if (match && match[1].trim().split(/\s+/).length <= 10) return { instruction: match[1], payload: match[2] };
  return { instruction: unfenced, payload: '' };
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
