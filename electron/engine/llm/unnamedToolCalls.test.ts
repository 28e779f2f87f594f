import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatTurn } from '../../../shared/contract';
import { envWithoutModel, isolatedEngines, writeTree } from '../../testing/fixtures';
import { messageText, startModelServer, type ModelServer } from '../../testing/modelServer';

// Tool calls streamed without a name, or with the name after an empty one: the real engine, the
// real provider code and the scripted OpenAI-compatible server on loopback.
const engines = isolatedEngines();
let server: ModelServer;
beforeEach(async () => {
  server = await startModelServer({ apiKey: 'k', models: ['m'] });
});
afterEach(async () => {
  await engines.cleanup();
  await server.close();
});

async function send(message: string): Promise<ChatTurn> {
  const { engine, workspace } = await engines.open({
    env: { ...envWithoutModel(), OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'k', SKILLDECK_MODEL: 'm' },
  });
  writeTree(path.join(workspace, 'skills'), {
    'doc-helper/SKILL.md':
      '---\nname: doc-helper\ndescription: Writes documentation in the house style.\n---\nRead references/style.md.\n',
    'doc-helper/references/style.md': 'Use sentence case headings.\n',
    'doc-helper/skill.yaml': 'spec: { type: instruction }\n',
  });
  await engine.reloadSkills();
  return engine.chat.send(undefined, message).done;
}

/** The tool results the model got back in chat request `index`. */
const toolResults = (index: number) =>
  server
    .chatRequests()
    .at(index)!
    .messages.filter((m) => m.role === 'tool')
    .map((m) => JSON.parse(messageText(m)) as Record<string, unknown>);

const STYLE = { path: 'references/style.md', content: 'Use sentence case headings.\n' };
const UNNAMED =
  'The tool call had no name. Call one of these tools by its name: list_skill_files, read_skill_file, run_skill_script, run_skill.';

describe('a tool call streamed without a name', () => {
  it('is answered with an error beside a named call of the same reply, in order', async () => {
    server.enqueue(
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
    const calls = server.chatRequests()[1].messages.find((m) => m.role === 'assistant')!.tool_calls!;
    expect(calls.map((c) => [c.id, c.function.name])).toEqual([
      ['call_0_0', 'unnamed_tool'],
      ['call_0_1', 'read_skill_file'],
    ]);
  });

  it('from a server that ignores stream: true, is answered the same way', async () => {
    server.enqueue(
      { text: 'Checking.', toolCalls: [{ name: '', arguments: {} }], ignoreStream: true },
      { text: 'Sentence case.' },
    );
    const turn = await send('$doc-helper which heading style do we use?');
    expect(turn).toMatchObject({ status: 'success', answer: 'Checking.\n\nSentence case.' });
    expect(toolResults(1)).toEqual([{ status: 'error', error: UNNAMED }]);
  });

  it('in plain chat, names the one tool plain chat offers', async () => {
    server.enqueue({ toolCalls: [{ name: '', arguments: { skill: 'doc-helper' } }] }, { text: 'Recovered.' });
    const turn = await send('could you write a guide for my project?');
    expect(turn).toMatchObject({ status: 'success', answer: 'Recovered.' });
    expect(turn.steps.filter((s) => s.kind === 'tool').map((s) => [s.status, s.error])).toEqual([
      ['error', 'The tool call had no name. Call one of these tools by its name: run_skill.'],
    ]);
  });
});

describe('a tool call whose name comes after an empty one (some vLLM models)', () => {
  it('runs under that name with all its arguments', async () => {
    server.enqueue(
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
