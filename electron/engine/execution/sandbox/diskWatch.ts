import fs from 'node:fs';
import path from 'node:path';

/**
 * RLIMIT_FSIZE caps one file; nothing in the kernel caps how many a run writes, and a loop of
 * 1 GiB files fills the disk in a minute. The engine watches the free space of every
 * filesystem the run can write to, this often, and stops the run once it has taken more than
 * its disk limit from any of them.
 */
export const DISK_WATCH_MS = 100;

/** The nearest existing folder at or above `p` (a write grant may not exist yet). */
function existingAncestor(p: string): string | null {
  let dir = path.resolve(p);
  for (;;) {
    try {
      if (fs.statSync(dir).isDirectory()) return dir;
    } catch {
      // Not there (yet): look above.
    }
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** Bytes an unprivileged writer can still use on the filesystem holding `dir`, or null. */
function available(dir: string): number | null {
  try {
    const s = fs.statfsSync(dir, { bigint: true });
    return Number(s.bavail * s.bsize);
  } catch {
    return null;
  }
}

/**
 * A meter of the disk space taken since it was made: the largest drop in free space over the
 * filesystems holding `paths` (each filesystem once). Free space is the machine's, so a
 * download elsewhere counts too; the limit is generous for that reason.
 */
export function diskSpaceMeter(paths: readonly string[]): () => number {
  const start = new Map<number, { dir: string; free: number }>();
  for (const p of paths) {
    const dir = existingAncestor(p);
    if (!dir) continue;
    const free = available(dir);
    // Stryker disable next-line ConditionalExpression: a filesystem statfs cannot read is not watched either way
    if (free === null) continue;
    const dev = fs.statSync(dir).dev;
    if (!start.has(dev)) start.set(dev, { dir, free });
  }
  return () => {
    let taken = 0;
    for (const { dir, free } of start.values()) {
      const now = available(dir);
      if (now !== null) taken = Math.max(taken, free - now);
    }
    return taken;
  };
}
