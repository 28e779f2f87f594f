import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import { analyzeQuery } from './analyze';
import { describeEvidence } from './evidence';
import { similarWords } from './lexdata';
import type { RoutingIndex } from './lexicon';
import { explainMatch, matchQuery } from './match';
import { route } from './router';
import { catalogOf, defaultConfig, indexOf, readyContext } from './testHelpers';

const md = (name: string, description: string, body = 'Do the thing.') =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\n${body}\n`;

let index: RoutingIndex;
beforeAll(async () => {
  const dir = tempDir('skilldeck-similar-');
  writeTree(dir, {
    'shop-finder/SKILL.md': md('shop-finder', 'Finds a shop or restaurant nearby and its opening hours.'),
    'unit-converter/SKILL.md': md('unit-converter', 'Converts lengths, weights and temperatures.'),
    // Neighbours of "bakery" only in the body: an embedding neighbour must not reach body text.
    'recipe-box/SKILL.md': md('recipe-box', 'Keeps recipes.', 'Good for a shop, a deli or a restaurant.'),
  });
  index = indexOf(await catalogOf(dir));
});

describe('similar words by static word embedding (issue 10 §3, round 3)', () => {
  it('lists a word’s GloVe neighbours with their cosine, nearest first', () => {
    const near = similarWords('bakery');
    expect(near.map((n) => n.word)).toEqual(expect.arrayContaining(['restaurant', 'shop']));
    expect(near.every((n) => n.cosine >= 0.6 && n.cosine <= 1)).toBe(true);
    expect(near.map((n) => n.cosine)).toEqual([...near.map((n) => n.cosine)].sort((a, b) => b - a));
    expect(similarWords('no-such-word-here')).toEqual([]);
  });

  it('adds neighbours below WordNet: a synonym outweighs an equally close neighbour', () => {
    const [group] = analyzeQuery('bakery');
    const shop = group.variants.find((v) => v.term === 'shop');
    expect(shop).toMatchObject({ via: 'similar', shown: 'shop' });
    expect(shop!.weight).toBeLessThan(0.6);
    // Numbers get no neighbours.
    expect(analyzeQuery('2024')[0].variants.every((v) => v.via === 'exact')).toBe(true);
  });

  it('matches a skill’s own words, never its body, and names the evidence', () => {
    const match = matchQuery(index, analyzeQuery('bakery'));
    const byName = (name: string) => index.docs.find((d) => d.name === name)!;
    expect(match.score(byName('shop-finder').index)).toBeGreaterThan(0);
    expect(match.score(byName('recipe-box').index)).toBe(0);
    const [evidence] = explainMatch(index, byName('shop-finder'), match);
    expect(evidence).toMatchObject({ word: 'bakery', term: 'shop', via: 'similar' });
    const result = route(index, 'is the bakery open', defaultConfig(), readyContext());
    const candidate = result.candidates.find((c) => c.name === 'shop-finder')!;
    expect(candidate.evidence).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'similar', query: 'bakery' })]),
    );
    expect(describeEvidence(candidate.evidence!)).toMatch(/similar word bakery ≈ (shop|restaurant)/);
  });
});
