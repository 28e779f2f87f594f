import { execFileSync, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIMITS,
  limitViolations,
  prlimitPath,
  userProcessCount,
  withLimits,
  type AppliedLimits,
} from './limits';

const LIMITS = { fileBytes: 1024 * 1024, processes: 30, memoryBytes: 256 * 1024 * 1024 };
const applied = (processLimit: number | null): AppliedLimits => ({ ...LIMITS, processLimit });
const ended = (stderr: string, exitCode: number | null = 1, signal: string | null = null) => ({
  stderr,
  exitCode,
  signal,
});

describe('withLimits', () => {
  it('wraps a program in prlimit: file size, memory and no core for everyone, the process count above what the user runs', () => {
    expect(prlimitPath()).not.toBeNull();
    const asUser = withLimits('/bin/sh', ['-c', 'true'], LIMITS, process.getuid!() || 4242);
    expect(asUser.file).toBe(prlimitPath());
    const nproc = Number(/--nproc=(\d+)/.exec(asUser.args.join(' '))?.[1]);
    expect(nproc).toBe(asUser.applied!.processLimit);
    expect(nproc).toBeGreaterThanOrEqual(30);
    expect(asUser.args).toEqual([
      '--fsize=1048576',
      '--data=268435456',
      '--core=0',
      `--nproc=${nproc}`,
      '--',
      '/bin/sh',
      '-c',
      'true',
    ]);
    // The kernel never counts root's processes: no --nproc, and nothing claims it was set.
    const asRoot = withLimits('/bin/sh', ['-c', 'true'], LIMITS, 0);
    expect(asRoot.args).toEqual([
      '--fsize=1048576',
      '--data=268435456',
      '--core=0',
      '--',
      '/bin/sh',
      '-c',
      'true',
    ]);
    expect(asRoot.applied).toEqual(applied(null));
  });

  it('leaves a program that cannot start alone, so it fails as itself', () => {
    expect(withLimits('/nonexistent/tool', ['x'], LIMITS, 0)).toEqual({
      file: '/nonexistent/tool',
      args: ['x'],
      applied: null,
    });
  });

  it('counts the processes a user runs from /proc, and nothing else there', async (ctx) => {
    if (process.getuid?.() !== 0) return ctx.skip('needs root to start processes as another uid');
    // A uid nothing else uses: exactly the three sleeps started as it.
    const uid = 54_321;
    const kids = [0, 1, 2].map(() => spawn('sleep', ['5'], { uid, gid: uid, stdio: 'ignore' }));
    try {
      await Promise.all(kids.map((k) => new Promise((done) => k.once('spawn', done))));
      expect(userProcessCount(uid)).toBe(3);
    } finally {
      for (const k of kids) k.kill('SIGKILL');
    }
    expect(userProcessCount(2 ** 31 - 7)).toBe(0);
    // Root owns /proc's fifty-odd non-pid entries too (self, sys, …): they are not processes.
    const ps = execFileSync('ps', ['-e', '-o', 'uid='], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.trim() === '0').length;
    expect(userProcessCount(0)).toBeLessThan(ps + 25);
  });
});

