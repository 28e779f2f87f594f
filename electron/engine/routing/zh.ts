import { zhLogTotal, zhTable } from './lexdata';

/** Words longer than this are not looked up (jieba's dictionary words are short). */
const MAX_WORD = 6;

const freqOf = (word: string): number | undefined => {
  const fields = zhTable().get(word);
  return fields ? Number(fields[0]) || 1 : undefined;
};

/**
 * Chinese word segmentation, jieba's algorithm (DESIGN §3: CJK tokenized properly): a DAG of
 * every dictionary word starting at each character, then the path of highest total log
 * frequency (dynamic programming from the end). Unknown characters stand alone. jieba's own
 * dictionary supplies the frequencies (data/zh.tsv); @node-rs/jieba was measured at 770 ms to
 * load its dictionary and ships a native binary per platform, so the router carries the
 * algorithm and a trimmed table instead.
 */
export function segment(run: string): string[] {
  const chars = Array.from(run);
  const n = chars.length;
  if (n <= 1) return n === 1 ? [run] : [];
  const logTotal = zhLogTotal();
  const best = new Float64Array(n + 1);
  const next = new Int32Array(n + 1);
  best[n] = 0;
  for (let i = n - 1; i >= 0; i--) {
    // A lone character unknown to the dictionary still costs like a rare word.
    best[i] = Math.log(freqOf(chars[i]) ?? 1) - logTotal + best[i + 1];
    next[i] = i + 1;
    let word = chars[i];
    for (let j = i + 1; j < n && j - i < MAX_WORD; j++) {
      word += chars[j];
      const count = freqOf(word);
      if (count === undefined) continue;
      const score = Math.log(count) - logTotal + best[j + 1];
      if (score > best[i]) {
        best[i] = score;
        next[i] = j + 1;
      }
    }
  }
  const words: string[] = [];
  for (let i = 0; i < n; i = next[i]) words.push(chars.slice(i, next[i]).join(''));
  return words;
}

/**
 * The dictionary words inside a longer word (jieba's search mode): 实时行情 → 实时, 行情, so a
 * skill that says 行情 is found by a query that says 实时行情 and the other way round.
 */
export function subWords(word: string): string[] {
  const chars = Array.from(word);
  if (chars.length <= 2) return [];
  const out: string[] = [];
  for (const size of [2, 3]) {
    if (size >= chars.length) break;
    for (let i = 0; i + size <= chars.length; i++) {
      const sub = chars.slice(i, i + size).join('');
      if (freqOf(sub) !== undefined && !out.includes(sub)) out.push(sub);
    }
  }
  return out;
}

/**
 * CC-CEDICT's senses of a Chinese word in its order, each as the English keywords it adds
 * (地铁 → "underground railway", "subway", "train"; 天气 → "weather"), or its parts' senses when
 * it has none.
 */
export function translate(word: string): string[] {
  const direct = glossOf(word);
  if (direct.length > 0) return direct;
  const out: string[] = [];
  for (const sub of subWords(word))
    for (const sense of glossOf(sub)) if (!out.includes(sense)) out.push(sense);
  return out;
}

function glossOf(word: string): string[] {
  const senses = zhTable().get(word)?.[1];
  return senses ? senses.split(';') : [];
}
