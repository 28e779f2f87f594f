import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../testing/fixtures';
import { classifyRun } from '../classify';
import { createBwrapBackend } from './bwrap';
import { DEFAULT_LIMITS } from './limits';
import { createProcessBackend } from './process';
import type { SandboxBackend, SandboxSpec } from './types';

// RLIMIT_DATA caps each process, not the run: probing `skilldeck run`, a script that started
// process after process, each under the limit (or one that kept its memory in a memfd, which
// RLIMIT_DATA does not count at all), held as much of the machine's memory as it liked; as root
// up to 256 processes × 4 GiB. The engine now adds up what the run's processes hold and stops
// it past its memory limit, as it does for disk.
const MiB = 1024 * 1024;
const root = tempDir('skilldeck-memwatch-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/**
 * Python that holds `mib` MiB of written memory, says so, and waits: in a mapped memfd (`mapped`),
 * in a memfd only written through its descriptor, never mapped (`unmapped`: no process's RSS
 * shows it, which the first watch missed), or allocated.
 */
const holder = (mib: number, memfd: 'mapped' | 'unmapped' | false = false) =>
  memfd === 'mapped'
    ? `import os, mmap, time; n = ${mib} * ${MiB}; fd = os.memfd_create('m'); os.ftruncate(fd, n); m = mmap.mmap(fd, n); [m.write(b'\\x01' * ${MiB}) for _ in range(${mib})]; print('holding', flush=True); time.sleep(8)`
    : memfd === 'unmapped'
      ? `import os, time; fd = os.memfd_create('m'); c = b'\\x01' * ${MiB}; [os.write(fd, c) for _ in range(${mib})]; del c; print('holding', flush=True); time.sleep(8)`
      : `import time; b = b'\\x01' * (${mib} * ${MiB}); print('holding', flush=True); time.sleep(8)`;

const spec = (cwd: string, script: string): SandboxSpec => ({
  command: '/bin/bash',
  args: ['-c', script],
  cwd,
  skillDir: path.join(root, 'skill'),
  grants: {
    read: [],
    write: [],
    network: false,
    env: { PATH: '/usr/bin:/bin', HOME: root },
    declared: { read: [], write: [] },
  },
  timeoutMs: 30_000,
  maxOutputBytes: 64 * 1024,
  limits: { ...DEFAULT_LIMITS, memoryBytes: 200 * MiB },
});

const backends: [string, () => SandboxBackend][] = [
  ['bwrap', () => createBwrapBackend({ home: root })],
  ['process', () => createProcessBackend()],
];
const scripts: [string, string][] = [
  [
    'four processes of 100 MiB',
    [1, 2, 3, 4].map(() => `python3 -c "${holder(100)}" &`).join('\n') + '\nwait',
  ],
  ['one process with 300 MiB in a memfd', `python3 -c "${holder(300, 'mapped')}"`],
  ['one process with 300 MiB in a memfd it never maps', `python3 -c "${holder(300, 'unmapped')}"`],
];
fs.mkdirSync(path.join(root, 'skill'), { recursive: true });

describe.each(backends)('%s: the memory a run holds in all', (name, make) => {
  it.for(scripts)(
    '%s, past its 200 MiB limit: stopped, and told',
    { timeout: 60_000 },
    async ([label, script]) => {
      const cwd = path.join(root, `run-${name}-${label.replaceAll(' ', '-')}`);
      fs.mkdirSync(cwd, { recursive: true });
      const r = await make().run(spec(cwd, script));
      expect(r.setupError).toBeUndefined();
      expect(r.timedOut).toBe(false);
      expect(r.durationMs).toBeLessThan(8_000);
      expect(r.violations).toContainEqual({
        kind: 'output',
        target: `${200 * MiB} bytes of memory`,
        message: 'held more than 200 MiB of memory in all, its memory limit, and was stopped',
      });
      expect(classifyRun(r).status).toBe('blocked');
    },
  );

  it('two processes of 60 MiB, under it: left alone', { timeout: 60_000 }, async () => {
    const cwd = path.join(root, `run-${name}-under`);
    fs.mkdirSync(cwd, { recursive: true });
    const quick = holder(60).replace('time.sleep(8)', 'time.sleep(1)');
    const r = await make().run(spec(cwd, `python3 -c "${quick}" & python3 -c "${quick}" & wait; echo done`));
    expect(r.stdout).toBe('holding\nholding\ndone\n');
    expect(r.exitCode).toBe(0);
    expect(r.violations).toEqual([]);
  });
});
