import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { skillMd, tempDir, writeTree } from '../testing/fixtures';
import { buildCliBundle } from '../testing/cliBundle';

// Restoring an older version over the one installed now swaps them: the user must be told where
// the current one went, or it looks lost.
const root = tempDir('skilldeck-cli-restore-');
const cli = path.join(root, 'cli.cjs');
const home = path.join(root, 'home');

beforeAll(async () => {
  await buildCliBundle(cli);
}, 60_000);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const skilldeck = (...args: string[]) =>
  spawnSync(process.execPath, [cli, ...args], {
    cwd: root,
    env: { ...process.env, SKILLDECK_HOME: home, HOME: path.join(root, 'user') },
    encoding: 'utf8',
  });

it('says where the version in place went when a restore swaps it out, and can swap back', () => {
  const v1 = path.join(root, 'v1', 'notes');
  const v2 = path.join(root, 'v2', 'notes');
  writeTree(v1, { 'SKILL.md': skillMd('notes', 'Takes notes, version one.') });
  writeTree(v2, { 'SKILL.md': skillMd('notes', 'Takes notes, version two.') });
  expect(skilldeck('skills', 'install', v1, '--yes').status).toBe(0);
  const replaced = skilldeck('skills', 'install', v2, '--yes', '--replace');
  const oldId = /kept in the trash: (\S+?)\)/.exec(replaced.stdout)?.[1];
  expect(oldId, replaced.stdout).toBeTruthy();

  const restore = skilldeck('skills', 'restore', oldId!);
  expect(restore.status, restore.stderr).toBe(0);
  const installed = () => fs.readFileSync(path.join(home, 'skills', 'notes', 'SKILL.md'), 'utf8');
  expect(installed()).toContain('version one');
  const swappedId = /skilldeck skills restore (\S+)/.exec(restore.stdout)?.[1];
  expect(restore.stdout).toMatch(/version that was there.*trash/);
  expect(swappedId, restore.stdout).toBeTruthy();

  expect(skilldeck('skills', 'restore', swappedId!).status).toBe(0);
  expect(installed()).toContain('version two');
});
