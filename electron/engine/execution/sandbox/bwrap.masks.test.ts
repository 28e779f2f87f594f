import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { selectBackend } from './index';

// issue 7: writable only the grants and the run folder — the masked home and /tmp are
// read-only inside, so a write there fails and is named instead of vanishing with a tmpfs.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldeck-masks-'));
// A fake home outside /tmp (which is masked as a whole), as a real one would be.
const homeRoot = fs.mkdtempSync(path.join(__dirname, '../../../../node_modules/.cache-masks-'));
const home = path.join(homeRoot, 'home');
const cwd = path.join(root, 'work');
const skillDir = path.join(root, 'skill');
for (const d of [home, cwd, skillDir]) fs.mkdirSync(d, { recursive: true });
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(homeRoot, { recursive: true, force: true });
});

const run = (script: string) =>
  selectBackend('os', { home }).backend.run({
    command: '/bin/bash',
    args: ['-c', script],
    cwd,
    skillDir,
    grants: {
      read: [],
      write: [],
      network: false,
      env: { PATH: '/usr/bin:/bin', HOME: home, TMPDIR: cwd },
      declared: { read: [], write: ['./out/**'] },
    },
    timeoutMs: 10_000,
    maxOutputBytes: 64 * 1024,
  });

describe('masked folders are read-only inside bwrap', () => {
  it.each([
    ['the home', `${home}/.bashrc-evil`],
    ['/tmp', '/tmp/skilldeck-evil'],
  ])('a write to %s fails with an exact violation and leaves nothing on the host', async (_where, target) => {
    const r = await run(`echo x > ${target}`);
    expect(r.tier).toBe('bwrap');
    expect(r.exitCode).not.toBe(0);
    expect(r.violations).toContainEqual(
      expect.objectContaining({
        kind: 'write',
        message: expect.stringMatching(/^tried to write .*, outside its write paths \.\/out\/\*\*$/),
      }),
    );
    expect(fs.existsSync(target)).toBe(false);
  });

  it('the run folder and TMPDIR inside it stay writable', async () => {
    const r = await run('echo ok > "$TMPDIR/t" && cat "$TMPDIR/t" && mkdir -p out && echo y > out/f');
    expect(r).toMatchObject({ exitCode: 0, stdout: 'ok\n', violations: [] });
    expect(fs.readFileSync(path.join(cwd, 'out', 'f'), 'utf8')).toBe('y\n');
  });
});
