import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../testing/fixtures';
import { groupOfStat, processGroupCounter, sandboxProcessCounter } from './processWatch';
import { runGuarded } from './spawn';
import { PID_NS, processesWith, waitFor } from './testing/harness';

/** A shell starting `n` sleeps (marked, to find them from outside) and waiting for them. */
const sleeps = (n: number, marker: string) => [
  '/bin/sh',
  '-c',
  `for i in $(seq ${n}); do sleep ${marker} & done; wait`,
];
/** A sleep length no other process on the machine uses, to find the run's sleeps by. */
const marker = () => `${30 + (process.pid % 1000)}.${Math.floor(Math.random() * 1e6)}`;

const started: ChildProcess[] = [];
function start(args: string[], extraFd = false): ChildProcess {
  const child = spawn('bwrap', args, {
    stdio: ['ignore', 'ignore', 'ignore', ...(extraFd ? (['pipe'] as const) : [])],
    detached: true,
  });
  started.push(child);
  // The pipe to --block-fd resets when bwrap dies.
  child.stdio[3]?.on('error', () => {});
  return child;
}
const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((done) => child.once('exit', () => done()));
/** Polls `count` until it returns `want` (bwrap needs a moment to set up); the last value otherwise. */
async function settle(count: () => number, want: number, ms = 3000): Promise<number> {
  let n = count();
  for (const end = Date.now() + ms; n !== want && Date.now() < end; n = count())
    await new Promise((r) => setTimeout(r, 20));
  return n;
}

afterAll(() => {
  for (const child of started)
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Gone already.
    }
});

