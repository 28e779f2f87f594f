import { describe, expect, it } from 'vitest';
import { ChatTurn } from '../../shared/contract';
import { cliWithModel } from '../testing/cliBundle';
import type { ScriptedReply } from '../testing/modelServer';

// An overloaded server (Anthropic's 529 overloaded_error, also relayed by OpenAI-compatible
// gateways; OpenAI's 503 "The server is overloaded or not ready yet.") asks to be left alone for a
// while, as a 429 does. Before, it read as an ordinary failure: "529: the server … failed
// (Overloaded)" or "The model call … failed: Overloaded", and the generic fallback asked the same
// overloaded server again at once.
const cli = cliWithModel('skilldeck-cli-overloaded-', {
  'tone-check/SKILL.md':
    '---\nname: tone-check\ndescription: Checks the tone of a paragraph against the house voice.\n---\n# Tone check\n\nJudge the text.\n',
});

function script(...replies: ScriptedReply[]): void {
  const left = [...replies];
  cli.server.setHandler(() => left.shift() ?? { error: { status: 500, message: 'No reply scripted.' } });
}

const chatRequests = () => cli.server.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
const SKILL_ASK = 'check the tone of this paragraph: we are thrilled to have you';
const ANSWER_AFTER = { text: 'An answer the overloaded server should not have been asked for.' };

describe('skilldeck chat when the server says it is overloaded', () => {
  it.each<[string, ScriptedReply, RegExp]>([
    [
      'an HTTP 529 with Anthropic’s overloaded_error',
      { error: { status: 529, message: 'Overloaded', type: 'overloaded_error' } },
      /^The model did not answer: 529: the server at \S+ is overloaded; wait a little and retry\.$/,
    ],
    [
      'OpenAI’s 503 "overloaded or not ready yet"',
      { error: { status: 503, message: 'The server is overloaded or not ready yet.', type: 'server_error' } },
      /^The model did not answer: 503: the server at \S+ is overloaded \(The server is overloaded or not ready yet\.\); wait a little and retry\.$/,
    ],
    [
      'an overloaded_error event mid-stream',
      {
        text: ['The tone ', 'is warm ', 'and'],
        errorAfter: { chunks: 2, message: 'Overloaded', type: 'overloaded_error' },
      },
      /^The model's response broke off: the server at \S+ is overloaded; wait a little and retry\. What streamed before the break is kept\.$/,
    ],
    [
      'a 200 whose JSON body is an overloaded_error',
      { body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' },
      /^The model did not answer: 529: the server at \S+ is overloaded; wait a little and retry\.$/,
    ],
  ])(
    '%s: said as overloaded, and the fallback does not ask again at once',
    async (_case, reply, error) => {
      const before = chatRequests();
      script(reply, ANSWER_AFTER);
      const { code, stdout } = await cli.run(['chat', SKILL_ASK, '--json', '--approve']);
      const turn = ChatTurn.parse(JSON.parse(stdout));
      expect(turn.route.plan.primary).toBe('tone-check');
      expect(code).toBe(1);
      expect(turn.status).toBe('failure');
      expect(turn.error).toMatch(error);
      expect(chatRequests() - before).toBe(1);
    },
    60_000,
  );

  it('a plain 500 still lets the fallback answer (nothing asked it to wait)', async () => {
    const before = chatRequests();
    script({ error: { status: 500, message: 'upstream died' } }, { text: 'The tone is warm.' });
    const { code, stdout } = await cli.run(['chat', SKILL_ASK, '--json', '--approve']);
    const turn = ChatTurn.parse(JSON.parse(stdout));
    expect(code).toBe(0);
    expect(turn.answer).toBe('The tone is warm.');
    expect(chatRequests() - before).toBe(2);
  }, 60_000);
});

describe('skilldeck chat, text mode, when the model does not answer', () => {
  it('prints no answer on stdout (not a lone line break): the why goes to stderr with the status', async () => {
    script(
      { error: { status: 500, message: 'upstream died' } },
      { error: { status: 500, message: 'upstream died' } },
    );
    const { code, stdout, stderr } = await cli.run(['chat', 'hello there, how are you today?']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/✗ error · route: no skill/);
    expect(stderr).toMatch(/upstream died/);
  });
});
