import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import type { RoutingIndex } from './lexicon';
import { route } from './router';
import { catalogOf, defaultConfig, indexOf, readyContext } from './testHelpers';

const md = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\nDo the thing.\n`;

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