// The counter behind a root run's process limit (bwrap.limits.test.ts runs it through the
// backend): real bwrap processes, counted from outside as the engine counts them.
describe('sandboxProcessCounter', () => {
  it("counts nothing while the child still has the host's root (bwrap before pivot_root)", async () => {
    // A plain parent and child: the child's root and /proc are the host's, which hold every
    // process of the machine. Counted, a busy desktop would pass the limit at once.
    const parent = spawn('/bin/sh', ['-c', 'sleep 30 & wait'], { stdio: 'ignore', detached: true });
    try {
      await new Promise((done) => setTimeout(done, 200));
      expect(sandboxProcessCounter(parent.pid!)()).toBe(0);
    } finally {
      process.kill(-parent.pid!, 'SIGKILL');
    }
  });

  it('counts nothing for a process that is gone', () => {
    expect(sandboxProcessCounter(2 ** 22 + 1)()).toBe(0);
  });

  it("counts the PID namespace's processes: its init alone while bwrap waits, every one while the run forks, none once it is gone", async () => {
    // --block-fd holds bwrap after it mounted the namespace's /proc, before it starts the command.
    const bwrap = start(['--block-fd', '3', ...PID_NS, '--', ...sleeps(12, marker())], true);
    const count = sandboxProcessCounter(bwrap.pid!);
    expect(await settle(count, 1)).toBe(1);
    (bwrap.stdio[3] as Writable).end('go');
    // Its init, the shell and twelve sleeps: pids 1 to 14, two-digit ones included.
    expect(await settle(count, 14)).toBe(14);
    expect(count()).toBe(14);
    process.kill(-bwrap.pid!, 'SIGKILL');
    await exited(bwrap);
    expect(await settle(count, 0)).toBe(0);
  });

  it('counts only the entries of that /proc named by a pid', async () => {
    // A /proc of the run's own (not the host's) that the test wrote: bwrap without a PID
    // namespace, its child's /proc a folder holding three pids and names that merely hold digits.
    const fake = tempDir('skilldeck-fakeproc-');
    try {
      for (const name of ['1', '22', '333', 'self', 'sys', 'net6', '4x', 'x4y'])
        fs.mkdirSync(path.join(fake, name));
      const bwrap = start(['--ro-bind', '/', '/', '--bind', fake, '/proc', '--', 'sleep', marker()]);
      expect(await settle(sandboxProcessCounter(bwrap.pid!), 3)).toBe(3);
    } finally {
      fs.rmSync(fake, { recursive: true, force: true });
    }
  });

  it('stays with the /proc it found first: once that is gone it counts nothing, not the next child', async () => {
    // A parent with two children, each in a mount namespace with a /proc of its own: the
    // first's holds two pids, the second's five. Killed, the first is not replaced by the second.
    const procs = [tempDir('skilldeck-fakeproc-'), tempDir('skilldeck-fakeproc-')];
    try {
      procs.forEach((dir, i) => {
        for (const pid of ['1', '2', '3', '4', '5'].slice(0, i === 0 ? 2 : 5))
          fs.mkdirSync(path.join(dir, pid));
      });
      const own = (dir: string) =>
        `unshare --mount --propagation private sh -c 'mount --bind ${dir} /proc && exec sleep ${marker()}'`;
      const parent = spawn('/bin/sh', ['-c', `${own(procs[0])} & ${own(procs[1])} & wait`], {
        stdio: 'ignore',
        detached: true,
      });
      started.push(parent);
      const count = sandboxProcessCounter(parent.pid!);
      expect(await settle(count, 2)).toBe(2);
      const children = () =>
        fs
          .readFileSync(`/proc/${parent.pid}/task/${parent.pid}/children`, 'utf8')
          .trim()
          .split(' ')
          .map(Number);
      const [first, second] = children();
      const pidsOfSecond = () => fs.readdirSync(`/proc/${second}/root/proc`).length;
      await waitFor(() => pidsOfSecond() === 5);
      expect(pidsOfSecond()).toBe(5);
      process.kill(first, 'SIGKILL');
      await waitFor(() => children()[0] === second);
      expect(children()).toEqual([second]);
      expect(count()).toBe(0);
    } finally {
      for (const dir of procs) fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

// spawn.ts polls the counter while the run lasts and stops it past the limit.
describe('runGuarded with a process watch', () => {
  const guarded = (script: string[], limit: number) =>
    runGuarded({
      file: 'bwrap',
      args: [...PID_NS, '--', ...script],
      cwd: '/',
      env: { PATH: '/usr/bin:/bin' },
      timeoutMs: 20_000,
      maxOutputBytes: 64 * 1024,
      processWatch: { limit, counter: sandboxProcessCounter },
    });
  let root: string;
  beforeAll(() => {
    root = tempDir('skilldeck-watch-');
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('stops a run past its process limit, says so, and leaves none of its processes', async () => {
    const mark = marker();
    const r = await guarded(sleeps(40, mark), 10);
    expect(r.processesExceeded).toBe(true);
    expect(r.exitCode).not.toBe(0);
    expect(r.timedOut).toBe(false);
    expect(r.durationMs).toBeLessThan(10_000);
    await waitFor(() => processesWith(mark).length === 0);
    expect(processesWith(mark)).toEqual([]);
  });

  it('lets a run under its limit finish', async () => {
    const r = await guarded(
      ['/bin/sh', '-c', 'for i in $(seq 12); do sleep 0.3 & done; wait; echo done'],
      20,
    );
    expect(r.processesExceeded).toBeUndefined();
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('done\n');
  });
});

describe('counting a process group (the process tier)', () => {
  it('reads the group from a stat line, a command with blanks and parentheses included', () => {
    expect(groupOfStat('4242 (my (odd) prog) S 1 4240 4240 0 -1 4194560')).toBe(4240);
    expect(groupOfStat('garbage')).toBeNull();
  });

  it('counts the processes of one group, its leader with them, and no other', async () => {
    const mark = marker();
    const [file, ...args] = sleeps(5, mark);
    const child = spawn(file, args, { detached: true, stdio: 'ignore' });
    started.push(child);
    // The shell's own command line holds the marker too: six is the shell and all five sleeps
    // (five was the shell and four, so a slow machine could count while the fifth was forked).
    await waitFor(() => processesWith(mark).length === 6, 10_000);
    // The shell and its five sleeps; this test's own group is another one.
    expect(processGroupCounter(child.pid!)()).toBe(6);
    expect(processGroupCounter(2 ** 22 + 7)()).toBe(0);
    process.kill(-child.pid!, 'SIGKILL');
  });
});
