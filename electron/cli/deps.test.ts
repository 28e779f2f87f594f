import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DependencyInstall } from '../../shared/contract';
import { envWithoutModel, tempDir, writeTree } from '../testing/fixtures';
import { buildCliBundle } from '../testing/cliBundle';

// Users' ask #13: `skilldeck skills deps NAME` lists what a skill misses and its own install
// commands; `--install N` runs one (a real npm, a real tarball, the test's own npm prefix).
const root = tempDir('skilldeck-cli-deps-');
const cli = path.join(root, 'cli.cjs');
const skills = path.join(root, 'skills');
const prefix = path.join(root, 'prefix');
const bin = 'deps-cli-test';
const tarball = path.join(root, 'pkg', `${bin}-1.0.0.tgz`);

beforeAll(async () => {
  await buildCliBundle(cli);
  writeTree(path.join(root, 'pkg'), {
    'package.json': JSON.stringify({ name: bin, version: '1.0.0', bin: { [bin]: 'run.js' } }),
    'run.js': '#!/usr/bin/env node\nconsole.log("ok");\n',
  });
  execFileSync('npm', ['pack', '--silent'], { cwd: path.join(root, 'pkg'), stdio: 'ignore' });
  writeTree(skills, {
    'lamp/SKILL.md': `---
name: lamp
description: Switches the desk lamp on and off.
metadata: { "openclaw": { "requires": { "bins": ["${bin}"] },
  "install": [{ "kind": "node", "package": "${tarball}", "bins": ["${bin}"] }, { "kind": "apt", "package": "${bin}", "bins": ["${bin}"] }] } }
---
Run \`${bin}\`.
`,
  });
}, 60_000);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const run = (...args: string[]) =>
  spawnSync(process.execPath, [cli, 'skills', 'deps', ...args, '--no-default-paths', '--skills', skills], {
    env: {
      ...envWithoutModel(),
      SKILLDECK_HOME: path.join(root, 'home'),
      HOME: root,
      npm_config_prefix: prefix,
      npm_config_cache: path.join(root, 'npm-cache'),
      PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH}`,
    },
    encoding: 'utf8',
    timeout: 120_000,
  });

describe('skilldeck skills deps', () => {
  it('lists what is missing with numbered commands, installs the one asked for, and checks again', () => {
    const listed = run('lamp');
    expect(listed.status).toBe(1);
    expect(listed.stdout).toContain(`lamp needs, and this PATH lacks: ${bin}`);
    expect(listed.stdout).toContain(`1. npm install -g ${tarball}`);
    expect(listed.stdout).toMatch(/2\. sudo apt install deps-cli-test {3}— copy into a terminal/);

    // The apt line is shown, never run; a number out of range runs nothing.
    expect(run('lamp', '--install', '2').stderr).toMatch(/does not run "sudo apt install/);
    expect(run('lamp', '--install', '7').status).toBe(2);
    expect(fs.existsSync(path.join(prefix, 'bin', bin))).toBe(false);

    const installed = run('lamp', '--install', '1', '--json');
    expect(installed.status).toBe(0);
    const out = JSON.parse(installed.stdout) as { missing: string[]; installed: DependencyInstall };
    expect(out.missing).toEqual([]);
    expect(DependencyInstall.parse(out.installed)).toMatchObject({ ok: true, exit_code: 0, missing: [] });
    expect(fs.existsSync(path.join(prefix, 'bin', bin))).toBe(true);

    const after = run('lamp');
    expect(after.status).toBe(0);
    expect(after.stdout).toContain('lamp has every program it needs.');
  }, 180_000);

  it('names an unknown skill, in JSON too', () => {
    const unknown = run('no-such-skill', '--json');
    expect(unknown.status).toBe(2);
    expect(JSON.parse(unknown.stdout)).toEqual({ error: expect.stringContaining('No skill named') });
  });
});
