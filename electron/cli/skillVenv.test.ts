import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunResult } from '../../shared/contract';
import { buildCliBundle } from '../testing/cliBundle';
import { envWithoutModel, tempDir, writeTree } from '../testing/fixtures';

// A Python skill with its own virtual environment (`python3 -m venv .venv` and its packages
// installed there), as users set one up. Probing `skilldeck run`, its .py scripts ran with the
// host's python3, so the packages of the venv were missing (ModuleNotFoundError); and a wrapper
// that starts .venv/bin/python failed with "No such file or directory", because the python the
// venv links to (pyenv's, under the home, here root's) is hidden in the sandbox.
const root = tempDir('skilldeck-cli-venv-');
const cli = path.join(root, 'cli.cjs');
const skills = path.join(root, 'skills');

function skillWithVenv(name: string, script: string, body: string): void {
  const dir = path.join(skills, name);
  writeTree(dir, {
    'SKILL.md': `---\nname: ${name}\ndescription: Greets with a package from its own venv.\n---\n`,
    'skill.yaml': 'spec: { type: script }\n',
    [`scripts/${script}`]: body,
  });
  const made = spawnSync('python3', ['-m', 'venv', '--without-pip', path.join(dir, '.venv')], {
    encoding: 'utf8',
  });
  if (made.status !== 0) throw new Error(made.stderr);
  const lib = path.join(dir, '.venv', 'lib');
  const site = path.join(
    lib,
    fs.readdirSync(lib).find((d) => d.startsWith('python'))!,
    'site-packages',
  );
  fs.writeFileSync(path.join(site, 'greeter_pkg.py'), 'WORDS = "hello from the venv"\n');
}

beforeAll(async () => {
  await buildCliBundle(cli);
  skillWithVenv('venv-py', 'greet.py', 'import greeter_pkg\nprint(greeter_pkg.WORDS)\n');
  skillWithVenv(
    'venv-wrapper',
    'greet.sh',
    '#!/bin/bash\nexec "$SKILL_PATH/.venv/bin/python" -c "import greeter_pkg; print(greeter_pkg.WORDS)"\n',
  );
}, 60_000);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function run(skill: string): Promise<RunResult> {
  const child = spawn(
    process.execPath,
    [cli, 'run', skill, 'go', '--approve', '--json', '--no-default-paths', '--skills', skills],
    {
      env: { ...envWithoutModel(), SKILLDECK_HOME: path.join(root, 'home'), HOME: root },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  return new Promise((resolve) => child.on('close', () => resolve(RunResult.parse(JSON.parse(stdout)))));
}

describe("a skill's own venv (real CLI, real bwrap)", () => {
  it('runs its .py scripts, with the packages installed there', async () => {
    const result = await run('venv-py');
    expect(result.sandbox).toBe('bwrap');
    expect(result.error).toBeNull();
    expect(result.output).toBe('hello from the venv\n');
  }, 60_000);

  it('starts from a wrapper script, wherever the python it links to lives', async () => {
    const result = await run('venv-wrapper');
    expect(result.error).toBeNull();
    expect(result.output).toBe('hello from the venv\n');
  }, 60_000);
});
