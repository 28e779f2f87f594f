import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunResult } from '../../shared/contract';
import { buildCliBundle } from '../testing/cliBundle';
import { envWithoutModel, tempDir, writeTree } from '../testing/fixtures';

// Under a write grant of a project, each missing guarded file (.envrc, .git, .bashrc …) gets an
// empty read-only stand-in that bwrap makes in the project and the engine removes after the run.
// Probing `skilldeck run`, an engine killed mid-run (SIGKILL, a crash) left eighteen of them in
// the user's project for good, an empty read-only .git among them. The next run now removes
// what a dead engine left, but never what a live sandbox, of any engine, still has mounted.
const root = tempDir('skilldeck-cli-standins-');
const cli = path.join(root, 'cli.cjs');
const skills = path.join(root, 'skills');
const GRANT =
  "permissions: { filesystem: { write: ['{workspace}/**'] } }\nexecution_policy: { approval: auto }\n";

beforeAll(async () => {
  await buildCliBundle(cli);
  const skill = (name: string, body: string) => ({
    [`${name}/SKILL.md`]: `---\nname: ${name}\ndescription: Works in the project for a while.\n---\n`,
    [`${name}/skill.yaml`]: `spec: { type: script }\n${GRANT}`,
    [`${name}/scripts/run.sh`]: `#!/bin/bash\n${body}\n`,
  });
  writeTree(skills, {
    ...skill('slow', 'sleep 20; echo slow'),
    ...skill('slow-ish', 'sleep 4; echo slow-ish'),
    ...skill('waiter', 'touch "$WORKSPACE/src/started"; sleep 20'),
    ...skill('quick', 'echo "note" > "$WORKSPACE/notes.md"'),
  });
}, 60_000);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function start(skill: string, home: string, project: string): ChildProcess {
  return spawn(
    process.execPath,
    [cli, 'run', skill, 'go', '--json', '--no-default-paths', '--skills', skills],
    {
      cwd: project,
      env: { ...envWithoutModel(), SKILLDECK_HOME: path.join(root, home), HOME: root },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

function finish(child: ChildProcess): Promise<string> {
  let stdout = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d));
  return new Promise((resolve) => child.on('close', () => resolve(stdout)));
}

async function standInsMade(project: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  // The sandbox has started once the last stand-in stands and the script runs.
  while (!fs.existsSync(path.join(project, '.zshrc')) || !fs.existsSync(path.join(project, '.git'))) {
    if (Date.now() > deadline) throw new Error('no stand-ins appeared');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
}

const project = (name: string) => {
  const dir = path.join(root, name);
  writeTree(dir, { 'src/app.py': 'print(1)\n' });
  return fs.realpathSync(dir);
};

describe('stand-ins of an engine killed mid-run (real CLI, real bwrap)', () => {
  it('are removed by the next run of the same home', async () => {
    const dir = project('killed');
    const slow = start('slow', 'home', dir);
    const closed = finish(slow);
    await standInsMade(dir);
    slow.kill('SIGKILL');
    await closed;
    expect(fs.readdirSync(dir)).toContain('.envrc');

    const quick = RunResult.parse(JSON.parse(await finish(start('quick', 'home', dir))));
    expect(quick.status).toBe('success');
    expect(fs.readdirSync(dir).sort()).toEqual(['notes.md', 'src']);
    expect(fs.readdirSync(path.join(root, 'home', 'stand-ins'))).toEqual([]);
  }, 90_000);

  it('two engines of one home in one project: both runs hold, and nothing is left, in the project or the ledger', async () => {
    const dir = project('together');
    const first = finish(start('slow-ish', 'home-c', dir));
    await standInsMade(dir);
    const second = RunResult.parse(JSON.parse(await finish(start('quick', 'home-c', dir))));
    const firstResult = RunResult.parse(JSON.parse(await first));
    expect([firstResult.status, second.status]).toEqual(['success', 'success']);
    expect(fs.readdirSync(dir).sort()).toEqual(['notes.md', 'src']);
    expect(fs.readdirSync(path.join(root, 'home-c', 'stand-ins'))).toEqual([]);
  }, 90_000);

  it('stay while a live sandbox of another engine has them mounted, and go once it ends', async () => {
    const dir = project('shared');
    // A killed engine left stand-ins; another engine (its own home) runs in the project meanwhile.
    const killed = start('slow', 'home-a', dir);
    const killedClosed = finish(killed);
    await standInsMade(dir);
    killed.kill('SIGKILL');
    await killedClosed;
    const other = start('waiter', 'home-b', dir);
    const otherClosed = finish(other);
    for (const deadline = Date.now() + 30_000; !fs.existsSync(path.join(dir, 'src', 'started'));)
      if (Date.now() > deadline) throw new Error('the other run did not start');
      else await new Promise((resolve) => setTimeout(resolve, 50));

    // The sweep by home-a's next run must not pull them from under home-b's running sandbox.
    await finish(start('quick', 'home-a', dir));
    expect(fs.readdirSync(dir)).toContain('.envrc');
    other.kill('SIGTERM');
    await otherClosed;
    await finish(start('quick', 'home-a', dir));
    expect(fs.readdirSync(dir).sort()).toEqual(['notes.md', 'src']);
  }, 120_000);
});
