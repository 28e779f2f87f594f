import { describe, expect, it } from 'vitest';
import { ChatTurn } from '../../shared/contract';
import { cliWithModel } from '../testing/cliBundle';
import { messageText } from '../testing/modelServer';

// A skill's model ran a script, then failed (a 500, an empty answer): the generic fallback that
// answers instead must hear that the script ran and what it said. Without that it answered the
// message afresh, as if nothing had run, beside a script whose side effects had happened.
const cli = cliWithModel('skilldeck-cli-after-scripts-', {
  'minutes-archiver/SKILL.md':
    '---\nname: minutes-archiver\ndescription: Archives meeting minutes. Use when the user asks to archive meeting minutes.\n---\n# Archiver\n\nRun scripts/archive.py with the minutes in input.text.\n',
  'minutes-archiver/skill.yaml':
    'spec: { type: instruction }\ntriggers: [archive meeting minutes]\nexecution_policy: { approval: auto }\n',
  'minutes-archiver/scripts/archive.py':
    'import json, os\ntext = json.loads(os.environ["INPUT_JSON"])["text"]\nprint(f"archived {text!r} as minutes-0042")\n',
  // Scripts run directly (declared entrypoints): one the sandbox stops, one that fails.
  'calendar-backup/SKILL.md':
    '---\nname: calendar-backup\ndescription: Backs up the team calendar. Use when the user asks to back up the team calendar.\n---\n# Backup\n',
  'calendar-backup/skill.yaml':
    'triggers: [back up the team calendar]\nentrypoints: [scripts/backup.py]\nexecution_policy: { approval: auto }\n',
  'calendar-backup/scripts/backup.py':
    'print("backing up")\nopen("/usr/calendar-backup.ics", "w").write("x")\nprint("backed up")\n',
  'word-counter/SKILL.md':
    '---\nname: word-counter\ndescription: Counts the words of a text. Use when the user asks to count the words of a text.\n---\n# Counter\n',
  'word-counter/skill.yaml':
    'triggers: [count the words]\nentrypoints: [scripts/count.py]\nexecution_policy: { approval: auto }\n',
  'word-counter/scripts/count.py':
    'import sys\nprint("counting")\nsys.exit("the counter lost its dictionary")\n',
});

async function chat(message: string): Promise<ChatTurn> {
  const { stdout } = await cli.run(['chat', message, '--json', '--deny']);
  return ChatTurn.parse(JSON.parse(stdout));
}

const archiveCall = {
  toolCalls: [
    { name: 'run_skill_script', arguments: { script: 'scripts/archive.py', input: { text: 'Q3 plan' } } },
  ],
};

describe('skilldeck chat: the fallback after a skill whose scripts already ran', () => {
  it.each([
    ['the model call after the script failed (500)', { error: { status: 500, message: 'upstream died' } }],
    ['the model answered nothing after the script', { text: '' }],
  ])(
    '%s: the fallback is told what ran and what it printed',
    async (_case, after) => {
      const first = cli.server.chatRequests().length;
      cli.server.enqueue(archiveCall, after, { text: 'Your minutes were archived as minutes-0042.' });
      const turn = await chat('please archive meeting minutes from today');
      expect(turn.route.plan.primary).toBe('minutes-archiver');
      const ran = turn.steps.filter((s) => s.kind === 'tool');
      expect(ran.map((s) => [s.name, s.status, s.output])).toEqual([
        ['run_skill_script', 'success', "archived 'Q3 plan' as minutes-0042\n"],
      ]);
      expect(turn).toMatchObject({
        status: 'success',
        answer: 'Your minutes were archived as minutes-0042.',
      });
      const requests = cli.server.chatRequests().slice(first);
      expect(requests).toHaveLength(3);
      const fallback = requests[2].messages
        .filter((m) => m.role === 'system')
        .map(messageText)
        .join('\n');
      expect(fallback).toContain('minutes-archiver');
      expect(fallback).toContain('scripts/archive.py');
      expect(fallback).toContain("archived 'Q3 plan' as minutes-0042");
      expect(fallback).toMatch(/already ran/);
      // What ran is what the skill did: not also "it failed, it did not do the job".
      expect(fallback).not.toContain('did not do the job');
    },
    60_000,
  );

  it('a skill that ran no script before failing leaves the fallback as it was', async () => {
    const first = cli.server.chatRequests().length;
    cli.server.enqueue({ error: { status: 500, message: 'upstream died' } }, { text: 'Plain answer.' });
    const turn = await chat('please archive meeting minutes from today');
    expect(turn).toMatchObject({ status: 'success', answer: 'Plain answer.' });
    const fallback = cli.server.chatRequests()[first + 1].messages.filter((m) => m.role === 'system');
    expect(fallback.map(messageText).join('\n')).not.toMatch(/already ran/);
  }, 60_000);
});

describe('skilldeck chat: plain chat whose model ran a skill, then did not relay its answer', () => {
  it.each([
    ['an empty answer', { text: '' }],
    ['a 500', { error: { status: 500, message: 'upstream died' } }],
  ])(
    'after %s, the skill’s own answer is the answer',
    async (_case, after) => {
      cli.server.enqueue(
        {
          toolCalls: [
            { name: 'run_skill', arguments: { skill: 'minutes-archiver', task: 'archive the Q3 plan' } },
          ],
        },
        archiveCall,
        { text: 'Archived as minutes-0042.' },
        after,
      );
      const turn = await chat('hi, can you help me out with something for work today');
      expect(turn.route.plan.primary).toBeNull();
      expect(turn).toMatchObject({
        status: 'success',
        skill: 'minutes-archiver',
        answer: 'Archived as minutes-0042.',
      });
      expect(turn.steps.filter((s) => s.kind === 'model').map((s) => s.status)).toEqual([
        'success',
        'success',
        'success',
        'error',
      ]);
    },
    60_000,
  );
});

describe('skilldeck chat: the fallback after a skill the sandbox blocked or that failed', () => {
  it.each([
    [
      'back up the team calendar now',
      'calendar-backup',
      'blocked',
      /but the sandbox blocked it \(Blocked by the sandbox: tried to write \/usr\/calendar-backup\.ics/,
    ],
    [
      'count the words of this sentence',
      'word-counter',
      'failure',
      /but it failed \(exit 1: the counter lost its dictionary/,
    ],
  ])(
    '"%s": the fallback hears that %s did not do the job',
    async (message, skill, status, said) => {
      const first = cli.server.chatRequests().length;
      cli.server.enqueue({ text: 'It could not be done here.' });
      const turn = await chat(message);
      expect(turn.route.plan.primary).toBe(skill);
      expect(turn.steps.find((s) => s.kind === 'run')).toMatchObject({ name: skill, status });
      expect(turn).toMatchObject({ status: 'success', skill: null, answer: 'It could not be done here.' });
      const requests = cli.server.chatRequests().slice(first);
      expect(requests).toHaveLength(1);
      const system = requests[0].messages
        .filter((m) => m.role === 'system')
        .map(messageText)
        .join('\n');
      expect(system).not.toContain('No skill was chosen');
      expect(system).toContain(`The skill ${skill} was chosen for this message`);
      expect(system).toMatch(said);
      expect(system).toContain('do not act as if it had');
    },
    60_000,
  );
});
