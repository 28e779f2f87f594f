import { describe, expect, it } from 'vitest';
import { ChatTurn } from '../../shared/contract';
import { cliWithModel } from '../testing/cliBundle';
import type { ScriptedReply } from '../testing/modelServer';

// A rate limit that arrives as an error event in the middle of a 200 stream (OpenRouter sends
// `{"error":{"code":429,…,"metadata":{…}}}` once its upstream refuses; Anthropic-style proxies send
// `{"error":{"type":"rate_limit_error",…}}`) is the same answer as an HTTP 429: the turn says it was
// rate-limited and how long to wait, keeps what streamed, and no fallback asks the server again.
const cli = cliWithModel('skilldeck-cli-ratelimit-', {
  'tone-check/SKILL.md':
    '---\nname: tone-check\ndescription: Checks the tone of a paragraph against the house voice.\n---\n# Tone check\n\nJudge the text.\n',
});

async function chat(message: string): Promise<{ code: number | null; turn: ChatTurn }> {
  const { code, stdout } = await cli.run(['chat', message, '--json', '--approve']);
  const turn = ChatTurn.parse(JSON.parse(stdout));
  return { code, turn };
}

/** These replies, in order, for this test's requests (a failing test leaves none queued for the next). */
function script(...replies: ScriptedReply[]): void {
  const left = [...replies];
  cli.server.setHandler(() => left.shift() ?? { error: { status: 500, message: 'No reply scripted.' } });
}

const chatRequests = () => cli.server.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
const SKILL_ASK = 'check the tone of this paragraph: we are thrilled to have you';

