import { execa } from 'execa';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { anonymousFile } from './anonFile';
import { coverInherited, inheritableFds } from './inheritedFds';
import { withLimits, type AppliedLimits, type ResourceLimits } from './limits';
import { DISK_WATCH_MS, diskFilesMeter, diskSpaceMeter } from './diskWatch';
import { MEMORY_WATCH_MS, WATCH_MS } from './processWatch';

/** How one guarded child process is started and stopped (shared by every backend). */
export interface GuardedSpawn {
  file: string;
  args: string[];
  cwd: string;
  /** The child's whole environment (`extendEnv: false`). */
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
  onOutput?: (stream: 'stdout' | 'stderr', chunk: string) => void;
  /**
   * Bytes the child reads from its fd 3 (bwrap `--args 3`), so secrets stay off the command line:
   * an anonymous file where the machine has one (anonFile.ts), else a pipe.
   */
  fd3?: Uint8Array;
  /** Bytes written to the child's fd 4 (bwrap `--seccomp 4`); needs `fd3`. */
  fd4?: Uint8Array;
  /** File-size and process limits, set through prlimit where the machine has it (limits.ts). */
  limits?: ResourceLimits;
  /**
   * Counts the run's processes (processWatch.ts), polled while it runs; past `limit` the
   * run is stopped. For root, whom RLIMIT_NPROC never holds.
   */
  processWatch?: { limit: number; counter: (pid: number) => () => number; everyMs?: number };
  /**
   * Adds up the memory the run's processes hold (processWatch.ts), polled while it runs; past
   * `limits.memoryBytes` in all the run is stopped. RLIMIT_DATA caps each process only.
   */
  memoryMeter?: (pid: number) => () => number;
  /**
   * Where the run can write (its scratch folder, its write grants): the free space of their
   * filesystems is watched, and past `limits.diskBytes` taken the run is stopped.
   */
  writable?: string[];
}

export interface GuardedResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
  /** The child could not be started at all (ENOENT for the program, say). */
  spawnError?: string;
  /** The resource limits it ran under, null when none could be set. */
  limits: AppliedLimits | null;
  /** Stopped because it ran more processes than `processWatch.limit`. */
  processesExceeded?: boolean;
  /** Stopped because it took more disk than this, its `limits.diskBytes`. */
  diskExceeded?: number;
  /** Stopped because it made more files and folders than this, its `limits.diskFiles`. */
  filesExceeded?: number;
  /** Stopped because its processes held more memory in all than this, its `limits.memoryBytes`. */
  memoryExceeded?: number;
}

/** Process groups still alive, killed when the engine exits normally (execa skips detached children). */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const pid of liveGroups) killRun(pid);
  });
}

/** SIGKILL a whole process group (Windows: the whole tree by taskkill); one already gone is fine. */
export function killGroup(pid: number): void {
  if (process.platform === 'win32') {
    spawnSync('taskkill', ['/T', '/F', '/PID', String(pid)], { stdio: 'ignore', windowsHide: true });
    return;
  }
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: already gone.
  }
}

/**
 * The direct children of `pid` (Linux). bwrap's init, PID 1 of the sandbox, is one, in its own
 * session: only its PR_SET_PDEATHSIG takes the namespace down with bwrap, and a skill running
 * as the same user can ptrace it and clear that. Killed by pid, the namespace goes with it.
 */
function childrenOf(pid: number): number[] {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter((p) => /^\d+$/.test(p))
      .map(Number);
  } catch {
    return [];
  }
}

/** SIGKILL the group `pid` leads and its direct children outside it (read first: once the group is gone they are reparented, and lost). */
function killRun(pid: number): void {
  const outside = childrenOf(pid);
  killGroup(pid);
  for (const c of outside) {
    try {
      process.kill(c, 'SIGKILL');
    } catch {
      // ESRCH: already gone.
    }
  }
}

