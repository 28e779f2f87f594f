import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../testing/fixtures';
import { classifyRun } from '../classify';
import { createBwrapBackend } from './bwrap';
import { diskFilesMeter, diskSpaceMeter } from './diskWatch';
import { DEFAULT_LIMITS } from './limits';
import { createProcessBackend } from './process';
import type { SandboxBackend, SandboxSpec } from './types';

const MiB = 1024 * 1024;

/** Bytes under `dir`, every file counted. */
function treeBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  return total;
}

function writeSynced(file: string, bytes: number): void {
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, Buffer.alloc(bytes, 1));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

// RLIMIT_FSIZE caps one file; a loop of files under it would still fill the disk. The engine
// watches the free space of what a run can write to and stops it past its disk limit.
describe('the disk limit', () => {
  let root: string;
  beforeAll(() => {
    root = tempDir('skilldeck-disk-');
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('meters the free space taken since it was made, each filesystem once', () => {
    const dir = path.join(root, 'meter');
    fs.mkdirSync(dir);
    // Two paths on one filesystem, one of them not made yet (a write grant): counted once.
    const taken = diskSpaceMeter([dir, path.join(dir, 'not', 'yet'), root]);
    writeSynced(path.join(dir, 'a.bin'), 48 * MiB);
    // The machine's free space moves with everything else on it too: a margin either way.
    expect(taken()).toBeGreaterThan(40 * MiB);
    expect(taken()).toBeLessThan(96 * MiB);
    fs.rmSync(path.join(dir, 'a.bin'));
    expect(taken()).toBeLessThan(16 * MiB);
  });

  it('meters a write grant that does not exist yet on the disk of its nearest existing folder', () => {
    const dir = path.join(root, 'grant');
    fs.mkdirSync(dir);
    const taken = diskSpaceMeter([path.join(dir, 'out', 'not', 'made')]);
    writeSynced(path.join(dir, 'b.bin'), 48 * MiB);
    expect(taken()).toBeGreaterThan(40 * MiB);
    fs.rmSync(path.join(dir, 'b.bin'));
  });

  it('meters nothing when given nothing to watch', () => {
    expect(diskSpaceMeter([])()).toBe(0);
  });

  const loop = [
    'mkdir -p out',
    'i=0',
    // Files of 4 MiB, each under the file-size limit, without end.
    'while :; do head -c 4194304 /dev/zero > out/f$i || exit 3; i=$((i+1)); done',
  ].join('\n');

  const spec = (cwd: string): SandboxSpec => ({
    command: '/bin/bash',
    args: ['-c', loop],
    cwd,
    skillDir: root,
    grants: {
      read: [],
      write: [],
      network: false,
      env: { PATH: '/usr/bin:/bin', HOME: root },
      declared: { read: [], write: [] },
    },
    timeoutMs: 60_000,
    maxOutputBytes: 64 * 1024,
    limits: { ...DEFAULT_LIMITS, fileBytes: 16 * MiB, diskBytes: 64 * MiB },
  });

  const backends: [string, () => SandboxBackend][] = [
    ['bwrap', () => createBwrapBackend({ home: root })],
    ['process', () => createProcessBackend()],
  ];

  it.for(backends)(
    '%s: a run that writes file after file is stopped at its disk limit, and told',
    { timeout: 90_000 },
    async ([name, make]) => {
      const cwd = path.join(root, `run-${name}`);
      fs.mkdirSync(cwd, { recursive: true });
      const r = await make().run(spec(cwd));
      expect(r.setupError).toBeUndefined();
      expect(r.timedOut).toBe(false);
      // Stopped by the watch within a poll or two of passing 64 MiB, not by the 60 s timeout.
      expect(r.durationMs).toBeLessThan(30_000);
      const written = treeBytes(cwd);
      expect(written).toBeGreaterThan(60 * MiB);
      expect(written).toBeLessThan(64 * MiB + 256 * MiB);
      expect(r.violations).toContainEqual({
        kind: 'output',
        target: `${64 * MiB} bytes of disk`,
        message: 'wrote more than 64 MiB to disk in all, its disk limit, and was stopped',
      });
      const verdict = classifyRun(r);
      expect(verdict.status).toBe('blocked');
      expect(verdict.error).toMatch(/its disk limit/);
    },
  );

  it('leaves a run that stays under its disk limit alone', async () => {
    const cwd = path.join(root, 'run-small');
    fs.mkdirSync(cwd, { recursive: true });
    const r = await createBwrapBackend({ home: root }).run({
      ...spec(cwd),
      args: ['-c', 'mkdir -p out && head -c 8388608 /dev/zero > out/one && sync && echo done'],
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('done\n');
    expect(r.violations).toEqual([]);
  });

  it('meters the files and folders made since it was made', () => {
    const dir = path.join(root, 'files-meter');
    fs.mkdirSync(dir);
    const made = diskFilesMeter([dir, root]);
    for (let i = 0; i < 3000; i++) fs.writeFileSync(path.join(dir, `f${i}`), '');
    // Others on the machine make and remove files too: a margin either way.
    expect(made()).toBeGreaterThan(2000);
    expect(made()).toBeLessThan(50_000);
    fs.rmSync(dir, { recursive: true });
  });

  // Empty files take no blocks, so the byte watch never sees them; 200 runs kept, each with
  // millions of them, would use up the inodes of the user's disk (a probe made 91,000 in 8 s).
  const tiny = ['mkdir -p out', 'i=0', 'while :; do : > out/f$i || exit 3; i=$((i+1)); done'].join('\n');

  it.for(backends)(
    '%s: a run that makes empty file after empty file is stopped at its file-count limit, and told',
    { timeout: 90_000 },
    async ([name, make]) => {
      const cwd = path.join(root, `tiny-${name}`);
      fs.mkdirSync(cwd, { recursive: true });
      const r = await make().run({
        ...spec(cwd),
        args: ['-c', tiny],
        limits: { ...DEFAULT_LIMITS, diskFiles: 5000 },
      });
      expect(r.setupError).toBeUndefined();
      expect(r.timedOut).toBe(false);
      expect(r.durationMs).toBeLessThan(45_000);
      const made = fs.readdirSync(cwd, { recursive: true }).length;
      expect(made).toBeGreaterThan(1000);
      expect(r.violations).toContainEqual({
        kind: 'output',
        target: '5000 files',
        message: 'made more than 5000 files and folders in all, its file-count limit, and was stopped',
      });
      const verdict = classifyRun(r);
      expect(verdict.status).toBe('blocked');
      expect(verdict.error).toMatch(/its file-count limit/);
    },
  );
});
