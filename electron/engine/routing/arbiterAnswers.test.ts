import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type ScriptedReply } from '../../testing/modelServer';
import { tempDir, writeTree } from '../../testing/fixtures';
import { ModelRouting } from './model';
import { route } from './router';
import { defaultConfig, indexOf, modelRouting, readyContext, skillMd } from './testHelpers';

// The arbiter's question answered in every form real models answer it (found driving
// `route --json` against an outside scripted server): the right candidate or none comes out,
// never a wrong skill, and the route says the arbiter was asked and what it cost.
const QUERY = 'sunshine showers by city, cloud cover';
let server: ModelServer;
let reply: ScriptedReply = { text: 'none' };
const skillsDir = tempDir('skilldeck-arbiter-skills-');

beforeAll(async () => {
  server = await startModelServer({ handler: () => reply });
  writeTree(skillsDir, {
    'city-forecast/SKILL.md': skillMd('city-forecast', 'Forecast sunshine and showers by city.'),
    'sky-report/SKILL.md': skillMd('sky-report', 'Sky report: sunshine, showers, cloud cover.'),
    // A name that is the start of another's: "sky-report" must never pick it.
    'sky/SKILL.md': skillMd('sky', 'Sky photos: sunshine, showers, cloud pictures.'),
    'ledger/SKILL.md': skillMd('ledger', 'Balances ledgers and accounts.'),
  });
});
afterAll(() => server.close());

const routing = () =>
  modelRouting({ OPENAI_BASE_URL: server.baseURL, SKILLDECK_MODEL: 'm', SKILLDECK_ARBITER: '1' }, [
    skillsDir,
  ]);

const ask = async (text: string) => {
  reply = { text, usage: { prompt_tokens: 120, completion_tokens: 7 } };
  return (await routing()).svc.commitWithModel(QUERY, 'api');
};

describe('an arbiter answer that names a candidate', () => {
  it.each([
    ['sky-report', 'sky-report'],
    ['`sky-report`', 'sky-report'],
    ['"sky-report"', 'sky-report'],
    ['SKY-REPORT.', 'sky-report'],
    ['sky', 'sky'],
    ['{"skill": "sky-report"}', 'sky-report'],
    ['```json\n{"skill": "sky-report"}\n```', 'sky-report'],
    ['2. sky-report', 'sky-report'],
    ['sky-report - it covers cloud cover and showers.', 'sky-report'],
    ['sky-report\n\nIt is the only one about cloud cover.', 'sky-report'],
    ['The best fit is sky-report.', 'sky-report'],
    ['I would pick **sky-report** because it mentions cloud cover.', 'sky-report'],
    ['<think>city-forecast or sky-report? Cloud cover: sky-report.</think>\n\nsky-report', 'sky-report'],
  ])('%j chooses %s, and the route records the ask and its cost', async (text, name) => {
    const event = await ask(text);
    expect(event.plan.primary).toBe(name);
    expect(event.model?.arbiter).toMatchObject({
      choice: name,
      outcome: 'chose',
      tokens_in: 120,
      tokens_out: 7,
    });
  });

  it('by its number in the list chooses that candidate', async () => {
    const event = await ask('2');
    const listed = JSON.stringify(server.chatRequests().at(-1)!.messages);
    const second = /2\. ([a-z-]+):/.exec(listed)![1];
    expect(event.plan.primary).toBe(second);
    expect(event.model?.arbiter).toMatchObject({ choice: second, outcome: 'chose' });
  });
});

describe('an arbiter answer that says none', () => {
  it.each(['None', 'none of them', 'None of these skills fit.', 'null', '{"skill": null}'])(
    '%j goes to plain chat, recorded as the arbiter’s',
    async (text) => {
      const event = await ask(text);
      expect(event.plan.primary).toBeNull();
      expect(event.model?.arbiter).toMatchObject({ choice: null, outcome: 'none', tokens_in: 120 });
    },
  );
});

describe('an arbiter answer that is unclear', () => {
  it.each([
    'weather-bot',
    '',
    'asdf qwe zzz',
    'Not sky-report.',
    'city-forecast or sky-report, hard to say.',
    '<think>cloud cover… maybe sky-report',
  ])('%j leaves the local route standing, and says the arbiter was asked', async (text) => {
    const local = (await routing()).svc.preview(QUERY);
    const event = await ask(text);
    expect(event.plan.primary).toBe(local.plan.primary);
    expect(event.model?.arbiter).toMatchObject({ choice: null, outcome: 'unclear', tokens_in: 120 });
    expect(event.plan.routing_reason).toContain('the local result stands');
  });
});

describe('an arbiter that fails', () => {
  it('with an error is recorded as asked, and the local route stands', async () => {
    reply = { error: { status: 500, message: 'boom' } };
    const { svc } = await routing();
    const event = await svc.commitWithModel(QUERY, 'api');
    expect(event.plan.primary).toBe(svc.preview(QUERY).plan.primary);
    expect(event.model?.arbiter).toMatchObject({ choice: null, outcome: 'failed' });
    expect(event.model!.arbiter!.note).toContain('boom');
  });

  it('too slow is recorded with its wait', async () => {
    reply = { text: 'sky-report', delayMs: 2000 };
    const { home, models, catalog } = await routing();
    const index = indexOf(catalog);
    const local = route(index, QUERY, defaultConfig(), readyContext());
    const arbiter = await new ModelRouting({ home, model: models }).arbitrate(local, index, 300);
    expect(arbiter).toMatchObject({ choice: null, outcome: 'failed', note: 'no answer within 300 ms' });
    expect(arbiter!.latency_ms).toBeGreaterThanOrEqual(290);
  });
});
