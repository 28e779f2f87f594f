import fs from 'node:fs';
import type { Violation } from '../../../../shared/contract';

/**
 * Resource limits of a sandboxed run, set with `prlimit` (util-linux) on the program the
 * backend starts, so bwrap, socat and the script inherit them. A script that writes a file
 * past `fileBytes` gets EFBIG (or SIGXFSZ) instead of filling the disk; one that forks
 * without end gets EAGAIN once it runs `processes` more processes than its user already had.
 * The process count is per user: the kernel never applies it to root (uid 0 in the host's
 * namespace), so as root only the file size, the core size, the time limit and the output cap
 * hold.
 */
export interface ResourceLimits {
  /** The largest file the run may write, in bytes (RLIMIT_FSIZE). */
  fileBytes: number;
  /** Processes the run may add to those its user already runs (RLIMIT_NPROC; not for root). */
  processes: number;
  /**
   * The memory the run's processes may each allocate, in bytes (RLIMIT_DATA: heap and
   * private writable mappings, which is what malloc, Python and V8 allocate from), and may hold
   * in all (the engine adds up what they hold, shared memory included, and stops the run past
   * it: spawn.ts). Unlike the process count it holds for root too.
   */
  memoryBytes: number;
  /**
   * The disk space the run may take in all, over every file it writes (diskWatch.ts: the engine
   * watches the free space of the filesystems it can write to and stops it past this). Absent:
   * not watched.
   */
  diskBytes?: number;
  /**
   * The files and folders the run may make in all (diskWatch.ts: the drop in free inodes of the
   * same filesystems). Absent: not watched.
   */
  diskFiles?: number;
}

export const DEFAULT_LIMITS: ResourceLimits = {
  fileBytes: 1024 ** 3,
  processes: 256,
  memoryBytes: 4 * 1024 ** 3,
  diskBytes: 4 * 1024 ** 3,
  // A big `npm install` or a kernel checkout makes about 100,000; a full disk has a few million free.
  diskFiles: 500_000,
};

// Stryker disable next-line StringLiteral: util-linux installs both (one file on merged-/usr systems)
const PRLIMIT_PATHS = ['/usr/bin/prlimit', '/bin/prlimit'];
let prlimit: string | null | undefined;

/** Where prlimit is on this machine (Linux only), found once. */
export function prlimitPath(): string | null {
  // Stryker disable next-line ConditionalExpression: looking again finds the same file; this only caches
  if (prlimit === undefined)
    // Stryker disable next-line ConditionalExpression: the tests run on Linux; elsewhere there is no prlimit to find
    prlimit = process.platform === 'linux' ? (PRLIMIT_PATHS.find((p) => fs.existsSync(p)) ?? null) : null;
  return prlimit;
}

const isExecutable = (file: string): boolean => {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

/** How many processes `uid` runs now, from /proc's owners. */
export function userProcessCount(uid: number): number {
  let count = 0;
  for (const entry of fs.readdirSync('/proc')) {
    // Stryker disable next-line Regex: /proc's entries are pid numbers or names without a digit
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.statSync(`/proc/${entry}`).uid === uid) count++;
    } catch {
      // Gone between the listing and the stat.
    }
  }
  return count;
}

/** What a run was started under: the limits and whether the process count applied. */
export interface AppliedLimits extends ResourceLimits {
  /** The RLIMIT_NPROC value set, or null (root, or no prlimit). */
  processLimit: number | null;
}

/**
 * `file args` wrapped in prlimit with `limits`, or unchanged (and null) where prlimit is not
 * available or `file` is not an executable file's path. prlimit sets the limits on itself and
 * execs the program, so the pid, the process group and the inherited descriptors (bwrap's
 * fd 3) stay the same.
 */
export function withLimits(
  file: string,
  args: string[],
  limits: ResourceLimits,
  // Stryker disable next-line UnaryOperator: only Windows lacks getuid, and it has no prlimit either
  uid = process.getuid?.() ?? -1,
): { file: string; args: string[]; applied: AppliedLimits | null } {
  const bin = prlimitPath();
  // A program that cannot start must fail as itself (a spawn error), not as prlimit's exit 1.
  if (!bin || !isExecutable(file)) return { file, args, applied: null };
  const processLimit = uid > 0 ? userProcessCount(uid) + limits.processes : null;
  const flags = [`--fsize=${limits.fileBytes}`, `--data=${limits.memoryBytes}`, '--core=0'];
  if (processLimit !== null) flags.push(`--nproc=${processLimit}`);
  return { file: bin, args: [...flags, '--', file, ...args], applied: { ...limits, processLimit } };
}

