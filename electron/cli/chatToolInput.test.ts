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
