import fs from 'node:fs';
import path from 'node:path';

/**
 * RLIMIT_FSIZE caps one file; nothing in the kernel caps how many a run writes, and a loop of
 * 1 GiB files fills the disk in a minute. The engine watches the free space of every
 * filesystem the run can write to, this often, and stops the run once it has taken more than
 * its disk limit from any of them.
 */
export const DISK_WATCH_MS = 100;

/** The nearest existing path at or above `p` (a write grant may not exist yet). */
function existingAncestor(p: string): string | null {
  let at = path.resolve(p);
  while (!fs.existsSync(at)) {
    const up = path.dirname(at);
    if (up === at) return null;
    at = up;
  }
  return at;
}

/** Bytes an unprivileged writer can still use on the filesystem holding `at`, or null. */
function available(at: string): number | null {
  try {
    const s = fs.statfsSync(at);
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}

/** Free inodes on the filesystem holding `at`, or null where it has no fixed count (btrfs says 0 of 0). */
function freeInodes(at: string): number | null {
  try {
    const s = fs.statfsSync(at);
    return s.files > 0 ? s.ffree : null;
  } catch {
    return null;
  }
}

/** The largest drop of `free` since the meter was made, over the filesystems holding `paths` (each once). */
function dropMeter(paths: readonly string[], free: (at: string) => number | null): () => number {
  // One entry per filesystem (by device): two paths on one disk are one free-space figure.
  const start = new Map<number, { at: string; free: number }>();
  for (const p of paths) {
    const at = existingAncestor(p);
    const was = at === null ? null : free(at);
    if (at !== null && was !== null) start.set(fs.statSync(at).dev, { at, free: was });
  }
  return () => {
    let taken = 0;
    for (const { at, free: was } of start.values()) {
      const now = free(at);
      if (now !== null) taken = Math.max(taken, was - now);
    }
    return taken;
  };
}

/**
 * A meter of the disk space taken since it was made: the largest drop in free space over the
 * filesystems holding `paths` (each filesystem once). Free space is the machine's, so a
 * download elsewhere counts too; the limit is generous for that reason.
 */
export function diskSpaceMeter(paths: readonly string[]): () => number {
  return dropMeter(paths, available);
}

/**
 * A meter of the files and folders made since it was made (the drop in free inodes). Empty
 * files take no blocks, so the space meter never sees millions of them, yet they use up the
 * inodes of the user's disk: then nothing on it can make a file.
 */
export function diskFilesMeter(paths: readonly string[]): () => number {
  return dropMeter(paths, freeInodes);
}
