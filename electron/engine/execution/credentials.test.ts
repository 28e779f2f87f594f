import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEngines, writeTree } from '../../testing/fixtures';
import { answerWith, scriptSkill } from './testSkills';

// A skill that reads the home (csv-summary, json-format: `read: ['~/**']`, no network) may do
// so under its own `approval: auto`. What it reads goes to its output, and from an instruction
// skill to the model: the folders that hold keys and credentials stay hidden under such a
// grant, and naming one asks the user, whatever the skill says (found probing the CLI).
const engines = isolatedEngines();
afterEach(() => engines.cleanup());

const KEY = '-----BEGIN OPENSSH PRIVATE KEY----- not-a-real-key';

async function open() {
  const opened = await engines.open();
  const userHome = path.join(opened.root, 'user');
  writeTree(userHome, {
    'notes.txt': 'groceries: oat milk\n',
    '.ssh/id_ed25519': `${KEY}\n`,
    '.aws/credentials': '[default]\naws_secret_access_key = not-a-real-secret\n',
  });
  return { ...opened, userHome, skills: path.join(opened.workspace, 'skills') };
}

describe('keys and credentials in the home (real bwrap runs)', () => {
  it('stay hidden under a read grant of the whole home, which auto still covers', async () => {
    const { engine, skills } = await open();
    const id = scriptSkill(
      skills,
      'home-reader',
      'cat "$HOME/notes.txt"; cat "$HOME/.ssh/id_ed25519" "$HOME/.aws/credentials" 2>&1; ls -a "$HOME/.ssh"',
      [
        "permissions: { filesystem: { read: ['~/**'] }, network: { outbound: false } }",
        'execution_policy: { approval: auto }',
      ],
    );
    await engine.reloadSkills();
    const { requests } = answerWith(engine, () => 'deny');
    const result = await engine.execution.start({ id, task: 'go' }).done;
    expect(requests).toEqual([]);
    expect(result.sandbox).toBe('bwrap');
    expect(result.output).toContain('groceries: oat milk');
    expect(result.output).not.toContain('not-a-real');
    // The folder shows empty: `ls -a` lists only . and ..
    expect(result.output).not.toMatch(/^id_ed25519$/m);
    expect(result.output).toMatch(/^\.\.$/m);
  });

  it('are shown to a grant that names them, which the skill’s own auto does not cover', async () => {
    const { engine, skills } = await open();
    const id = scriptSkill(skills, 'key-reader', 'cat "$HOME/.ssh/id_ed25519"', [
      "permissions: { filesystem: { read: ['~/.ssh/**'] }, network: { outbound: false } }",
      'execution_policy: { approval: auto }',
    ]);
    await engine.reloadSkills();
    const denied = answerWith(engine, () => 'deny');
    expect((await engine.execution.start({ id, task: 'go' }).done).status).toBe('denied');
    denied.stop();
    expect(denied.requests).toHaveLength(1);
    expect(denied.requests[0].reasons).toEqual([
      'it declares approval: auto, but reads ~/.ssh/** (keys and credentials), outside its own folders and the workspace',
    ]);
    // Allowed by the user, it reads what it named.
    answerWith(engine, () => 'allow_once');
    const allowed = await engine.execution.start({ id, task: 'go' }).done;
    expect(allowed).toMatchObject({ status: 'success', output: `${KEY}\n` });
  });
});
