import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatTurn } from '../../shared/contract';
import { buildCliBundle, runCliWithModel } from '../testing/cliBundle';
import { tempDir, writeTree } from '../testing/fixtures';
import { messageText, startModelServer, type ModelServer } from '../testing/modelServer';

// Tool calls as some models and proxies really send them, through `skilldeck chat --json`: a real
// process, the real provider code and the scripted OpenAI-compatible server on loopback.
const root = tempDir('skilldeck-cli-tool-calls-');
const cli = path.join(root, 'cli.cjs');
const skills = path.join(root, 'skills');
let server: ModelServer;

beforeAll(async () => {
  await buildCliBundle(cli);
  server = await startModelServer({ apiKey: 'k', models: ['m'] });
  writeTree(skills, {
    'doc-helper/SKILL.md':
      '---\nname: doc-helper\ndescription: Writes documentation in the house style.\n---\n# Doc helper\n\nRead references/style.md.\n',
    'doc-helper/references/style.md': 'Use sentence case headings.\n',
    'doc-helper/skill.yaml': 'spec: { type: instruction }\n',
  });
}, 60_000);

afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

async function chat(message: string): Promise<ChatTurn> {
  const home = path.join(root, `home-${Date.now()}`);
  const where = { cli, skills, home, userHome: root, baseURL: server.baseURL, apiKey: 'k' };
  const { stdout, stderr } = await runCliWithModel(where, ['chat', message, '--json', '--deny']);
  expect(stderr).toBe('');
  return ChatTurn.parse(JSON.parse(stdout));
}

/** The tool results the model got back in chat request `index`. */
const toolResults = (index: number) => {
  const messages = server.chatRequests()[index].messages;
  return messages
    .filter((m) => m.role === 'tool')
    .map((m) => JSON.parse(messageText(m)) as Record<string, unknown>);
};

describe('skilldeck chat: tool-call arguments that are a JSON string', () => {
  it('a string is called JSON that is not an object; an object encoded twice is read', async () => {
    const first = server.chatRequests().length;
    server.enqueue(
      {
        toolCalls: [
          { name: 'read_skill_file', arguments: '"references/style.md"' },
          {
            name: 'read_skill_file',
            arguments: JSON.stringify(JSON.stringify({ path: 'references/style.md' })),
          },
        ],
      },
      { text: 'Headings use sentence case.' },
    );
    const turn = await chat('$doc-helper which heading style do we use?');
    expect(turn).toMatchObject({ status: 'success', answer: 'Headings use sentence case.' });
    const tools = turn.steps.filter((s) => s.kind === 'tool');
    expect(tools.map((s) => s.status)).toEqual(['error', 'success']);
    expect(tools[0].error).toMatch(
      /^Invalid arguments for read_skill_file: they are JSON, but a string \("references\/style\.md"\), not an object\./,
    );
    const results = toolResults(first + 1);
    expect(results[0].error).toBe(tools[0].error);
    expect(results[1]).toEqual({ path: 'references/style.md', content: 'Use sentence case headings.\n' });
  }, 40_000);

  it('plain chat says the same of run_skill called with a string', async () => {
    server.enqueue({ toolCalls: [{ name: 'run_skill', arguments: '"doc-helper"' }] }, { text: 'Recovered.' });
    const turn = await chat('could you write a guide for my project?');
    expect(turn.route.plan.primary).toBeNull();
    expect(turn).toMatchObject({ status: 'success', answer: 'Recovered.' });
    expect(turn.steps.filter((s) => s.kind === 'tool').map((s) => s.error)).toEqual([
      expect.stringMatching(
        /^Invalid arguments for run_skill: they are JSON, but a string \("doc-helper"\), not an object\./,
      ),
    ]);
  }, 40_000);
});

describe('skilldeck chat: a tool call without a name', () => {
  it('keeps the model’s text and answers the call with an error it can correct', async () => {
    const first = server.chatRequests().length;
    server.enqueue(
      {
        text: 'Let me check the style guide.',
        toolCalls: [{ name: '', arguments: { path: 'references/style.md' } }],
      },
      { toolCalls: [{ name: 'read_skill_file', arguments: { path: 'references/style.md' } }] },
      { text: 'Headings use sentence case.' },
    );
    const turn = await chat('$doc-helper which heading style do we use?');
    expect(turn.status).toBe('success');
    expect(turn.answer).toBe('Let me check the style guide.\n\nHeadings use sentence case.');
    // The skill answered: plain chat's fallback was never asked.
    expect(server.chatRequests().length - first).toBe(3);
    const tools = turn.steps.filter((s) => s.kind === 'tool');
    expect(tools.map((s) => s.status)).toEqual(['error', 'success']);
    expect(tools[0].error).toBe(
      'The tool call had no name. Call one of these tools by its name: list_skill_files, read_skill_file, run_skill_script, run_skill.',
    );
    expect(toolResults(first + 1)[0]).toEqual({ status: 'error', error: tools[0].error });
    // The model sees its own words and the call it made, with what it sent.
    const assistant = server.chatRequests()[first + 1].messages.find((m) => m.role === 'assistant')!;
    expect(messageText(assistant)).toBe('Let me check the style guide.');
    expect(JSON.parse(assistant.tool_calls![0].function.arguments)).toEqual({ path: 'references/style.md' });
  }, 40_000);
});
