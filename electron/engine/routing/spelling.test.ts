import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import type { RoutingIndex } from './lexicon';
import { editsOf, isEnglishWord, oneEditApart, respell } from './spelling';
import { route } from './router';
import { catalogOf, defaultConfig, indexOf, readyContext, skillMd } from './testHelpers';

const md = skillMd;

const SKILLS: Record<string, string> = {
  'weather/SKILL.md': md('weather', 'Current weather and forecasts for any city.'),
  'pdf-summarizer/SKILL.md': md('pdf-summarizer', 'Summarize PDF documents into key points.'),
  'invoice-organizer/SKILL.md': md('invoice-organizer', 'Organize invoices and receipts by vendor.'),
};

let index: RoutingIndex;
beforeAll(async () => {
  const dir = tempDir('skilldeck-spelling-');
  writeTree(dir, SKILLS);
  index = indexOf(await catalogOf(dir));
});
const routeOf = (query: string) => route(index, query, defaultConfig(), readyContext());

describe('spelling neighbours', () => {
  it("are the skills' words one insertion, deletion, substitution or swap of two neighbours away", () => {
    const near = (word: string) => index.spellingNeighbours(word).map((n) => n.shown);
    for (const typo of ['wether', 'weatherr', 'waether', 'wexther'])
      expect(near(typo), typo).toEqual(['weather']);
    expect(near('sumarizes')).toEqual(['summarizer']);
    expect(near('weather')).toEqual([]);
    expect(near('wthr')).toEqual([]);
    expect(near('aewther')).toEqual([]);
  });
});

// A typo is a word no skill uses; the skills' own words one letter from it stand for it, below
// the word itself, and the score panel says so.
describe('a mistyped word', () => {
  it('reaches the skill the word was meant for, and is shown as a spelling', () => {
    const r = routeOf('whats the wheather in Berlin tomorrow');
    expect(r.plan.primary).toBe('weather');
    const weather = r.candidates.find((c) => c.name === 'weather')!;
    expect(weather.evidence).toContainEqual({
      kind: 'spelling',
      query: 'wheather',
      matched: 'weather',
      field: 'name',
    });
    expect(routeOf('sumarize this pdf document').plan.primary).toBe('pdf-summarizer');
    expect(routeOf('organize my invioces by vendor').plan.primary).toBe('invoice-organizer');
  });

  it('weighs below the word spelled right', () => {
    const score = (query: string) => routeOf(query).candidates.find((c) => c.name === 'weather')!.score;
    expect(score('wheather forecast for Berlin')).toBeLessThan(score('weather forecast for Berlin'));
  });

  it('leaves words skills use, short words and request words as typed', () => {
    expect(index.spellingNeighbours('weather')).toEqual([]);
    const evidence = (query: string) =>
      routeOf(query).candidates.flatMap((c) => (c.evidence ?? []).filter((e) => e.kind === 'spelling'));
    expect(evidence('weather forecast for Berlin')).toEqual([]);
    // An English word no skill uses is what the user meant: "bones" is not a typo of "tones".
    expect(evidence('how many bones are in the human body')).toEqual([]);
    // Four letters are one letter from too many words to guess ("city" → "pity").
    expect(evidence('pity the invoices')).toEqual([]);
  });

  it('leaves a hyphenated or underscored name as typed', () => {
    const evidence = (query: string) =>
      routeOf(query).candidates.flatMap((c) => (c.evidence ?? []).filter((e) => e.kind === 'spelling'));
    // "wheather" alone is read as weather; inside a container's or a service's name it is a name.
    expect(evidence('check the wheather logs')).not.toEqual([]);
    expect(evidence('check the wheather-sync logs')).toEqual([]);
    expect(evidence('check the sync_wheather logs')).toEqual([]);
  });
});

describe('an English word', () => {
  it('is one WordNet knows, or an inflection of one', () => {
    for (const word of ['bones', 'weather', 'mapped', 'tried', 'summarizing', 'went', 'boxes'])
      expect(isEnglishWord(word), word).toBe(true);
    for (const word of ['wheather', 'sumarize', 'invioces', 'differvnce'])
      expect(isEnglishWord(word), word).toBe(false);
  });
});

describe('respelling for patterns that read words as typed', () => {
  it('knows one edit from two', () => {
    for (const [a, b] of [
      ['differvnce', 'difference'],
      ['histroy', 'history'],
      ['recomend', 'recommend'],
      ['explains', 'explain'],
    ])
      expect(oneEditApart(a, b), `${a} ${b}`).toBe(true);
    for (const [a, b] of [
      ['history', 'history'],
      ['hsitroy', 'history'],
      ['recomment', 'recommend '],
      ['explainer', 'explain'],
    ])
      expect(oneEditApart(a, b), `${a} ${b}`).toBe(false);
  });

  it('agrees with the edits editsOf spells, for every edit and for words two edits away', () => {
    const byGeneration = (a: string, b: string) => a !== b && [...editsOf(a)].includes(b);
    for (const word of ['history', 'recommend', 'ab', 'aab', 'explain', 'résumé']) {
      const near = [...editsOf(word)];
      const far = near.slice(0, 80).flatMap((w) => [...editsOf(w)].filter((_, i) => i % 7 === 0));
      for (const other of [...near, ...far, `${word}1`, `1${word}`, word.toUpperCase()])
        expect(oneEditApart(word, other), `${word} ${other}`).toBe(byGeneration(word, other));
    }
  });

  it('respells only words no dictionary knows, keeping the rest of the text as typed', () => {
    expect(respell("What's the differvnce, Bob?", ['difference', 'meaning'])).toBe(
      "What's the difference, Bob?",
    );
    expect(respell('the different meanings', ['difference', 'meaning'])).toBe('the different meanings');
    expect(respell('a qwzxyv word', ['difference'])).toBe('a qwzxyv word');
  });
});
