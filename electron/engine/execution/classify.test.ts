import { describe, expect, it } from 'vitest';
import { classifyRun, secondsText } from './classify';
import type { SandboxResult } from './sandbox/types';

const failed = (stderr: string, exitCode = 1): SandboxResult => ({
  tier: 'bwrap',
  exitCode,
  signal: null,
  stdout: '',
  stderr,
  truncated: false,
  timedOut: false,
  cancelled: false,
  durationMs: 10,
  refusedHosts: [],
  violations: [],
});

describe('classifyRun', () => {
  it('calls a missing program fatal, and a transient failure retryable', () => {
    expect(classifyRun(failed('run.sh: line 1: jq: command not found', 127))).toMatchObject({
      status: 'failure',
      outcome: 'fatal',
    });
    expect(
      classifyRun(failed('No such file or directory (os error 2) while trying to exec foo')),
    ).toMatchObject({
      outcome: 'fatal',
      error: expect.stringMatching(/^A program the skill needs is missing/),
    });
    // The exec or spawn must be on the line that says so.
    expect(classifyRun(failed('No such file or directory\nspawn later')).error).toMatch(/^exit 1: /);
    expect(classifyRun(failed('curl: (6) Temporary failure in resolving'))).toMatchObject({
      outcome: 'retryable',
    });
  });

  it('says which signal an exit of 128 + N stands for, which is all bwrap reports of one', () => {
    expect(classifyRun(failed('', 137)).error).toBe(
      'exit 137, as a process killed by SIGKILL exits: (no output)',
    );
    expect(classifyRun(failed('Segmentation fault', 139)).error).toBe(
      'exit 139, as a process killed by SIGSEGV exits: Segmentation fault',
    );
    expect(classifyRun(failed('usage', 2)).error).toBe('exit 2: usage');
    expect(classifyRun(failed('', 255)).error).toBe('exit 255: (no output)');
  });

  it('says a timeout under a second as such, not rounded up to "1 s"', () => {
    const slow = { ...failed(''), timedOut: true, exitCode: null, durationMs: 530 };
    expect(classifyRun(slow).error).toMatch(/^Timed out after 0\.5 s; the whole process tree was stopped/);
    expect(secondsText(1040)).toBe('1 s');
    expect(secondsText(120_300)).toBe('120 s');
    expect(secondsText(20)).toBe('0.1 s');
  });

  // The stderr is the skill's, up to the 1 MiB output cap, and classified on the engine's thread.
  it('classifies a 1 MiB hostile stderr quickly', () => {
    for (const token of ['No such file or directory ', 'rate ', 'temporary ']) {
      const stderr = token.repeat(Math.floor((1024 * 1024) / token.length));
      const started = performance.now();
      classifyRun(failed(stderr));
      expect(performance.now() - started, token).toBeLessThan(1000);
    }
  }, 120_000);
});
