import fs from 'node:fs';
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
    // Credential files directly in the home and in tool folders that hold ordinary files too.
    '.netrc': 'machine example.com login me password not-a-real-netrc\n',
    '.git-credentials': 'https://me:not-a-real-token@github.com\n',
    '.npmrc': '//registry.npmjs.org/:_authToken=not-a-real-npm-token\n',
    '.pgpass': 'db:5432:*:me:not-a-real-pg\n',
    '.cargo/credentials.toml': '[registry]\ntoken = "not-a-real-cargo"\n',
    '.cargo/config.toml': '[build]\njobs = 2\n',
    '.config/rclone/rclone.conf': '[s3]\nsecret_access_key = not-a-real-rclone\n',
    '.config/git/credentials': 'https://me:not-a-real-xdg@example.com\n',
    'dotfiles/vault-token': 'not-a-real-vault\n',
    // Ordinary dotfiles stay readable.
    '.bashrc': 'alias ll="ls -l"\n',
    '.gitconfig': '[user]\n  name = Me\n',
  });
  // A dotfile manager's link: covered where it leads.
  fs.symlinkSync(path.join(userHome, 'dotfiles/vault-token'), path.join(userHome, '.vault-token'));
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

  it('include credential files of the home, covered under that grant, while ordinary dotfiles show', async () => {
    const { engine, skills } = await open();
    const files = [
      '.netrc',
      '.git-credentials',
      '.npmrc',
      '.pgpass',
      '.cargo/credentials.toml',
      '.config/rclone/rclone.conf',
      '.config/git/credentials',
      '.vault-token',
    ];
    const id = scriptSkill(
      skills,
      'dot-reader',
      `cd "$HOME"; cat .bashrc .gitconfig .cargo/config.toml; for f in ${files.join(' ')}; do cat "$f" 2>&1; done; ls -a`,
      [
        "permissions: { filesystem: { read: ['~/**'] }, network: { outbound: false } }",
        'execution_policy: { approval: auto }',
      ],
    );
    await engine.reloadSkills();
    const { requests } = answerWith(engine, () => 'deny');
    const result = await engine.execution.start({ id, task: 'go' }).done;
    expect(requests).toEqual([]);
    expect(result.output).toContain('alias ll="ls -l"');
    expect(result.output).toContain('name = Me');
    expect(result.output).toContain('jobs = 2');
    expect(result.output).not.toContain('not-a-real');
    // Each is there, unreadable: a read fails and says so, and nothing can rewrite or remove it.
    expect(result.output.match(/Permission denied/g)).toHaveLength(files.length);
    expect(result.output).toMatch(/^\.netrc$/m);
  });

  it.each([
    ['~/.netrc', 'cat "$HOME/.netrc"', 'machine example.com login me password not-a-real-netrc\n'],
    ['~/.vault-token', 'cat "$HOME/.vault-token"', 'not-a-real-vault\n'],
    // A link in its own folder, which auto covers, to a credential file of the home.
    ['{baseDir}/creds', 'cat "$SKILL_PATH/creds"', 'https://me:not-a-real-token@github.com\n'],
  ])('named by a read grant (%s), a credential file asks whatever auto says', async (grant, read, text) => {
    const { engine, skills, userHome } = await open();
    const id = scriptSkill(skills, 'netrc-reader', read, [
      `permissions: { filesystem: { read: ['~/**', '${grant}'] }, network: { outbound: false } }`,
      'execution_policy: { approval: auto }',
    ]);
    fs.symlinkSync(path.join(userHome, '.git-credentials'), path.join(id, 'creds'));
    await engine.reloadSkills();
    const denied = answerWith(engine, () => 'deny');
    expect((await engine.execution.start({ id, task: 'go' }).done).status).toBe('denied');
    denied.stop();
    expect(denied.requests.map((r) => r.reasons)).toEqual([
      [
        `it declares approval: auto, but reads ${grant} (keys and credentials), outside its own folders and the workspace`,
      ],
    ]);
    answerWith(engine, () => 'allow_once');
    expect(await engine.execution.start({ id, task: 'go' }).done).toMatchObject({
      status: 'success',
      output: text,
    });
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
