import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunResult } from '../../shared/contract';
import { buildCliBundle } from '../testing/cliBundle';
import { envWithoutModel, tempDir, writeTree } from '../testing/fixtures';

// A descriptor the CLI inherits without close-on-exec (a terminal, an IDE, a CI runner or a
// shell's `exec 40<>file` leaves them) went on through prlimit and bwrap into the sandbox:
// probing `skilldeck run`, a script wrote through fd 40 to a file outside its write paths.
const root = tempDir('skilldeck-cli-fds-');
const cli = path.join(root, 'cli.cjs');
const skills = path.join(root, 'skills');
const outside = path.join(root, 'outside.txt');
const FD = 40;

beforeAll(async () => {
  await buildCliBundle(cli);
  writeTree(skills, {
    'fd-writer/SKILL.md':
      '---\nname: fd-writer\ndescription: Writes through a descriptor it inherits.\n---\n',
    'fd-writer/skill.yaml': 'spec: { type: script }\n',
    'fd-writer/scripts/run.sh': `#!/bin/bash\nreadlink /proc/self/fd/${FD}\necho planted >&${FD}\nexit 0\n`,
  });
}, 60_000);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** `skilldeck run … --json` with `file` open read-write as its fd FD, as a parent shell leaves it. */
function runWithOpenFd(file: string): Promise<{ code: number | null; stdout: string }> {
  const fd = fs.openSync(file, 'r+');
  const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe'];
  while (stdio.length < FD) stdio.push('ignore');
  stdio.push(fd);
  const child = spawn(
    process.execPath,
    [cli, 'run', 'fd-writer', 'go', '--approve', '--json', '--no-default-paths', '--skills', skills],
    { env: { ...envWithoutModel(), SKILLDECK_HOME: path.join(root, 'home'), HOME: root }, stdio },
  );
  fs.closeSync(fd);
  let stdout = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
}

describe('descriptors the CLI inherits (real bwrap)', () => {
  it('do not reach the sandboxed script', async () => {
    fs.writeFileSync(outside, 'as the user left it\n');
    const { stdout } = await runWithOpenFd(outside);
    const result = RunResult.parse(JSON.parse(stdout));
    expect(result.sandbox).toBe('bwrap');
    expect(result.output).not.toContain(outside);
    expect(fs.readFileSync(outside, 'utf8')).toBe('as the user left it\n');
  }, 60_000);
});
