import { VIA_WEIGHT, type QueryGroup, type Variant } from './analyze';
import { englishWords, wordnet } from './lexdata';
import type { RoutingIndex } from './lexicon';
import { lemmaOf } from './text';

/**
 * Typos (the user's own word, mistyped): a word no skill uses and no dictionary knows is read as
 * the skills' words one letter away from it (RoutingIndex.spellingNeighbours).
 */

/** Bases an inflected word may come from: bones → bone, tried → try, mapping → map. */
const INFLECTIONS: [RegExp, string[]][] = [
  [/ies$/, ['y']],
  [/es$/, ['e', '']],
  [/s$/, ['']],
  [/ied$/, ['y']],
  [/ed$/, ['e', '']],
  [/(.)\1ed$/, ['$1']],
  [/ing$/, ['e', '']],
  [/(.)\1ing$/, ['$1']],
];

/** A word WordNet has, however rare (data/words.txt), or one of its expansion table's lemmas. */
const known = (word: string) => englishWords().has(word) || wordnet(word) !== null;

/**
 * True when WordNet knows the word or the word it inflects ("bones", "mapped"): an English word,
 * not a typo, and no product's name.
 */
export function isEnglishWord(word: string): boolean {
  const lemma = lemmaOf(word);
  if (lemma !== word || known(word)) return true;
  return INFLECTIONS.some(([suffix, bases]) =>
    bases.some((base) => suffix.test(word) && known(word.replace(suffix, base))),
  );
}

/** A word shorter than this is not read as a typo: "cat" is one letter from too many words. */
const TYPO_MIN_LETTERS = 5;
/**
 * Nor a word longer than this: no word a skill uses is ("internationalization" is 20), and a
 * pasted token, hash or blob of letters would cost 54 stemmed spellings a letter on every keystroke.
 */
const TYPO_MAX_LETTERS = 30;
/**
 * Words of one message read as typos, in its order: a typed request has a few, while a pasted
 * stack trace or source file has hundreds of words no skill uses (identifiers), each costing 54
 * stemmed spellings a letter: an 8 KB file took over a second to route.
 */
const TYPO_BUDGET = 8;

/**
 * A word no skill uses and no dictionary knows, typed in letters, that is one letter from words
 * skills do use ("wheather", "sumarize", "recieve"): those words stand for it too, below the word
 * itself. Words skills use, English words ("bones" is not a typo of "tones"), request words,
 * names with digits and parts of a hyphenated or underscored name (redis-cache) are left as typed.
 */
export function withSpelling(index: RoutingIndex, groups: QueryGroup[]): QueryGroup[] {
  let budget = TYPO_BUDGET;
  return groups.map((group) => {
    const own = group.variants[0];
    if (
      budget === 0 ||
      !own ||
      own.via !== 'exact' ||
      group.weight < 1 ||
      group.glued ||
      group.surface.length < TYPO_MIN_LETTERS ||
      group.surface.length > TYPO_MAX_LETTERS ||
      !/^[a-z]+$/.test(group.surface) ||
      index.postingsOf(own.term) ||
      isEnglishWord(group.surface)
    )
      return group;
    budget--;
    const near = index.spellingNeighbours(group.surface);
    if (near.length === 0) return group;
    const spelled: Variant[] = near.map(({ term, shown }) => ({
      term,
      weight: VIA_WEIGHT.spelling,
      via: 'spelling',
      shown,
    }));
    return { ...group, variants: [...group.variants, ...spelled] };
  });
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Every word one insertion, deletion, substitution or swap of adjacent letters from `word`. */
export function* editsOf(word: string): Generator<string> {
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    for (const letter of LETTERS) yield head + letter + tail;
    if (i === word.length) break;
    yield head + tail.slice(1);
    if (i + 1 < word.length) yield head + tail[1] + tail[0] + tail.slice(2);
    for (const letter of LETTERS) if (letter !== tail[0]) yield head + letter + tail.slice(1);
  }
}

const isLetter = (c: string | undefined) => c !== undefined && c >= 'a' && c <= 'z';

/**
 * True when one insertion, deletion, substitution or swap of neighbours turns `a` into `b` (an
 * inserted or substituted character a letter, as `editsOf` spells them). One pass from the first
 * difference: `respell` asks this of every question word for each unknown word of a query, and
 * generating `a`'s few hundred edits per pair cost most of a route.
 */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length)
    return (
      (isLetter(b[i]) && a.slice(i + 1) === b.slice(i + 1)) ||
      (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2))
    );
  if (a.length + 1 === b.length) return isLetter(b[i]) && a.slice(i) === b.slice(i + 1);
  return a.slice(i + 1) === b.slice(i);
}

/**
 * The text with each mistyped word read as the word of `vocabulary` it is one letter from
 * ("differvnce" → "difference"), for patterns that read words as typed. Words a dictionary
 * knows stay as they are.
 */
export function respell(text: string, vocabulary: readonly string[]): string {
  return text.replace(/\b[a-z]{5,}\b/giu, (word) => {
    const lower = word.toLowerCase();
    if (vocabulary.includes(lower) || isEnglishWord(lower)) return word;
    return vocabulary.find((v) => oneEditApart(lower, v)) ?? word;
  });
}
