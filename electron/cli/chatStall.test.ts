import { describe, expect, it } from 'vitest';
import { ChatTurn } from '../../shared/contract';
import { cliWithModel } from '../testing/cliBundle';

// A model server that takes the request and then sends nothing: the HTTP client's own limits are
// five minutes, so without a stall limit of our own `skilldeck chat` sat there for ten (the skill's
// model, then the fallback asking the same silent model again) before printing anything.
const cli = cliWithModel('skilldeck-cli-stall-', {
  'tone-check/SKILL.md':
    '---\nname: tone-check\ndescription: Checks the tone of a paragraph against the house voice.\n---\n# Tone check\n\nJudge the text.\n',
});

async function chat(message: string): Promise<{ code: number | null; turn: ChatTurn; ms: number }> {
  const started = Date.now();
  const { code, stdout } = await cli.run(['chat', message, '--json', '--approve'], {
    SKILLDECK_MODEL_STALL_SECONDS: '1',
  });
  return { code, turn: ChatTurn.parse(JSON.parse(stdout)), ms: Date.now() - started };
}

const chatRequests = () => cli.server.requests.filter((r) => r.path.endsWith('/chat/completions')).length;

describe('skilldeck chat with a model that goes silent', () => {
  it('stops waiting at the stall limit, says so, and the fallback does not ask it again', async () => {
    const before = chatRequests();
    // The first piece of the answer would come after 60 s.
    cli.server.enqueue({ text: ['The tone is warm.'], delayMs: 60_000 });
    const { code, turn, ms } = await chat('check the tone of this paragraph: we are thrilled to have you');
    expect(turn.route.plan.primary).toBe('tone-check');
    expect(code).toBe(1);
    expect(turn.status).toBe('failure');
    expect(turn.steps).toContainEqual(
      expect.objectContaining({ kind: 'model', status: 'timeout', error: 'The model sent nothing for 1 s.' }),
    );
    expect(turn.error).toBe('The model did not answer: it sent nothing for 1 s.');
    // One request: plain chat's fallback would have waited on the same silent model again.
    expect(chatRequests() - before).toBe(1);
    expect(ms).toBeLessThan(20_000);
  }, 40_000);

  it('ends plain chat the same way when no skill was chosen', async () => {
    const before = chatRequests();
    cli.server.enqueue({ text: ['Hello there.'], delayMs: 60_000 });
    const { code, turn } = await chat('hello, how are you today?');
    expect(turn.route.plan.primary).toBeNull();
    expect(code).toBe(1);
    expect(turn.steps).toContainEqual(expect.objectContaining({ kind: 'model', status: 'timeout' }));
    expect(turn.answer + (turn.error ?? '')).toContain('it sent nothing for 1 s');
    expect(chatRequests() - before).toBe(1);
  }, 40_000);
});

describe('skilldeck chat with a server that sends keep-alive comments while its model works', () => {
  it('waits past the stall limit while the pings come, and answers', async () => {
    // OpenRouter sends ': OPENROUTER PROCESSING' while a model thinks; here 2.4 s of pings at a 1 s limit.
    cli.server.enqueue({ text: 'Hello there.', keepAlive: { everyMs: 400, count: 6 } });
    const { code, turn } = await chat('hello, how are you today?');
    expect(turn).toMatchObject({ status: 'success', answer: 'Hello there.' });
    expect(code).toBe(0);
  }, 40_000);

  it('stops at five times the limit of pings alone, and says it sent only those', async () => {
    const before = chatRequests();
    cli.server.enqueue({ text: 'Too late.', keepAlive: { everyMs: 300, count: 60 } });
    const { code, turn, ms } = await chat('hello, how are you today?');
    expect(code).toBe(1);
    expect(turn.error).toBe('The model did not answer: it sent nothing but keep-alive comments for 5 s.');
    expect(chatRequests() - before).toBe(1);
    expect(ms).toBeLessThan(15_000);
  }, 40_000);
});

describe('skilldeck chat with a server that leaves the connection open after [DONE]', () => {
  it('takes [DONE] as the end: the whole answer, its usage, and the tools round after it', async () => {
    // The stream was read until the server closed it, which such a proxy never does: the answer
    // had arrived whole, and the turn still ended at the stall limit as "broke off".
    const run = (message: string) =>
      cli.run(['chat', message, '--json', '--approve'], { SKILLDECK_MODEL_STALL_SECONDS: '20' });
    cli.server.enqueue({
      text: 'Hello there.',
      usage: { prompt_tokens: 30, completion_tokens: 3 },
      openAfterDone: true,
    });
    const plain = await run('hello, how are you today?');
    expect(ChatTurn.parse(JSON.parse(plain.stdout))).toMatchObject({
      status: 'success',
      answer: 'Hello there.',
      usage: { input_tokens: 30, output_tokens: 3 },
    });
    expect(plain.code).toBe(0);
    cli.server.enqueue(
      { toolCalls: [{ name: 'list_skill_files', arguments: {} }], openAfterDone: true },
      { text: 'Warm.', openAfterDone: true },
    );
    const skill = await run('check the tone of this paragraph: we are thrilled to have you');
    const turn = ChatTurn.parse(JSON.parse(skill.stdout));
    expect(turn).toMatchObject({ status: 'success', answer: 'Warm.', skill: 'tone-check' });
    expect(turn.steps.filter((s) => s.kind === 'tool').map((s) => s.status)).toEqual(['success']);
  }, 90_000);
});
