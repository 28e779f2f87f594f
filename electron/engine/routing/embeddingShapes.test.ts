import { afterEach, describe, expect, it } from 'vitest';
import type { EmbeddingShape } from '../../testing/modelServer';
import { startModelServer, type ModelServer } from '../../testing/modelServer';
import { tempDir, writeTree } from '../../testing/fixtures';
import { EngineEvents } from '../events';
import { SettingsStore } from '../settings';
import { SkillCatalog } from '../skills';
import { RoutingService } from './service';
import { modelRouting, skillMd } from './testHelpers';

// `/v1/embeddings` as servers other than OpenAI answer it (found by driving `route --json`
// against a scripted server written apart from ours): a send's recall never crashes, never
// counts a vector that cannot be compared, and never waits longer than its timeout.
const QUERY = 'sunshine showers by city, cloud cover';
const servers: ModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const skillsDir = tempDir('skilldeck-embed-skills-');
writeTree(skillsDir, {
  'city-forecast/SKILL.md': skillMd('city-forecast', 'Forecast sunshine and showers by city.'),
  'sky-report/SKILL.md': skillMd('sky-report', 'Sky report: sunshine, showers, cloud cover.'),
  'ledger/SKILL.md': skillMd('ledger', 'Balances ledgers and accounts.'),
});

async function serve(embeddings?: EmbeddingShape, embeddingDimensions?: number) {
  const server = await startModelServer({ embeddings, embeddingDimensions });
  servers.push(server);
  return server;
}

/** A routing service over the three skills, its model the scripted server's. */
async function routing(server: ModelServer, home = tempDir('skilldeck-embed-home-')) {
  const env = { OPENAI_BASE_URL: server.baseURL, SKILLDECK_MODEL: 'm', SKILLDECK_EMBEDDING_MODEL: 'e' };
  return (await modelRouting(env, [skillsDir], home)).svc;
}

/** The local route of QUERY, without any model: what a failed recall must leave standing. */
async function localRoute() {
  const home = tempDir('skilldeck-embed-local-');
  const catalog = await SkillCatalog.open({
    home,
    userHome: home,
    workspace: home,
    extraDirs: [skillsDir],
    noDefaultPaths: true,
  });
  const events = new EngineEvents();
  const settings = SettingsStore.at(home);
  const svc = new RoutingService({ home, catalog, settings, events, env: {} });
  return svc.preview(QUERY);
}

const scores = (event: { candidates: Array<{ name: string; score: number }> }) =>
  Object.fromEntries(event.candidates.map((c) => [c.name, c.score]));

describe('an embeddings answer that cannot be used', () => {
  it.each(['empty', 'fewer', 'mixedDimensions'] as const)(
    'with data %s leaves the local route standing, and the send does not fail',
    async (data) => {
      const svc = await routing(await serve({ data }));
      const event = await svc.commitWithModel(QUERY, 'api');
      expect(event.model?.embedding).toBeUndefined();
      expect(scores(event)).toEqual(scores(await localRoute()));
    },
  );

  it('with vectors of another length than the cached ones fetches the skills again', async () => {
    const home = tempDir('skilldeck-embed-home-');
    await (await routing(await serve(undefined, 64), home)).commitWithModel(QUERY, 'api');
    // The same model name, now answering 32 numbers (a swapped model, a new `dimensions`).
    const resized = await serve(undefined, 32);
    const event = await (await routing(resized, home)).commitWithModel(QUERY, 'api');
    const fresh = await (await routing(resized)).commitWithModel(QUERY, 'api');
    expect(event.model?.embedding?.similarity).toEqual(fresh.model?.embedding?.similarity);
  });
});

describe('an embeddings answer in another order', () => {
  it('is read by each vector’s index', async () => {
    const inOrder = await (await routing(await serve())).commitWithModel(QUERY, 'api');
    const reversed = await (await routing(await serve({ data: 'reversed' }))).commitWithModel(QUERY, 'api');
    expect(reversed.model?.embedding?.similarity).toEqual(inOrder.model?.embedding?.similarity);
  });
});

describe('a slow embeddings endpoint', () => {
  it('holds a send no longer than the recall timeout, and the local route stands', async () => {
    const svc = await routing(await serve({ delayMs: 6000 }));
    const started = performance.now();
    const event = await svc.commitWithModel(QUERY, 'api');
    expect(performance.now() - started).toBeLessThan(3000);
    expect(event.model?.embedding).toBeUndefined();
    expect(scores(event)).toEqual(scores(await localRoute()));
  }, 20_000);
});

describe('a query whose vector shares nothing with any skill’s', () => {
  it('recalls no skill by embedding (a cosine of 0 is no match)', async () => {
    const event = await (await routing(await serve())).commitWithModel('?! …', 'api');
    expect(event.candidates.filter((c) => c.evidence?.some((e) => e.kind === 'embedding'))).toEqual([]);
    expect(scores(event)).toEqual({});
  });
});
