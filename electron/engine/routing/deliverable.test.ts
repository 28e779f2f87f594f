import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import { analyzeQuery } from './analyze';
import { deliverableWords } from './instruction';
import type { RoutingIndex } from './lexicon';
import { route } from './router';
import { catalogOf, defaultConfig, indexOf, readyContext, skillMd } from './testHelpers';

// "write a catchy tune … for our radio ad" asks for a tune: the radio ad is what it is for. A
// skill that writes ad copy matches the words the request is about, not what it asks to be made.
const SKILLS: Record<string, string> = {
  'song-writer/SKILL.md': skillMd('song-writer', 'Compose songs with lyrics and melody.'),
  'ad-copy/SKILL.md': skillMd('ad-copy', 'Write ad copy for radio, print and social campaigns.'),
  'weather/SKILL.md': skillMd('weather', 'Current weather and forecasts for any city.'),
  'sage/SKILL.md': skillMd('sage', 'Manage Sage accounting: customers, invoices, VAT returns.'),
  'invoice-maker/SKILL.md': skillMd('invoice-maker', 'Make sales invoices as PDF files for clients.'),
};

let index: RoutingIndex;
beforeAll(async () => {
  const dir = tempDir('skilldeck-deliverable-');
  writeTree(dir, SKILLS);
  index = indexOf(await catalogOf(dir));
});
const routeOf = (query: string) => route(index, query, defaultConfig(), readyContext());
const weightOf = (query: string, surface: string) =>
  analyzeQuery(query).find((g) => g.surface === surface)?.weight;

describe('what a request asks to be made', () => {
  it('is read from "make a", "write an", "give me a" at its start', () => {
    expect([...deliverableWords('make a plan for migrating our tests')]).toEqual(['plan']);
    expect([...deliverableWords('write a catchy tune with a chorus')]).toEqual(['catchy', 'tune']);
    expect([...deliverableWords('can you give me a separate checkout of the repo')]).toEqual([
      'separate',
      'checkout',
    ]);
    // Not what something is made into ("make my dev server reachable"), nor a later clause.
    expect(deliverableWords('make my localhost dev server reachable').size).toBe(0);
    expect(deliverableWords('the tests fail, so write a fix').size).toBe(0);
  });

  it('is read in Chinese after the measure word and what modifies it with 的', () => {
    expect([...deliverableWords('帮我画一个用户注册的流程图，导出成文件')].join('')).toBe('流程图');
    expect([...deliverableWords('给我的咖啡店写一首30秒的广告歌')].join('')).toBe('广告歌');
    expect(deliverableWords('流程图里的用户注册要改一下').size).toBe(0);
  });

  it('weighs more than what the request is about', () => {
    expect(weightOf('make a plan for migrating our tests from jest to vitest', 'plan')).toBeGreaterThan(
      weightOf('make a plan for migrating our tests from jest to vitest', 'jest')!,
    );
    expect(weightOf('migrating our tests from jest to vitest needs a plan', 'plan')).toBe(
      weightOf('migrating our tests from jest to vitest needs a plan', 'jest'),
    );
  });

  it('routes to the skill that makes it, and not also to the one that knows its topic', () => {
    const r = routeOf('write a catchy tune with a chorus about summer for our radio ad');
    expect(r.plan.primary).toBe('song-writer');
    const adCopy = r.candidates.find((c) => c.name === 'ad-copy');
    expect(adCopy?.status).toBe('below_threshold');
    expect(routeOf('write ad copy for our summer radio spot').plan.primary).toBe('ad-copy');
  });

  it('leaves a named product in charge', () => {
    // "Sage" is typed as a name: the user wants the invoice made there, not any invoice.
    expect(weightOf('Create a sales invoice in Sage for Harper & Co', 'sales')).toBe(1);
    expect(routeOf('Create a sales invoice in Sage for Harper & Co').plan.primary).toBe('sage');
  });

  it('is not read from pasted material, which asks for nothing', () => {
    // A paste after "…:" that happens to open with "write a …" is the text to work on.
    const paste = 'write a tune for the jingle contest, deadline friday';
    expect(analyzeQuery(paste).find((g) => g.surface === 'tune')?.weight).toBe(1.5);
    expect(analyzeQuery(paste, false).find((g) => g.surface === 'tune')?.weight).toBe(1);
  });
});
