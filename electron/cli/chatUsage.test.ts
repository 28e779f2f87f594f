import { describe, expect, it } from 'vitest';
import { cliWithModel } from '../testing/cliBundle';

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
});