/** SIGXFSZ is signal 25 on Linux; bwrap and shells report a child killed by it as 128 + 25. */
const SIGXFSZ_EXIT = 153;
/** What Python, Node, coreutils and bash print when a write passes RLIMIT_FSIZE. */
const FILE_SIZE_RE = /\[Errno 27\] File too large|\bEFBIG\b|File size limit exceeded/;
/** What Python, Node and bash print when a fork passes RLIMIT_NPROC. */
const FORK_RE =
  /\[Errno 11\] Resource temporarily unavailable|fork: (?:retry: )?Resource temporarily unavailable|can't fork/i;

/**
 * Whether a line of `text` has `first` and `then` after it: /first.*then/ without its cost, which
 * rescans to the line's end from each repeat of `first` (the text is a skill's stderr, up to
 * the output cap, read on the engine's thread).
 */
export function inOrderOnALine(text: string, first: RegExp, then: RegExp): boolean {
  return text.split('\n').some((line) => {
    const at = line.search(first);
    return at >= 0 && then.test(line.slice(at));
  });
}

const fileTooLarge = (stderr: string) =>
  FILE_SIZE_RE.test(stderr) || inOrderOnALine(stderr, /error writing /, /: File too large/);
const forkRefused = (stderr: string) =>
  FORK_RE.test(stderr) ||
  inOrderOnALine(stderr, /\bspawn\b/i, /\bEAGAIN\b/i) ||
  inOrderOnALine(stderr, /\bEAGAIN\b/i, /\bspawn\b/i);

/** What Python, Node (V8 and its buffers), C++, bash and libc print when an allocation passes RLIMIT_DATA. */
const MEMORY_RE =
  /\bMemoryError\b|JavaScript heap out of memory|Array buffer allocation failed|std::bad_alloc|\bx(?:m|re)alloc: cannot allocate|Cannot allocate memory|\bENOMEM\b/;

const size = (bytes: number) =>
  bytes >= 1024 ** 3 ? `${+(bytes / 1024 ** 3).toFixed(1)} GiB` : `${+(bytes / 1024 ** 2).toFixed(1)} MiB`;

/** The limits a finished run ran into, told exactly. */
export function limitViolations(
  run: {
    exitCode: number | null;
    signal: string | null;
    stderr: string;
    processesExceeded?: boolean;
    diskExceeded?: number;
    filesExceeded?: number;
    memoryExceeded?: number;
  },
  applied: AppliedLimits | null,
): Violation[] {
  // Watched by the engine, not set through prlimit: it holds wherever the run did.
  const disk: Violation[] =
    run.diskExceeded !== undefined
      ? [
          {
            kind: 'output',
            target: `${run.diskExceeded} bytes of disk`,
            message: `wrote more than ${size(run.diskExceeded)} to disk in all, its disk limit, and was stopped`,
          },
        ]
      : [];
  if (run.filesExceeded !== undefined)
    disk.push({
      kind: 'output',
      target: `${run.filesExceeded} files`,
      message: `made more than ${run.filesExceeded} files and folders in all, its file-count limit, and was stopped`,
    });
  if (run.memoryExceeded !== undefined)
    disk.push({
      kind: 'output',
      target: `${run.memoryExceeded} bytes of memory`,
      message: `held more than ${size(run.memoryExceeded)} of memory in all, its memory limit, and was stopped`,
    });
  if (!applied) return disk;
  const out: Violation[] = [...disk];
  if (run.signal === 'SIGXFSZ' || run.exitCode === SIGXFSZ_EXIT || fileTooLarge(run.stderr))
    out.push({
      // Not a path to grant: the run cannot be allowed past it, only told (kind `output`).
      kind: 'output',
      target: `${applied.fileBytes} bytes per file`,
      message: `tried to write a file larger than ${size(applied.fileBytes)}, its file-size limit`,
    });
  // Only a run that failed (a killed one has no exit code): a script may print these words
  // about something else and succeed.
  if (run.exitCode !== 0 && MEMORY_RE.test(run.stderr))
    out.push({
      kind: 'output',
      target: `${applied.memoryBytes} bytes of memory`,
      message: `ran out of memory at its ${size(applied.memoryBytes)} memory limit`,
    });
  if (run.processesExceeded || (applied.processLimit !== null && forkRefused(run.stderr)))
    out.push({
      kind: 'exec',
      target: `${applied.processes} processes`,
      message: `tried to start more than ${applied.processes} processes, its process limit`,
    });
  return out;
}
