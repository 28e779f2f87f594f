import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChatTurn } from '../../shared/contract';
import { cliWithModel } from '../testing/cliBundle';
import { requestText } from '../testing/modelServer';

// A server that sends no usage (many local servers ignore stream_options.include_usage): the turn's
// usage read 0 in / 0 out, as if the answer had cost nothing. The counts stay numbers (DESIGN §7),
// and `reported: false` says they leave out what the server did not report.
const cli = cliWithModel('skilldeck-cli-usage-', {});

async function usageOf(...replies: Parameters<typeof cli.server.enqueue>) {
  cli.server.enqueue(...replies);
  const { code, stdout, stderr } = await cli.run(['chat', 'hello there', '--json']);
  expect(code).toBe(0);
  return { usage: (JSON.parse(stdout) as { usage: Record<string, unknown> }).usage, stderr };
}

describe('skilldeck chat --json usage', () => {
  it('a server that sends none: the counts are 0 and reported is false', async () => {
    const { usage } = await usageOf({ text: 'Hi!', noUsage: true });
    expect(usage).toEqual({ input_tokens: 0, output_tokens: 0, reported: false });
  }, 60_000);

  it('a server that sends it: the counts, and no reported flag', async () => {
    const { usage } = await usageOf({ text: 'Hi!', usage: { prompt_tokens: 12, completion_tokens: 3 } });
    expect(usage).toEqual({ input_tokens: 12, output_tokens: 3 });
  }, 60_000);

  it('a stream that broke off after text, before the chunk that carries usage: reported is false', async () => {
    const asked = cli.server.chatRequests().length;
    cli.server.enqueue({ text: 'A long answer that the connection drops in the middle of.', dropAfter: 3 });
    const { stdout } = await cli.run(['chat', 'hello there', '--json']);
    const turn = JSON.parse(stdout) as { status: string; answer: string; usage: Record<string, unknown> };
    expect(cli.server.chatRequests()).toHaveLength(asked + 1);
    expect(turn.status).toBe('error');
    expect(turn.answer).not.toBe('');
    expect(turn.usage).toEqual({ input_tokens: 0, output_tokens: 0, reported: false });
  }, 60_000);

  it('the terminal summary says so too', async () => {
    cli.server.enqueue({ text: 'Hi!', noUsage: true });
    const { stderr } = await cli.run(['chat', 'hello there']);
    expect(stderr).toContain('tokens 0 in / 0 out (the server did not report all of them)');
  }, 60_000);

  it('counts no server could mean (negative, fractional, astronomical) are not taken as counts', async () => {
    // They went into the turn as sent: a turn whose usage is no whole number fails its own schema,
    // so the conversation dropped it on reading, and the next turn's model never saw it.
    const home = path.join(cli.root, 'home-absurd-usage');
    const cases = [
      {
        usage: { prompt_tokens: -5, completion_tokens: 1.5 },
        expected: { input_tokens: 0, output_tokens: 2 },
      },
      {
        usage: { prompt_tokens: 1e300, completion_tokens: 7 },
        expected: { input_tokens: 0, output_tokens: 7 },
      },
    ];
    let conversation: string | undefined;
    for (const [i, { usage, expected }] of cases.entries()) {
      cli.server.enqueue({ text: `Answer ${i}.`, usage });
      const { code, stdout } = await cli.run(
        ['chat', `question ${i}`, '--json', ...(conversation ? ['--conversation', conversation] : [])],
        { SKILLDECK_HOME: home },
      );
      expect(code).toBe(0);
      const turn = ChatTurn.parse(JSON.parse(stdout));
      expect(turn.usage).toEqual({ ...expected, reported: false });
      expect(turn.route.result).toMatchObject({ tokens_in: expected.input_tokens });
      conversation = turn.conversation_id;
    }
    cli.server.enqueue({ text: 'Third.' });
    const { code } = await cli.run(['chat', 'question 2', '--json', '--conversation', conversation ?? ''], {
      SKILLDECK_HOME: home,
    });
    expect(code).toBe(0);
    const history = requestText(cli.server.chatRequests().at(-1)!);
    for (const said of ['question 0', 'Answer 0.', 'question 1', 'Answer 1.'])
      expect(history).toContain(said);
  }, 90_000);
});
