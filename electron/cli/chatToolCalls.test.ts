import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChatTurn } from '../../shared/contract';
import { cliWithModel } from '../testing/cliBundle';
import { messageText } from '../testing/modelServer';

// Tool calls as some models and proxies really send them, through `skilldeck chat --json`: a real
// process, the real provider code and the scripted OpenAI-compatible server on loopback.
const cli = cliWithModel('skilldeck-cli-tool-calls-', {
  'doc-helper/SKILL.md':
    '---\nname: doc-helper\ndescription: Writes documentation in the house style.\n---\n# Doc helper\n\nRead references/style.md.\n',
  'doc-helper/references/style.md': 'Use sentence case headings.\n',
  'doc-helper/skill.yaml': 'spec: { type: instruction }\n',
});

async function chat(message: string): Promise<ChatTurn> {
  const { stdout, stderr } = await cli.run(['chat', message, '--json', '--deny']);
  expect(stderr).toBe('');
  return ChatTurn.parse(JSON.parse(stdout));
}

/** The tool results the model got back in chat request `index`. */
const toolResults = (index: number) => {
  const messages = cli.server.chatRequests()[index].messages;
  return messages
    .filter((m) => m.role === 'tool')
    .map((m) => JSON.parse(messageText(m)) as Record<string, unknown>);
};

describe('skilldeck chat: tool-call arguments that are a JSON string', () => {
  it('a string is called JSON that is not an object; an object encoded twice is read', async () => {
    const first = cli.server.chatRequests().length;
    cli.server.enqueue(
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
    cli.server.enqueue(
      { toolCalls: [{ name: 'run_skill', arguments: '"doc-helper"' }] },
      { text: 'Recovered.' },
    );
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
    const first = cli.server.chatRequests().length;
    cli.server.enqueue(
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
    expect(cli.server.chatRequests().length - first).toBe(3);
    const tools = turn.steps.filter((s) => s.kind === 'tool');
    expect(tools.map((s) => s.status)).toEqual(['error', 'success']);
    expect(tools[0].error).toBe(
      'The tool call had no name. Call one of these tools by its name: list_skill_files, read_skill_file, run_skill_script, run_skill.',
    );
    expect(toolResults(first + 1)[0]).toEqual({ status: 'error', error: tools[0].error });
    // The model sees its own words and the call it made, with what it sent.
    const assistant = cli.server.chatRequests()[first + 1].messages.find((m) => m.role === 'assistant')!;
    expect(messageText(assistant)).toBe('Let me check the style guide.');
    expect(JSON.parse(assistant.tool_calls![0].function.arguments)).toEqual({ path: 'references/style.md' });
  }, 40_000);
});

// A reference saved in a legacy encoding (Windows-1252 / Latin-1, as many Windows-authored notes
// are): read as UTF-8, every accented letter reached the model as U+FFFD, with nothing to say why.
describe('skilldeck chat: read_skill_file of a file that is not UTF-8', () => {
  it('reads it as Windows-1252 and says so in a note', async () => {
    const file = path.join(cli.skills, 'doc-helper', 'references', 'legacy.txt');
    fs.writeFileSync(file, Buffer.from('Caf\xe9 cr\xe8me \x80 5\n', 'latin1'));
    const first = cli.server.chatRequests().length;
    cli.server.enqueue(
      { toolCalls: [{ name: 'read_skill_file', arguments: { path: 'references/legacy.txt' } }] },
      { text: 'It says café crème.' },
    );
    const turn = await chat('$doc-helper what does the legacy note say?');
    expect(turn.status).toBe('success');
    const [result] = toolResults(first + 1);
    expect(result.content).toBe('Café crème € 5\n');
    expect(result.note).toMatch(/not valid UTF-8.*Windows-1252/);
  }, 40_000);
});

// run_skill_script takes a script named with the skill's own folder first ("doc-helper/scripts/x");
// read_skill_file refused the same form with "No file", and listed links that lead out of the
// skill (which it refuses to read) among the files it offered instead.
describe('skilldeck chat: read_skill_file with the skill’s own folder first', () => {
  it('reads the file, and a miss offers only files it can read', async () => {
    const link = path.join(cli.skills, 'doc-helper', 'references', 'outside.md');
    fs.symlinkSync('/etc/hostname', link);
    try {
      const first = cli.server.chatRequests().length;
      cli.server.enqueue(
        {
          toolCalls: [
            { name: 'read_skill_file', arguments: { path: 'doc-helper/references/style.md' } },
            { name: 'read_skill_file', arguments: { path: 'references/missing.md' } },
          ],
        },
        { text: 'Sentence case.' },
      );
      const turn = await chat('$doc-helper which heading style do we use?');
      expect(turn.status).toBe('success');
      const [read, miss] = toolResults(first + 1);
      expect(read).toEqual({ path: 'references/style.md', content: 'Use sentence case headings.\n' });
      expect(miss.error).toMatch(
        /^No file "references\/missing\.md" in this skill\. Files: .*references\/style\.md/,
      );
      expect(miss.error).not.toContain('outside.md');
    } finally {
      fs.rmSync(link);
    }
  }, 40_000);
});