/** setTimeout turns anything past 2^31-1 ms (and Infinity) into 1 ms: such limits mean "none". */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * After the main child exits, how long its pipes may stay open without output. A grandchild
 * that left the process group (setsid) can hold them forever, and execa waits for the pipes to
 * end (reference/sandbox-linux.md: "the promise hangs with piped stdio").
 */
const PIPE_GRACE_MS = 150;
/** However much such a grandchild keeps writing, the pipes close this long after the exit. */
const PIPE_MAX_MS = 5_000;

/**
 * Runs one command in its own process group with a time limit, an output cap and a Stop
 * signal; each of them kills the whole group. Never throws.
 */
export async function runGuarded(opts: GuardedSpawn): Promise<GuardedResult> {
  const started = performance.now();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let kept = 0;
  let truncated = false;
  let timedOut = false;
  let processesExceeded = false;
  let diskExceeded = false;
  let filesExceeded = false;
  let memoryExceeded = false;
  let cancelled = opts.signal?.aborted ?? false;
  if (cancelled) return { ...empty(), cancelled, durationMs: 0 };
  const limited = opts.limits
    ? withLimits(opts.file, opts.args, opts.limits)
    : { file: opts.file, args: opts.args, applied: null };

  const diskLimit = opts.limits?.diskBytes;
  const diskTaken = diskLimit !== undefined && opts.writable ? diskSpaceMeter(opts.writable) : null;
  const filesLimit = opts.limits?.diskFiles;
  const filesMade = filesLimit !== undefined && opts.writable ? diskFilesMeter(opts.writable) : null;

  const inputs = opts.fd3 ? [opts.fd3, ...(opts.fd4 ? [opts.fd4] : [])] : [];
  const files = inputs.map(anonymousFile);
  // execa's types name descriptors 3 to 9 only; it hands any number to child_process as it is.
  // Descriptors the engine inherited without close-on-exec become /dev/null in the child, so
  // none reaches the run (inheritedFds.ts).
  const leaked = inheritableFds();
  const devNull = leaked.length > 0 ? fs.openSync('/dev/null', 'r+') : null;
  const stdio = coverInherited(
    ['ignore', 'pipe', 'pipe', ...inputs.map((bytes, i) => files[i] ?? bytes)],
    leaked,
    devNull ?? -1,
  ) as ['ignore', 'pipe', 'pipe', ...(Uint8Array | 3)[]];
  let child;
  try {
    child = execa(limited.file, limited.args, {
      cwd: opts.cwd,
      env: opts.env,
      extendEnv: false,
      stdio,
      buffer: false,
      reject: false,
      // Own process group, so a timeout or Stop reaches every descendant (process.kill(-pid)).
      detached: true,
      windowsHide: true,
    });
  } catch (error) {
    return {
      ...empty(),
      durationMs: performance.now() - started,
      spawnError: String(error),
      limits: limited.applied,
    };
  } finally {
    // The child holds its own copies now (or never started).
    for (const fd of [...files, devNull]) if (fd !== null) fs.closeSync(fd);
  }
  const pid = child.pid;
  if (pid !== undefined) {
    installExitHook();
    liveGroups.add(pid);
  }
  const stop = () => {
    if (pid !== undefined) killRun(pid);
    else child.kill('SIGKILL');
  };

  // One decoder per stream, so a character split across chunks reaches onOutput whole.
  const decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
  const take = (stream: 'stdout' | 'stderr', into: Buffer[]) => (chunk: Buffer) => {
    if (truncated) return;
    const room = opts.maxOutputBytes - kept;
    const part = chunk.length > room ? chunk.subarray(0, Math.max(0, room)) : chunk;
    if (part.length > 0) {
      into.push(part);
      kept += part.length;
      const text = decoders[stream].write(part);
      if (text) opts.onOutput?.(stream, text);
    }
    if (chunk.length > room) {
      truncated = true;
      stop();
    }
  };
  child.stdout?.on('data', take('stdout', out));
  child.stderr?.on('data', take('stderr', err));
  let reads = 0;
  const counted = () => reads++;
  child.stdout?.on('data', counted);
  child.stderr?.on('data', counted);

  const watch = opts.processWatch;
  const count = watch && pid !== undefined ? watch.counter(pid) : null;
  const watcher =
    watch && count
      ? setInterval(() => {
          if (count() <= watch.limit) return;
          processesExceeded = true;
          stop();
        }, watch.everyMs ?? WATCH_MS)
      : undefined;

  const diskWatcher =
    diskTaken || filesMade
      ? setInterval(() => {
          diskExceeded ||= !!diskTaken && diskLimit !== undefined && diskTaken() > diskLimit;
          filesExceeded ||= !!filesMade && filesLimit !== undefined && filesMade() > filesLimit;
          if (diskExceeded || filesExceeded) stop();
        }, DISK_WATCH_MS)
      : undefined;

  const memoryLimit = opts.limits?.memoryBytes;
  const held =
    opts.memoryMeter && pid !== undefined && memoryLimit !== undefined ? opts.memoryMeter(pid) : null;
  const memoryWatcher =
    held && memoryLimit !== undefined
      ? setInterval(() => {
          if (held() <= memoryLimit) return;
          memoryExceeded = true;
          stop();
        }, MEMORY_WATCH_MS)
      : undefined;

  const timer =
    opts.timeoutMs > 0 && opts.timeoutMs <= MAX_TIMER_MS
      ? setTimeout(() => {
          timedOut = true;
          stop();
        }, opts.timeoutMs)
      : undefined;
  const onAbort = () => {
    cancelled = true;
    stop();
  };
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  let grace: NodeJS.Timeout | undefined;
  child.once('exit', () => {
    clearTimeout(timer);
    clearInterval(watcher);
    clearInterval(diskWatcher);
    clearInterval(memoryWatcher);
    // Leftovers of a finished run (a backgrounded `sleep &`) do not outlive it.
    stop();
    // The pipes close once PIPE_GRACE_MS pass without output, checked after the I/O phase
    // (setImmediate). On a loaded machine the exit was seen, the timer fired and the pipes were
    // closed before the output already in them was read: a finished run reported no output at
    // all (bwrap.files.test.ts, run twice at once, lost a probe's stdout or stderr each time).
    const until = Date.now() + PIPE_MAX_MS;
    const arm = (seen: number) => {
      grace = setTimeout(
        () =>
          setImmediate(() => {
            if (reads !== seen && Date.now() < until) return arm(reads);
            child.stdout?.destroy();
            child.stderr?.destroy();
          }),
        PIPE_GRACE_MS,
      );
    };
    arm(reads);
  });

  const result = await child;
  clearTimeout(timer);
  clearInterval(watcher);
  clearInterval(diskWatcher);
  clearInterval(memoryWatcher);
  if (grace) clearTimeout(grace);
  opts.signal?.removeEventListener('abort', onAbort);
  if (pid !== undefined) liveGroups.delete(pid);

  const spawnError =
    result.failed &&
    result.exitCode === undefined &&
    !result.isTerminated &&
    !timedOut &&
    !cancelled &&
    !truncated &&
    !processesExceeded &&
    !diskExceeded &&
    !filesExceeded &&
    !memoryExceeded
      ? result.originalMessage || result.shortMessage
      : undefined;
  return {
    exitCode: result.exitCode ?? null,
    signal: result.signal ?? null,
    stdout: Buffer.concat(out).toString('utf8'),
    stderr: Buffer.concat(err).toString('utf8'),
    truncated,
    timedOut,
    cancelled,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
    ...(spawnError ? { spawnError } : {}),
    ...(processesExceeded ? { processesExceeded } : {}),
    ...(diskExceeded && diskLimit !== undefined ? { diskExceeded: diskLimit } : {}),
    ...(filesExceeded && filesLimit !== undefined ? { filesExceeded: filesLimit } : {}),
    ...(memoryExceeded && memoryLimit !== undefined ? { memoryExceeded: memoryLimit } : {}),
    limits: limited.applied,
  };
}

function empty(): GuardedResult {
  return {
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    truncated: false,
    timedOut: false,
    cancelled: false,
    durationMs: 0,
    limits: null,
  };
}
