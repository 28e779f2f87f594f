import crypto from 'node:crypto';
import type { DevQuery } from './devset';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * The query with one typo, as a hurried user makes it: in its longest word of six letters or
 * more, one letter dropped, added, changed or swapped with the next, chosen by a hash of the
 * query (reproducible, no seed to pick). Null when the query has no such word (Chinese, short words).
 */
export function withTypo(query: string): string | null {
  const words = query.match(/\b[a-zA-Z]{6,}\b/g);
  if (!words) return null;
  const word = words.reduce((a, b) => (b.length > a.length ? b : a));
  const h = crypto.createHash('sha1').update(query).digest();
  const at = 1 + (h[0] % (word.length - 2));
  const letter = LETTERS[h[2] % 26];
  const other = word[at] === letter ? LETTERS[(h[2] + 1) % 26] : letter;
  const typed = [
    word.slice(0, at) + word.slice(at + 1),
    word.slice(0, at) + letter + word.slice(at),
    word.slice(0, at) + other + word.slice(at + 1),
    word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2),
  ][h[1] % 4];
  return query.replace(word, typed);
}

/** The English queries that have a word to mistype, mistyped; labels unchanged. */
export function typoQueries(queries: readonly DevQuery[]): DevQuery[] {
  return queries.flatMap((q) => {
    const typed = q.tags.includes('zh') ? null : withTypo(q.query);
    return typed && typed !== q.query ? [{ ...q, query: typed }] : [];
  });
}
