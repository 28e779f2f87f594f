import fs from 'node:fs';

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `body` while holding `lockFile` (created exclusively, removed after), so a read-modify-write
 * of a shared file is not interleaved with another process's (the app and a CLI, two CLIs at once).
 * The critical sections are a few milliseconds of synchronous work: waiting is a short sleep loop.
 * A lock older than `staleMs` is a crashed holder's and is taken over; after `waitMs` the body runs
 * anyway, since losing the caller's write is worse than the rare race the lock is there to prevent.
 */
export function withFileLock<T>(lockFile: string, body: () => T, waitMs = 5_000, staleMs = 10_000): T {
  const started = Date.now();
  let held = false;
  while (!held) {
    try {
      fs.closeSync(fs.openSync(lockFile, 'wx', 0o600));
      held = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') break;
      const since = fs.statSync(lockFile, { throwIfNoEntry: false })?.mtimeMs;
      if (since !== undefined && Date.now() - since > staleMs) fs.rmSync(lockFile, { force: true });
      else if (Date.now() - started > waitMs) break;
      else Atomics.wait(pause, 0, 0, 10);
    }
  }
  try {
    return body();
  } finally {
    if (held) fs.rmSync(lockFile, { force: true });
  }
}
