import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { SandboxTier } from '../../../../shared/contract';

/** What this machine offers for sandboxing, probed once. */
export interface SandboxProbe {
  /** The strongest tier available here. */
  tier: SandboxTier;
  /** Absolute path of bwrap when the bwrap tier works. */
  bwrap: string | null;
  /** bwrap understands `--disable-userns` (0.8+); older ones run without it. */
  disableUserns: boolean;
  /** Absolute path of socat (the network allow-list bridge inside bwrap), or null. */
  socat: string | null;
  /** Absolute path of sandbox-exec on macOS, or null. */
  sandboxExec: string | null;
  /** Why the tier is not the OS sandbox, in plain words (null when it is). */
  reason: string | null;
}

/** Finds `bin` on PATH as an absolute path (checked fresh), or null. */
export function which(bin: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (bin.includes('/')) return isExecutable(bin) ? path.resolve(bin) : null;
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const full = path.join(dir, bin);
    if (isExecutable(full)) return full;
  }
  return null;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The flags every run uses (bwrap.ts), so a machine where one of them fails (user
 * namespaces off: "Creating new namespace failed … ENOSPC"; AppArmor) falls back before
 * a run, not during one.
 */
function bwrapProbeArgs(disableUserns: boolean, truePath: string): string[] {
  return [
    '--unshare-user',
    ...(disableUserns ? ['--disable-userns'] : []),
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-net',
    '--new-session',
    '--die-with-parent',
    '--clearenv',
    '--',
    truePath,
  ];
}

function probeLinux(): SandboxProbe {
  const base = { sandboxExec: null, socat: which('socat'), disableUserns: false };
  const bwrap = which('bwrap');
  if (!bwrap) return { ...base, tier: 'process', bwrap: null, reason: 'bubblewrap (bwrap) is not installed' };
  const truePath = which('true') ?? '/bin/true';
  let last = '';
  for (const disableUserns of [true, false]) {
    const run = spawnSync(bwrap, bwrapProbeArgs(disableUserns, truePath), {
      encoding: 'utf8',
      timeout: 5000,
    });
    if (run.status === 0) return { ...base, tier: 'bwrap', bwrap, disableUserns, reason: null };
    last = (run.stderr || run.error?.message || `exit ${run.status}`).trim();
    // Only an old bwrap without --disable-userns deserves a second try.
    if (!/disable-userns|Unknown option/i.test(last)) break;
  }
  return { ...base, tier: 'process', bwrap: null, reason: `bubblewrap cannot start a sandbox here: ${last}` };
}

function probeDarwin(): SandboxProbe {
  const sandboxExec = fs.existsSync('/usr/bin/sandbox-exec') ? '/usr/bin/sandbox-exec' : null;
  return {
    tier: sandboxExec ? 'seatbelt' : 'process',
    bwrap: null,
    disableUserns: false,
    socat: null,
    sandboxExec,
    reason: sandboxExec ? null : 'sandbox-exec is missing',
  };
}

let cached: SandboxProbe | undefined;

/**
 * The strongest sandbox this machine gives a skill (DESIGN §4): bubblewrap when it starts
 * with the flags every run uses, sandbox-exec on macOS, otherwise process isolation only.
 * Probed once per process (a bwrap start costs a few ms).
 */
export function probeSandbox(): SandboxProbe {
  if (cached) return cached;
  if (process.platform === 'linux') cached = probeLinux();
  else if (process.platform === 'darwin') cached = probeDarwin();
  else
    cached = {
      tier: 'process',
      bwrap: null,
      disableUserns: false,
      socat: null,
      sandboxExec: null,
      reason: `no OS sandbox is supported on ${process.platform}`,
    };
  return cached;
}
