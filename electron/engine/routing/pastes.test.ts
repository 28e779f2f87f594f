import { beforeAll, describe, expect, it } from 'vitest';
import { RouteResult } from '../../../shared/contract';
import { tempDir, writeTree } from '../../testing/fixtures';
import { analyzeQuery } from './analyze';
import { pastes } from './bench';
import type { RoutingIndex } from './lexicon';
import { withBrands } from './match';
import { route } from './router';
import { withSpelling } from './spelling';
import { catalogOf, defaultConfig, indexOf, readyContext, skillMd } from './testHelpers';

// Users paste keys, blobs, logs and code into the message box, and the live preview routes every
// keystroke of it. A 20,000-character base64 paste took 81 s to route: CamelCase runs counted by
// the cube, two regexes that rescanned a long word from each of its letters, and 54 stemmed
// spellings per letter of a word no skill uses.
let index: RoutingIndex;
beforeAll(async () => {
  const dir = tempDir('skilldeck-pastes-');
  writeTree(dir, {
    'weather/SKILL.md': skillMd('weather', 'Current weather and forecasts for any city.'),
    'highlevel-automation/SKILL.md': skillMd(
      'highlevel-automation',
      'Automate GoHighLevel contacts and tags.',
    ),
    'log-triage/SKILL.md': skillMd(
      'log-triage',
      'Triage error logs: group failures by cause and count them, supercalifragilisticexpialidocious.',
    ),
  });
  index = indexOf(await catalogOf(dir));
});

const variantsOf = (query: string) => withSpelling(index, analyzeQuery(query)).flatMap((g) => g.variants);

describe('pasted material', () => {
  it('is routed whole, one of each kind up to the 20,000-character limit', () => {
    for (const [kind, text] of Object.entries(pastes())) {
      expect(text.length, kind).toBeLessThanOrEqual(20_000);
      const result = RouteResult.parse(route(index, text, defaultConfig(), readyContext()));
      // A key or a blob asks for nothing.
      if (kind === 'one_token_20k' || kind === 'base64_20k') expect(result.plan.primary, kind).toBeNull();
      expect(result.plan.routing_reason, kind).not.toBe('');
    }
  });

  it('routes a long unbroken token in time linear in its length (the CLI takes any length)', () => {
    // A word-glued-by-hyphen pattern was retried from every letter of a long word: 37 s for
    // `route` with a 120,000-letter token, and seconds per keystroke for a 20,000-letter paste.
    const started = performance.now();
    const result = route(index, 'x'.repeat(100_000), defaultConfig(), readyContext());
    expect(result.plan.primary).toBeNull();
    expect(performance.now() - started).toBeLessThan(10_000);
  }, 120_000);

  it('reads no word longer than 30 letters as a typo: a typo of a shorter one still is', () => {
    const spelled = (query: string) =>
      variantsOf(query)
        .filter((v) => v.via === 'spelling')
        .map((v) => v.shown);
    expect(spelled('wheather')).toEqual(['weather']);
    // log-triage's 34-letter word, one letter off: past the cap, as every pasted token is.
    expect(spelled('supercalifragilisticexpialidocous')).toEqual([]);
  });

  it("reads a CamelCase product's parts, not a token's hundreds of them", () => {
    const glued = (query: string) =>
      withBrands(index, analyzeQuery(query)).flatMap((g) => g.variants.map((v) => v.term));
    expect(glued('tag them in GoHighLevel')).toContain('highlevel');
    // The same parts inside a token of eight: a key or a blob, not a name.
    expect(glued('token AbCdGoHighLevelEfGhIj')).not.toContain('highlevel');
  });
});

describe('typos in a long message', () => {
  const spelled = (query: string) =>
    withSpelling(index, analyzeQuery(query))
      .flatMap((g) => g.variants)
      .filter((v) => v.via === 'spelling')
      .map((v) => v.shown);
  // Eight words no skill uses and no dictionary knows: identifiers of a pasted file.
  const identifiers = 'zorvaklin temquabri stomunpex dalrhokif vaklintem quabristo munpexdal rhokifzor';

  it('reads the first eight unknown words of a message as possible typos', () => {
    expect(spelled(`${identifiers.split(' ').slice(0, 7).join(' ')} wheather`)).toEqual(['weather']);
  });

  it('reads no more: a pasted file holds hundreds of identifiers, none of them typos', () => {
    expect(spelled(`${identifiers} wheather`)).toEqual([]);
    // The typo still counts as the user's own word.
    expect(spelled(`wheather ${identifiers}`)).toEqual(['weather']);
  });
});
