import { describe, expect, it } from 'vitest';
import { ChatTurn } from '../../shared/contract';
import { cliWithModel } from '../testing/cliBundle';
import { messageText } from '../testing/modelServer';

// A script the sandbox stopped mid-way (a write outside its paths) that carried on and exited 0
// (found driving chat --json against an outside scripted server): the run is a success, and
// the chat said nothing of the stop. The run card read "success" with no error, and the model
// got { status: success, error: null } back, so it told the user the file was written.

// The refused write's message goes to stderr, as `touch` or a logging call says it.
const BACKUP =
  'import sys\nprint("backing up")\ntry:\n    open("/usr/calendar-backup.ics", "w").write("x")\nexcept OSError as e:\n    print("skipped:", e, file=sys.stderr)\nprint("backed up")\n';

const cli = cliWithModel('skilldeck-cli-sandbox-stops-', {
  'calendar-backup/SKILL.md':
    '---\nname: calendar-backup\ndescription: Backs up the team calendar. Use when the user asks to back up the team calendar.\n---\n# Backup\n',
  'calendar-backup/skill.yaml':
    'triggers: [back up the team calendar]\nentrypoints: [scripts/backup.py]\nexecution_policy: { approval: auto }\n',
  'calendar-backup/scripts/backup.py': BACKUP,
  'contact-export/SKILL.md':
    '---\nname: contact-export\ndescription: Exports the contacts. Use when the user asks to export the contacts.\n---\n# Export\n\nRun scripts/backup.py.\n',
  'contact-export/skill.yaml':
    'spec: { type: instruction }\ntriggers: [export the contacts]\nexecution_policy: { approval: auto }\n',
  'contact-export/scripts/backup.py': BACKUP,
});

async function chat(message: string): Promise<ChatTurn> {
  const { stdout } = await cli.run(['chat', message, '--json', '--deny']);
  return ChatTurn.parse(JSON.parse(stdout));
}

const STOPPED =
  /The sandbox stopped part of it: tried to write \/usr\/calendar-backup\.ics, outside its write paths/;

describe('skilldeck chat: a script the sandbox stopped part-way that still exited 0', () => {
  it('a script skill’s run card says what the sandbox stopped', async () => {
    const turn = await chat('back up the team calendar now');
    expect(turn.route.plan.primary).toBe('calendar-backup');
    const card = turn.steps.find((s) => s.kind === 'run');
    expect(card).toMatchObject({ name: 'calendar-backup', status: 'success', sandbox: 'bwrap' });
    expect(card?.error).toMatch(STOPPED);
  }, 60_000);

  it('the model hears it in the tool result, and the tool step shows it', async () => {
    const first = cli.server.chatRequests().length;
    cli.server.enqueue(
      { toolCalls: [{ name: 'run_skill_script', arguments: { script: 'scripts/backup.py' } }] },
      { text: 'The export could not be written.' },
    );
    const turn = await chat('please export the contacts');
    expect(turn.route.plan.primary).toBe('contact-export');
    const tool = turn.steps.find((s) => s.kind === 'tool');
    expect(tool).toMatchObject({ name: 'run_skill_script', status: 'success' });
    expect(tool?.error).toMatch(STOPPED);
    const sent = cli.server.chatRequests()[first + 1].messages.filter((m) => m.role === 'tool');
    const result = sent.map((m) => JSON.parse(messageText(m)) as { status: string; error: string | null });
    expect(result).toHaveLength(1);
    expect(result[0].status).toBe('success');
    expect(result[0].error).toMatch(STOPPED);
  }, 60_000);
});
