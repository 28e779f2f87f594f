import { describe, expect, it } from 'vitest';
import { ChatTurn } from '../../shared/contract';
import { cliWithModel } from '../testing/cliBundle';
import { messageText } from '../testing/modelServer';

// What a model's tool call hands a script and what a wrong call says back, through
// `skilldeck chat --json`: a real process, the real bwrap sandbox, the scripted server on loopback.
const cli = cliWithModel('skilldeck-cli-tool-input-', {
  'report-maker/SKILL.md':
    '---\nname: report-maker\ndescription: Makes a short sales report from the numbers the user gives.\n---\n# Report maker\n\nRun scripts/make.py.\n',
  'report-maker/skill.yaml': 'spec: { type: instruction }\n',
  'report-maker/scripts/make.py': "import os\nprint('INPUT_JSON=' + os.environ.get('INPUT_JSON', ''))\n",
});

async function chat(message: string): Promise<ChatTurn> {
  const { stdout, stderr } = await cli.run(['chat', message, '--json', '--approve']);
  expect(stderr).toBe('');
  return ChatTurn.parse(JSON.parse(stdout));
}

const toolResult = (index: number) => {
  const tool = cli.server.chatRequests()[index].messages.filter((m) => m.role === 'tool');
  return JSON.parse(messageText(tool[0])) as Record<string, unknown>;
};

describe('skilldeck chat: run_skill_script and its INPUT_JSON', () => {
  it('a call without input gives the script the task, as a script skill gets it', async () => {
    const first = cli.server.chatRequests().length;
    cli.server.enqueue(
      { toolCalls: [{ name: 'run_skill_script', arguments: { script: 'scripts/make.py' } }] },
      { text: 'Report made.' },
    );
    const message = '$report-maker a report for Q3: 100, 200';
    const turn = await chat(message);
    expect(turn).toMatchObject({ status: 'success', answer: 'Report made.' });
    const output = String(toolResult(first + 1).output);
    expect(JSON.parse(output.replace(/^INPUT_JSON=/, ''))).toEqual({ task: message });
  }, 40_000);

  it('input the model gives is kept, with the task beside it unless it names one', async () => {
    const first = cli.server.chatRequests().length;
    cli.server.enqueue(
      {
        toolCalls: [
          { name: 'run_skill_script', arguments: { script: 'scripts/make.py', input: { q: 3 } } },
          {
            name: 'run_skill_script',
            arguments: { script: 'scripts/make.py', input: { task: 'sum 100 and 200' } },
          },
        ],
      },
      { text: 'Report made.' },
    );
    const message = '$report-maker a report for Q3: 100, 200';
    await chat(message);
    const tools = cli.server.chatRequests()[first + 1].messages.filter((m) => m.role === 'tool');
    const inputs = tools.map((m) => {
      const output = String((JSON.parse(messageText(m)) as { output: string }).output);
      return JSON.parse(output.replace(/^INPUT_JSON=/, '')) as unknown;
    });
    expect(inputs).toEqual([{ q: 3, task: message }, { task: 'sum 100 and 200' }]);
  }, 40_000);
});

describe('skilldeck chat: how long a run_skill_script call took', () => {
  it('is whole milliseconds, in the result the model gets and on the step, as in a run', async () => {
    // The sandbox's tenth-of-a-millisecond reading went out as it was: duration_ms 624.2.
    const first = cli.server.chatRequests().length;
    const call = (n: number) => ({
      name: 'run_skill_script',
      arguments: { script: 'scripts/make.py', args: [String(n)] },
    });
    cli.server.enqueue({ toolCalls: [call(1), call(2), call(3)] }, { text: 'Report made.' });
    const turn = await chat('$report-maker a report for Q4: 5, 6');
    const steps = turn.steps.filter((s) => s.kind === 'tool');
    expect(steps.map((s) => s.status)).toEqual(['success', 'success', 'success']);
    const sent = cli.server.chatRequests()[first + 1].messages.filter((m) => m.role === 'tool');
    const results = sent.map((m) => JSON.parse(messageText(m)) as { duration_ms: unknown });
    for (const took of [...results.map((r) => r.duration_ms), ...steps.map((s) => s.duration_ms)])
      expect(Number.isInteger(took), String(took)).toBe(true);
  }, 40_000);
});

describe('skilldeck chat: null for an argument the tool does not need', () => {
  it('is read as left out, as models in strict mode send it; null for a needed one still fails', async () => {
    const first = cli.server.chatRequests().length;
    cli.server.enqueue(
      {
        toolCalls: [
          { name: 'run_skill_script', arguments: { script: 'scripts/make.py', args: null, input: null } },
          { name: 'run_skill_script', arguments: { script: null } },
        ],
      },
      { text: 'Report made.' },
    );
    const message = '$report-maker a report for Q4: 300';
    const turn = await chat(message);
    expect(turn).toMatchObject({ status: 'success', answer: 'Report made.' });
    const tools = turn.steps.filter((s) => s.kind === 'tool');
    expect(tools.map((s) => s.status)).toEqual(['success', 'error']);
    expect(tools[1].error).toMatch(
      /^Invalid arguments for run_skill_script: script: Invalid input: expected string, received null\./,
    );
    const output = String(toolResult(first + 1).output);
    expect(JSON.parse(output.replace(/^INPUT_JSON=/, ''))).toEqual({ task: message });
  }, 40_000);
});

describe('skilldeck chat: a call that fails the schema', () => {
  it('says what is expected without the JSON Schema draft URI', async () => {
    const first = cli.server.chatRequests().length;
    cli.server.enqueue(
      {
        toolCalls: [
          { name: 'read_skill_file', arguments: { file: 'SKILL.md' } },
          { name: 'read_skill_file', arguments: '{"path": ' },
        ],
      },
      { text: 'Sorry.' },
    );
    const turn = await chat('$report-maker show me your instructions');
    const errors = turn.steps.filter((s) => s.kind === 'tool').map((s) => s.error ?? '');
    expect(errors).toHaveLength(2);
    for (const error of errors) {
      expect(error).toMatch(/^Invalid arguments for read_skill_file: /);
      expect(error).toContain('"required":["path"]');
      expect(error).not.toMatch(/\$schema|json-schema\.org/);
    }
    expect(toolResult(first + 1).error).toBe(errors[0]);
  }, 40_000);
});
