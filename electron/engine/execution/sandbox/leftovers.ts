import fs from 'node:fs';
import { isInside } from './layout';

// Process isolation kills a run's process group, but a program that starts its own session
// (setsid, a daemon's double fork) leaves the group and would outlive the run (DESIGN §4:
// "a timeout that kills the whole tree"). On Linux such leftovers are found by what they
// keep of the run: a working folder inside its folder, or its own TMPDIR in their
// environment. Best effort: a program that changes both is not found.

/** Processes of `uid`, the engine excepted, working inside `run.cwd` or holding `TMPDIR=run.tmpdir`. */
export function findLeftovers(
  run: { cwd: string; tmpdir?: string },
  uid: number | undefined = process.getuid?.(),
): number[] {
  if (process.platform !== 'linux' || uid === undefined) return [];
  const marker = run.tmpdir ? Buffer.from(`TMPDIR=${run.tmpdir}\0`) : null;
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (fs.statSync(`/proc/${entry}`).uid !== uid) continue;
      if (isInside(fs.readlinkSync(`/proc/${entry}/cwd`), run.cwd) || holds(`/proc/${entry}/environ`, marker))
        found.push(Number(entry));
    } catch {
      // Gone meanwhile, a zombie, or not ours to read.
    }
  }
  return found;
}

function holds(environ: string, marker: Buffer | null): boolean {
  if (!marker) return false;
  const env = fs.readFileSync(environ);
  // A whole variable: at the start, or after the NUL that ends the one before.
  return env.subarray(0, marker.length).equals(marker) || env.includes(Buffer.concat([Buffer.of(0), marker]));
}

/** SIGKILL the run's leftovers, again while new ones appear (a daemon forking as it dies), a few rounds at most. */
export function killLeftovers(run: { cwd: string; tmpdir?: string }): number {
  let killed = 0;
  for (let round = 0; round < 5; round++) {
    const pids = findLeftovers(run);
    if (pids.length === 0) break;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
        killed++;
      } catch {
        // Already gone.
      }
    }
  }
  return killed;
}
