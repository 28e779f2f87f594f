import fs from 'node:fs';
import os from 'node:os';
import { sandboxEnv } from './bwrapArgs';
import { killLeftovers } from './leftovers';
import { DEFAULT_LIMITS } from './limits';
import { GROUP_WATCH_MS, processGroupCounter, processGroupMemoryMeter } from './processWatch';
import { runGuarded } from './spawn';
import {
  blankResult,
  sandboxResult,
  type SandboxBackend,
  type SandboxResult,
  type SandboxSpec,
} from './types';
import { findViolations } from './violations';

/** What process isolation cannot enforce, in the words the approval request shows (DESIGN §4). */
export const PROCESS_UNENFORCED = [
  // Any file includes /proc/<SkillDeck's pid>/environ: the API keys SkillDeck was started with.
  "file read and write permissions are not enforced: the script can read and change any file your user can, SkillDeck's own data and the API keys in its environment included",
  'network rules are not enforced: the script can reach any host',
  // leftovers.ts finds them by the run's folder and TMPDIR; without a PID namespace nothing else ties them to it.
  'the time limit stops what stays in its process group, folder or environment: a program it starts in a session of its own, outside its folder and with a cleared environment, can outlive the run',
];

export interface ProcessBackendOptions {
  /** `none` when the skill asked for no sandbox, `process` when it is the fallback. */
  tier?: 'process' | 'none';
}

/**
 * Process isolation only (Windows, or Linux without working bwrap, or `sandbox: none`):
 * its own process group killed as a whole on timeout, Stop and the output cap, the
 * environment exactly `grants.env`, cwd the scratch dir. Files and network are not
 * enforced, and `unenforced` says so before the run.
 */
export function createProcessBackend(opts: ProcessBackendOptions = {}): SandboxBackend {
  const tier = opts.tier ?? 'process';
  return {
    tier,
    unenforced: [...PROCESS_UNENFORCED],
    run: (spec) => runProcess(spec, tier),
  };
}

async function runProcess(spec: SandboxSpec, tier: 'process' | 'none'): Promise<SandboxResult> {
  try {
    // A write grant that names an existing file is bound as that file; a missing one becomes a folder.
    for (const w of [spec.cwd, ...spec.grants.write])
      if (!fs.existsSync(w)) fs.mkdirSync(w, { recursive: true });
  } catch (error) {
    return blankResult(tier, `could not create a writable folder: ${(error as Error).message}`);
  }
  const limits = spec.limits ?? DEFAULT_LIMITS;
  const run = await runGuarded({
    file: spec.command,
    args: spec.args,
    cwd: spec.cwd,
    env: sandboxEnv(spec.grants.env, null),
    timeoutMs: spec.timeoutMs,
    maxOutputBytes: spec.maxOutputBytes,
    limits,
    // RLIMIT_NPROC never holds for root: the engine counts the run's process group instead.
    ...(process.platform === 'linux' && process.getuid?.() === 0
      ? { processWatch: { limit: limits.processes, counter: processGroupCounter, everyMs: GROUP_WATCH_MS } }
      : {}),
    ...(process.platform === 'linux' ? { memoryMeter: processGroupMemoryMeter } : {}),
    // Nothing confines its writes: the home's and the temp folder's disks are watched too.
    writable: [spec.cwd, ...spec.grants.write, os.homedir(), os.tmpdir()],
    signal: spec.signal,
    onOutput: spec.onOutput,
  });
  // Whatever left the process group (setsid, a daemon) goes with the run too.
  killLeftovers({ cwd: spec.cwd, tmpdir: spec.grants.env.TMPDIR });
  return sandboxResult(tier, run, {
    refusedHosts: [],
    // Files and network were not enforced, so only the output cap and the env filter can have stopped it.
    violations: findViolations({
      spec,
      stderr: run.stderr,
      layout: null,
      refusedHosts: [],
      truncated: run.truncated,
    }),
    ...(run.spawnError ? { setupError: `could not start ${spec.command}: ${run.spawnError}` } : {}),
  });
}