describe('skilldeck chat when the stream itself says it is rate-limited', () => {
  it('OpenRouter’s code 429 with its reset time: the wait is said, the text kept, nothing asked again', async () => {
    const before = chatRequests();
    const reset = Date.now() + 40_000;
    script(
      {
        text: ['The tone ', 'is warm ', 'and'],
        errorAfter: {
          chunks: 2,
          message: 'Rate limit exceeded: free-models-per-min.',
          type: null,
          code: 429,
          metadata: {
            headers: {
              'X-RateLimit-Limit': '20',
              'X-RateLimit-Remaining': '0',
              'X-RateLimit-Reset': String(reset),
            },
          },
        },
      },
      { text: 'An answer the rate limit forbade asking for.' },
    );
    const { code, turn } = await chat(SKILL_ASK);
    expect(turn.route.plan.primary).toBe('tone-check');
    expect(code).toBe(1);
    expect(turn.status).toBe('failure');
    expect(turn.answer).toBe('The tone is warm ');
    expect(turn.error).toMatch(
      new RegExp(
        `^The model's response broke off: 429: ${cli.server.baseURL} is rate-limiting requests \\(Rate limit exceeded: free-models-per-min\\.\\); it asks to wait (3[5-9]|40) s before retrying\\. What streamed before the break is kept\\.$`,
      ),
    );
    expect(chatRequests() - before).toBe(1);
    const models = turn.steps.filter((s) => s.kind === 'model');
    expect(models).toHaveLength(1);
    // The moment the server may be asked again, for the window's Retry countdown.
    expect(Date.parse(models[0].retry_at ?? '') - reset).toBeGreaterThan(-2000);
    expect(Date.parse(models[0].retry_at ?? '') - reset).toBeLessThan(2000);
    // The §7 numbers; the broken-off stream sent no usage, which `reported: false` says.
    expect(turn.usage).toEqual({ input_tokens: 0, output_tokens: 0, reported: false });
  }, 40_000);

  it('an Anthropic-style rate_limit_error before any text ends plain chat the same way', async () => {
    const before = chatRequests();
    script(
      {
        text: ['Hello'],
        errorAfter: {
          chunks: -1,
          message: 'Number of requests has exceeded your rate limit.',
          type: 'rate_limit_error',
        },
      },
      { text: 'Unreached.' },
    );
    const { code, turn } = await chat('hello, how are you today?');
    expect(turn.route.plan.primary).toBeNull();
    expect(code).toBe(1);
    expect(turn.answer).toBe('');
    expect(turn.error).toBe(
      `The model did not answer: 429: ${cli.server.baseURL} is rate-limiting requests (Number of requests has exceeded your rate limit.); wait and retry.`,
    );
    // No wait was said, so none is held to.
    expect(turn.steps.find((s) => s.kind === 'model')?.retry_at).toBeUndefined();
    expect(chatRequests() - before).toBe(1);
  }, 40_000);

  it('the error on a chunk with finish_reason "error" (OpenRouter) is not taken for a finished answer', async () => {
    const before = chatRequests();
    script(
      {
        text: ['The tone ', 'is'],
        errorAfter: {
          chunks: 1,
          message: 'Provider returned error',
          type: null,
          code: 429,
          metadata: {
            raw: 'model is temporarily rate-limited upstream. Please retry shortly.',
            provider_name: 'Venice',
          },
          onChunk: true,
        },
      },
      { text: 'Unreached.' },
    );
    const { code, turn } = await chat(SKILL_ASK);
    expect(code).toBe(1);
    expect(turn.status).toBe('failure');
    expect(turn.answer).toBe('The tone ');
    expect(turn.error).toContain(
      `429: ${cli.server.baseURL} is rate-limiting requests (Provider returned error: model is temporarily rate-limited upstream. Please retry shortly.); wait and retry.`,
    );
    expect(chatRequests() - before).toBe(1);
  }, 40_000);

  it('a 200 whose JSON body is a rate-limit error (some gateways) is the 429 it stands for', async () => {
    const before = chatRequests();
    const reset = Date.now() + 90_000;
    const error = {
      message: 'Rate limit exceeded',
      code: 429,
      metadata: { headers: { 'X-RateLimit-Reset': reset } },
    };
    script({ body: JSON.stringify({ error }) }, { text: 'Unreached.' });
    const { code, turn } = await chat(SKILL_ASK);
    expect(code).toBe(1);
    expect(turn.error).toMatch(
      new RegExp(
        `^The model did not answer: 429: ${cli.server.baseURL} is rate-limiting requests \\(Rate limit exceeded\\); it asks to wait (8[5-9]|90) s before retrying\\.$`,
      ),
    );
    expect(chatRequests() - before).toBe(1);
  }, 40_000);

  it('another error event mid-stream still lets plain chat try once more, as before', async () => {
    const before = chatRequests();
    script(
      { text: ['The tone ', 'is'], errorAfter: { chunks: 1, message: 'Tool parsing failed.' } },
      { text: 'A plain answer.' },
    );
    const { turn } = await chat(SKILL_ASK);
    expect(turn.answer).toContain('A plain answer.');
    expect(chatRequests() - before).toBe(2);
  }, 40_000);
});

describe('skilldeck chat when a 429 asks to wait longer than any date', () => {
  it('says it is rate-limited, holds no Retry back, and the fallback does not ask again', async () => {
    // The wait made a date no Date can hold: the turn read "failed: Invalid time value", the 429
    // lost, and the fallback asked the rate-limited server again.
    const before = chatRequests();
    script(
      { error: { status: 429, message: 'Quota exceeded.', retryAfter: '99999999999999999999' } },
      { text: 'An answer the rate limit forbade asking for.' },
    );
    const { code, turn } = await chat(SKILL_ASK);
    expect(code).toBe(1);
    expect(turn.error).toBe(
      `The model did not answer: 429: ${cli.server.baseURL} is rate-limiting requests (Quota exceeded.); it asks to wait more than a year before retrying.`,
    );
    const failed = turn.steps.filter((s) => s.kind === 'model' && s.status === 'error');
    expect(failed).toHaveLength(1);
    expect(failed[0].retry_at).toBeUndefined();
    expect(chatRequests() - before).toBe(1);
  }, 40_000);
});
