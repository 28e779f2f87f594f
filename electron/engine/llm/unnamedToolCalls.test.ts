import { describe, expect, it } from 'vitest';
import { docHelperChat, STYLE } from '../../testing/docHelperChat';

// Tool calls streamed without a name, or with the name after an empty one: the real engine, the
// real provider code and the scripted OpenAI-compatible server on loopback.
const chat = docHelperChat();
const { send, toolResults } = chat;

const UNNAMED =
  'The tool call had no name. Call one of these tools by its name: list_skill_files, read_skill_file, run_skill_script, run_skill.';

describe('a tool call streamed without a name', () => {
  it('is answered with an error beside a named call of the same reply, in order', async () => {
    chat.server().enqueue(
      {
        text: 'Checking.',
        toolCalls: [
          { name: '', arguments: { path: 'references/style.md' } },
          { name: 'read_skill_file', arguments: { path: 'references/style.md' } },
        ],
      },
      { text: 'Sentence case.' },
    );
    const turn = await send('$doc-helper which heading style do we use?');
    expect(turn).toMatchObject({ status: 'success', answer: 'Checking.\n\nSentence case.' });
    expect(toolResults(1)).toEqual([{ status: 'error', error: UNNAMED }, STYLE]);
    const calls = chat
      .server()
      .chatRequests()[1]
      .messages.find((m) => m.role === 'assistant')!.tool_calls!;
    expect(calls.map((c) => [c.id, c.function.name])).toEqual([
      ['call_0_0', 'unnamed_tool'],
      ['call_0_1', 'read_skill_file'],
    ]);
  });

  it('from a server that ignores stream: true, is answered the same way', async () => {
    chat
      .server()
      .enqueue(
        { text: 'Checking.', toolCalls: [{ name: '', arguments: {} }], ignoreStream: true },
        { text: 'Sentence case.' },
      );
    const turn = await send('$doc-helper which heading style do we use?');
    expect(turn).toMatchObject({ status: 'success', answer: 'Checking.\n\nSentence case.' });
    expect(toolResults(1)).toEqual([{ status: 'error', error: UNNAMED }]);
  });

  it('in plain chat, names the one tool plain chat offers', async () => {
    chat
      .server()
      .enqueue({ toolCalls: [{ name: '', arguments: { skill: 'doc-helper' } }] }, { text: 'Recovered.' });
    const turn = await send('could you write a guide for my project?');
    expect(turn).toMatchObject({ status: 'success', answer: 'Recovered.' });
    expect(turn.steps.filter((s) => s.kind === 'tool').map((s) => [s.status, s.error])).toEqual([
      ['error', 'The tool call had no name. Call one of these tools by its name: run_skill.'],
    ]);
  });
});

describe('a tool call whose name comes after an empty one (some vLLM models)', () => {
  it('runs under that name with all its arguments', async () => {
    chat.server().enqueue(
      {
        toolCalls: [{ name: 'read_skill_file', arguments: { path: 'references/style.md' }, nameLate: true }],
      },
      { text: 'Sentence case.' },
    );
    const turn = await send('$doc-helper which heading style do we use?');
    expect(turn).toMatchObject({ status: 'success', answer: 'Sentence case.' });
    expect(toolResults(1)).toEqual([STYLE]);
  });
});