describe('limitViolations', () => {
  const fileSize = {
    kind: 'output',
    target: '1048576 bytes per file',
    message: 'tried to write a file larger than 1 MiB, its file-size limit',
  };
  const forks = {
    kind: 'exec',
    target: '30 processes',
    message: 'tried to start more than 30 processes, its process limit',
  };

  it.each([
    ['Python', 'OSError: [Errno 27] File too large'],
    ['Node', 'Error: EFBIG: file too large, write'],
    ['bash', 'probe.sh: line 3:     4 File size limit exceeded head -c 3145728 /dev/zero > out/big.bin'],
    ['dd', "dd: error writing 'out/x': File too large"],
  ])('names the file-size limit from what %s prints', (_, stderr) => {
    expect(limitViolations(ended(stderr), applied(null))).toEqual([fileSize]);
  });

  it('names it from the signal or from the 128 + SIGXFSZ exit a wrapper reports', () => {
    expect(limitViolations(ended('', null, 'SIGXFSZ'), applied(null))).toEqual([fileSize]);
    expect(limitViolations(ended('', 153), applied(null))).toEqual([fileSize]);
  });

  it.each([
    ['Python', 'BlockingIOError: [Errno 11] Resource temporarily unavailable'],
    ['Node', 'spawn sleep EAGAIN'],
    ['bash', 'probe.sh: fork: retry: Resource temporarily unavailable'],
    ['bash, at last', 'probe.sh: fork: Resource temporarily unavailable'],
    ['a Node wrapper', 'Error: EAGAIN while trying to spawn the worker'],
    ['bwrap', "bwrap: Can't fork for pid 1: Resource temporarily unavailable"],
  ])('names the process limit from what %s prints, where it was set', (_, stderr) => {
    expect(limitViolations(ended(stderr), applied(80))).toEqual([forks]);
    // As root no process limit was set: the same words are the script's own trouble.
    expect(limitViolations(ended(stderr), applied(null))).toEqual([]);
  });

  const memory = {
    kind: 'output',
    target: '268435456 bytes of memory',
    message: 'ran out of memory at its 256 MiB memory limit',
  };

  it.each([
    ['Python', 'Traceback (most recent call last):\n  File "probe.py", line 2\nMemoryError'],
    ['V8', 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory'],
    ['a Node buffer', 'RangeError: Array buffer allocation failed'],
    ['C++', "terminate called after throwing an instance of 'std::bad_alloc'"],
    ['bash', 'probe.sh: xrealloc: cannot allocate 268042240 bytes'],
    ['libc', 'convert: Cannot allocate memory'],
  ])('names the memory limit from what %s prints when the run failed', (_, stderr) => {
    expect(limitViolations(ended(stderr), applied(null))).toEqual([memory]);
    expect(limitViolations(ended(stderr, null, 'SIGABRT'), applied(80))).toEqual([memory]);
    // A run that succeeded and mentions it (a test suite's log, say) ran into nothing.
    expect(limitViolations(ended(stderr, 0), applied(null))).toEqual([]);
  });

  it('says the default memory limit in GiB', () => {
    expect(limitViolations(ended('MemoryError'), { ...DEFAULT_LIMITS, processLimit: null })[0].message).toBe(
      'ran out of memory at its 4 GiB memory limit',
    );
  });

  it("does not read a service's own words as a limit", () => {
    const stderr = 'upload failed: 413 File too large for this endpoint\nError: try again later (EAGAIN)';
    expect(limitViolations(ended(stderr), applied(80))).toEqual([]);
    expect(limitViolations(ended(''), applied(80))).toEqual([]);
  });

  it('says the default file size in GiB', () => {
    expect(
      limitViolations(ended('', null, 'SIGXFSZ'), { ...DEFAULT_LIMITS, processLimit: null })[0].message,
    ).toBe('tried to write a file larger than 1 GiB, its file-size limit');
  });

  // The stderr is the skill's, up to the 1 MiB output cap, and read on the engine's thread.
  it('reads a 1 MiB hostile stderr quickly', () => {
    for (const token of ['error writing ', ' spawn ', ' EAGAIN ']) {
      const stderr = token.repeat(Math.floor((1024 * 1024) / token.length));
      const started = performance.now();
      limitViolations(ended(stderr), applied(80));
      expect(performance.now() - started, token).toBeLessThan(1000);
    }
    expect(limitViolations(ended('Error: spawn /bin/sh EAGAIN'), applied(80))).toEqual([forks]);
    expect(limitViolations(ended('EAGAIN: could not spawn'), applied(80))).toEqual([forks]);
    expect(limitViolations(ended('spawn ok\nEAGAIN'), applied(80))).toEqual([]);
  }, 120_000);

  it('says nothing when no limit could be set', () => {
    expect(limitViolations(ended('OSError: [Errno 27] File too large', null, 'SIGXFSZ'), null)).toEqual([]);
  });
});
