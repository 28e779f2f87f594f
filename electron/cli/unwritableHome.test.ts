import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunResult } from '../../shared/contract';
import { ensureProbeUser, PROBE_USER } from '../engine/execution/sandbox/testing/harness';
import { buildCliBundle } from '../testing/cliBundle';
import { envWithoutModel, tempDir, writeTree } from '../testing/fixtures';

// Probing `skilldeck run` as a user who cannot write $SKILLDECK_HOME (owned by root, or read-only
// media): it failed with a stack trace ("EACCES: permission denied, mkdir …/runs/…") and
// `--json` printed {"error": …} instead of the run shape. As root, the run goes as a throwaway
// user; as anyone else, the home is made read-only.
const root = tempDir('skilldeck-cli-home-');
const cli = path.join(root, 'cli.cjs');
const skills = path.join(root, 'skills');
const home = path.join(root, 'home');
const asRoot = process.getuid?.() === 0;

beforeAll(async () => {
  await buildCliBundle(cli);
  if (asRoot) await ensureProbeUser();
  writeTree(skills, {
    'hello/SKILL.md': '---\nname: hello\ndescription: Says hello.\n---\n',
    'hello/skill.yaml': 'spec: { type: script }\n',
    'hello/scripts/run.sh': '#!/bin/bash\necho hello\n',
  });
  fs.mkdirSync(home);
  fs.chmodSync(root, 0o755);
  fs.chmodSync(home, asRoot ? 0o755 : 0o555);
}, 60_000);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('a $SKILLDECK_HOME this user cannot write (real CLI)', () => {
  it('is named in a one-line error and, with --json, in the run shape', () => {
    const args = [cli, 'run', 'hello', 'go', '--approve', '--json', '--no-default-paths', '--skills', skills];
    const env = { ...envWithoutModel(), SKILLDECK_HOME: home, HOME: root };
    const run = asRoot
      ? spawnSync(
          'runuser',
          [
            '-u',
            PROBE_USER,
            '--',
            '/usr/bin/env',
            ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
            process.execPath,
            ...args,
          ],
          { encoding: 'utf8', cwd: root },
        )
      : spawnSync(process.execPath, args, { encoding: 'utf8', cwd: root, env });
    expect(run.status).toBe(1);
    const result = RunResult.pick({ status: true, error: true, sandbox: true }).parse(JSON.parse(run.stdout));
    expect(result.status).toBe('failure');
    expect(result.error).toBe(
      `SkillDeck cannot write its data folder ${home} (permission denied); it keeps each run's folder and record there. Set SKILLDECK_HOME to a folder you can write, or give this user that one.`,
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
