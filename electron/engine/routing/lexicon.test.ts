import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import { analyzeQuery } from './analyze';
import type { RoutingIndex } from './lexicon';
import { explainMatch, matchQuery } from './match';
import { route } from './router';
import { catalogOf, defaultConfig, indexOf, readyContext, skillMd } from './testHelpers';

const md = skillMd;

let index: RoutingIndex;
beforeAll(async () => {
  const dir = tempDir('skilldeck-names-');
  writeTree(dir, {
    'digital-ocean/SKILL.md': md('digital-ocean', 'Creates and resizes cloud servers.'),
    'ocean-facts/SKILL.md': md('ocean-facts', 'Facts about the sea and marine life.'),
  });
  index = indexOf(await catalogOf(dir));
});

describe('a skill name written as one word (issue 10: product names)', () => {
  it('indexes the joined spelling of a two-part name as a name word', () => {
    const doc = index.docs.find((d) => d.name === 'digital-ocean')!;
    expect(doc.tf.get('digitalocean')).toBe(3);
    expect(doc.implicit).toEqual(
      expect.arrayContaining([expect.objectContaining({ origin: 'name', terms: ['digitalocean'] })]),
    );
  });

  it('routes "DigitalOcean" to digital-ocean as "digital ocean" does', () => {
    for (const query of ['spin up a droplet on DigitalOcean', 'spin up a droplet on digital ocean']) {
      const result = route(index, query, defaultConfig(), readyContext());
      expect(result.plan.primary, query).toBe('digital-ocean');
    }
  });
});

describe('a Chinese word’s first glosses are its own words (issue 10 §3)', () => {
  it('is looked up even when common in the catalog, like the English word it stands for', async () => {
    const dir = tempDir('skilldeck-gloss-');
    const files: Record<string, string> = {
      'wall-frames/SKILL.md': md('wall-frames', 'Prints a picture on a frame.'),
    };
    // "picture" in 40 skills' descriptions: a common word, whose other expansions are skipped.
    for (let i = 0; i < 40; i++)
      files[`filler-${i}/SKILL.md`] = md(`filler-${i}`, `Handles picture task number ${i} for gadget ${i}.`);
    writeTree(dir, files);
    const common = indexOf(await catalogOf(dir));
    const match = matchQuery(common, analyzeQuery('图片'));
    const frame = common.docs.find((d) => d.name === 'wall-frames')!;
    expect(match.score(frame.index)).toBeGreaterThan(0);
    expect(explainMatch(common, frame, match)[0]).toMatchObject({ via: 'translation', shown: 'picture' });
  });
});
