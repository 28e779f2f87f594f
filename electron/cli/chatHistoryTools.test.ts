import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChatTurn } from '../../shared/contract';
import { cliWithModel } from '../testing/cliBundle';
import { messageText } from '../testing/modelServer';

// A turn that ran a script, then a follow-up with --conversation. The history the model got for
// the earlier turn was only its message and answer: what the script printed was gone, so "which
// id did it get?" could only be guessed when the answer had not repeated it.
const cli = cliWithModel('skilldeck-cli-history-tools-', {
  'minutes-archiver/SKILL.md':
    '---\nname: minutes-archiver\ndescription: Archives meeting minutes. Use when the user asks to archive meeting minutes.\n---\n# Archiver\n\nRun scripts/archive.py with the minutes in input.text.\n',
  'minutes-archiver/skill.yaml':
    'spec: { type: instruction }\ntriggers: [archive meeting minutes]\nexecution_policy: { approval: auto }\n',
  'minutes-archiver/scripts/archive.py':
    'import json, os\ntext = json.loads(os.environ["INPUT_JSON"])["text"]\nprint(f"archived {text!r} as minutes-0042")\n',
});

describe('skilldeck chat --conversation after a turn that ran a script', () => {
  it('the next turn’s history carries what the script printed, with the earlier answer', async () => {
    cli.server.enqueue(
      {
        toolCalls: [
          {
            name: 'run_skill_script',
            arguments: { script: 'scripts/archive.py', input: { text: 'Q3 plan' } },
          },
        ],
      },
      { text: 'Done: the minutes are archived.' },
    );
    // One $SKILLDECK_HOME for both turns: --conversation reads the conversation from it.
    const home = { SKILLDECK_HOME: path.join(cli.root, 'home-conversation') };
    const first = await cli.run(['chat', 'please archive meeting minutes from today', '--json'], home);
    const turn = ChatTurn.parse(JSON.parse(first.stdout));
    expect(turn.steps.some((s) => s.kind === 'tool' && s.status === 'success')).toBe(true);
    const before = cli.server.chatRequests().length;
    cli.server.enqueue({ text: 'It was archived as minutes-0042.' });
    const second = await cli.run(
      ['chat', 'which id did it get?', '--conversation', turn.conversation_id, '--json'],
      home,
    );
    expect(second.code).toBe(0);
    const request = cli.server.chatRequests()[before];
    const earlier = request.messages.filter((m) => m.role === 'assistant').map(messageText);
    expect(earlier).toHaveLength(1);
    expect(earlier[0]).toContain('Done: the minutes are archived.');
    expect(earlier[0]).toContain("archived 'Q3 plan' as minutes-0042");
    expect(earlier[0]).toContain('scripts/archive.py');
  }, 90_000);
});

// A turn that got no answer (the model's server failed) was left out of the next turn's history
// whole, the user's message with it: "try again" after an error reached the model with nothing to
// try again, and the CLI has no resend to fall back on.
describe('skilldeck chat --conversation after a turn that got no answer', () => {
  it('the next turn’s history keeps the unanswered message, and says it went unanswered', async () => {
    const home = { SKILLDECK_HOME: path.join(cli.root, 'home-unanswered') };
    cli.server.setHandler(() => ({ error: { status: 500, message: 'upstream exploded' } }));
    const first = await cli
      .run(['chat', 'Translate “good morning” into Japanese', '--json'], home)
      .finally(() => cli.server.setHandler(null));
    const failed = ChatTurn.parse(JSON.parse(first.stdout));
    expect(failed).toMatchObject({ status: 'error', answer: '' });
    const before = cli.server.chatRequests().length;
    cli.server.enqueue({ text: 'おはようございます' });
    const second = await cli.run(
      ['chat', 'try again please', '--conversation', failed.conversation_id, '--json'],
      home,
    );
    expect(second.code, second.stderr).toBe(0);
    const messages = cli.server.chatRequests()[before].messages.filter((m) => m.role !== 'system');
    expect(messages.map((m) => [m.role, messageText(m)])).toEqual([
      ['user', 'Translate “good morning” into Japanese'],
      ['assistant', expect.stringMatching(/^\(No answer: .*upstream exploded.*\)$/)],
      ['user', 'try again please'],
    ]);
  }, 90_000);
});

// A conversation log edited by hand (or damaged) between turns: a line that no longer reads was
// left out of the history without a word, so the model lost a turn the user thought it had.
describe('skilldeck chat --conversation with a damaged line in its log', () => {
  it('goes on with the turns that read, and warns on stderr which log lost how many lines', async () => {
    const home = { SKILLDECK_HOME: path.join(cli.root, 'home-damaged') };
    cli.server.enqueue({ text: 'First answer.' }, { text: 'Second answer.' });
    const first = ChatTurn.parse(
      JSON.parse((await cli.run(['chat', 'first question', '--json'], home)).stdout),
    );
    const id = first.conversation_id;
    await cli.run(['chat', 'second question', '--conversation', id, '--json'], home);
    const log = path.join(home.SKILLDECK_HOME, 'chats', `${id}.jsonl`);
    const [one, two] = fs.readFileSync(log, 'utf8').split('\n');
    fs.writeFileSync(log, `${one.slice(0, 200)}\n${two}\n`);
    const before = cli.server.chatRequests().length;
    cli.server.enqueue({ text: 'Third answer.' });
    const third = await cli.run(['chat', 'third question', '--conversation', id, '--json'], home);
    expect(third.code).toBe(0);
    expect(third.stderr).toBe(
      `skilldeck: warning: 1 line of conversation ${id} could not be read (${log}); the turn on it is left out of the history.\n`,
    );
    const request = cli.server.chatRequests()[before];
    const users = request.messages.filter((m) => m.role === 'user').map(messageText);
    expect(users).toEqual(['second question', 'third question']);
  }, 90_000);
});
