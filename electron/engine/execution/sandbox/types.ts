import type { RunSandbox, Violation } from '../../../../shared/contract';
import { limitViolations, type ResourceLimits } from './limits';
import type { GuardedResult } from './spawn';

/**
 * What a sandboxed command may touch, already resolved to this machine (DESIGN §4,
 * reference/sandbox-linux.md). Paths are absolute; a declared glob such as `./out/**`
 * arrives as its static prefix in `paths` and as written in `declared`.
 */
export interface SandboxGrants {
  /** Readable paths (files or folders) besides the system, the skill folder and the work dir. */
  read: string[];
  /** Writable paths besides the work dir; folders that do not exist yet are created first. */
  write: string[];
  /** false: no network; true: any host; a list: only these hosts (`*.example.com` allowed), via the per-run proxy. */
  network: boolean | string[];
  /** The environment inside, exactly: the allow-listed variables plus the plumbing the engine owns. */
  env: Record<string, string>;
  /** The grants as the skill declared them, for messages ("outside its write paths ./out/**"). */
  declared: { read: string[]; write: string[] };
}

export interface SandboxSpec {
  /** Absolute path of the program on the host (an interpreter resolved on the host, never a shim). */
  command: string;
  args: string[];
  /** The run's scratch working folder: always writable, the process starts here. */
  cwd: string;
  /** The skill's folder: read-only inside. */
  skillDir: string;
  grants: SandboxGrants;
  timeoutMs: number;
  /** Bytes of stdout + stderr kept; past it the process is killed and the result is `truncated`. */
  maxOutputBytes: number;
  /** File-size and process limits (limits.ts DEFAULT_LIMITS when absent). */
  limits?: ResourceLimits;
  /** Stop: kills the whole process tree. */
  signal?: AbortSignal;
  onOutput?: (stream: 'stdout' | 'stderr', chunk: string) => void;
}

export interface SandboxResult {
  tier: RunSandbox;
  exitCode: number | null;
  /** The signal that ended it (`SIGKILL` after a timeout, say). */
  signal: string | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
  /** Hosts the allow-list proxy refused, in order. */
  refusedHosts: string[];
  /** What the sandbox stopped, told exactly (proxy refusals + a scan of stderr against the grants). */
  violations: Violation[];
  /** Set when the sandbox itself could not start (bwrap missing, namespaces off …). */
  setupError?: string;
}

/** One sandbox backend (bwrap, sandbox-exec, process). `run` never throws. */
export interface SandboxBackend {
  readonly tier: RunSandbox;
  /** Rules this backend cannot enforce here; shown in the approval request before the run. */
  readonly unenforced: string[];
  run(spec: SandboxSpec): Promise<SandboxResult>;
}

/** A backend's result from its guarded child: the child's fields, plus what the sandbox saw. */
export function sandboxResult(
  tier: RunSandbox,
  run: GuardedResult,
  seen: { refusedHosts: string[]; violations: Violation[]; setupError?: string },
): SandboxResult {
  return {
    tier,
    exitCode: run.exitCode,
    signal: run.signal,
    stdout: run.stdout,
    stderr: run.stderr,
    truncated: run.truncated,
    timedOut: run.timedOut,
    cancelled: run.cancelled,
    durationMs: run.durationMs,
    refusedHosts: seen.refusedHosts,
    // A limit the run hit is the cause; what the stderr scan read after it is its consequence.
    violations: [...limitViolations(run, run.limits), ...seen.violations],
    ...(seen.setupError ? { setupError: seen.setupError } : {}),
  };
}

/** The result of a run that never started (its `setupError` says why). */
export function blankResult(tier: RunSandbox, setupError: string, durationMs = 0): SandboxResult {
  return {
    tier,
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    truncated: false,
    timedOut: false,
    cancelled: false,
    durationMs,
    refusedHosts: [],
    violations: [],
    setupError,
  };
}
