import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { sandboxProcessCounter } from './processWatch';

// The counter behind a root run's process limit (bwrap.limits.test.ts runs it for real).
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
});
