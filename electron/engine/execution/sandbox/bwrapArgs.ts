import fs from 'node:fs';
import path from 'node:path';
import { depth, type SandboxLayout } from './layout';
import type { SandboxSpec } from './types';

// What bwrap is told (bwrap.ts starts it): its options, the environment inside, and how its
// own failures read. Pure apart from reading where /etc/resolv.conf points.

/** Where the per-run proxy folder appears inside (under the private /run tmpfs). */
export const PROXY_DIR = '/run/skilldeck-proxy';
/** The loopback port the bridge listens on inside; the sandbox has its own network namespace, so it never collides. */
export const BRIDGE_PORT = 3128;

/** The size of the sandbox's private /dev/shm (Docker's default). */
export const SHM_BYTES = 64 * 1024 * 1024;

/** Variables that change how a loader or runtime behaves; never passed in (reference/sandbox-linux.md). */
function isForbiddenEnv(name: string): boolean {
  return name.startsWith('LD_') || name.startsWith('DYLD_') || name === 'NODE_OPTIONS';
}

/** grants.env without loader-hijacking variables, plus the proxy variables for an allow-list. */
export function sandboxEnv(env: Record<string, string>, proxyUrl: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (!isForbiddenEnv(k)) out[k] = v;
  if (proxyUrl) {
    for (const k of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'ALL_PROXY', 'all_proxy'])
      out[k] = proxyUrl;
    // Everything, loopback included, goes through the proxy: nothing else is reachable.
    out.NO_PROXY = '';
    out.no_proxy = '';
    // Node 22+ fetch honours the variables only with this (Node 20's fetch ignores them and fails closed).
    out.NODE_USE_ENV_PROXY = '1';
  }
  return out;
}

/** bwrap's options (passed through fd 3, so allow-listed secrets never show in `ps`). */
export function bwrapOptions(
  spec: Pick<SandboxSpec, 'cwd' | 'grants'>,
  layout: SandboxLayout,
  extra: {
    disableUserns: boolean;
    proxyDir: string | null;
    env: Record<string, string>;
    /** Where DNS is configured; tests point it at their own file. */
    resolvConf?: string;
    /** An empty file with mode 000, bound over each of `layout.deniedFiles`; null: none made. */
    deniedSource?: string | null;
    /** The fd bwrap reads the seccomp filter from (seccomp.ts); none when absent. */
    seccompFd?: number;
    /** An empty folder and an empty file, read-only, bound as the stand-ins of missing guarded files (guarded.ts); null: none bound. */
    standIns?: { dir: string; file: string } | null;
  },
): string[] {
  const a = ['--unshare-user'];
  if (extra.disableUserns) a.push('--disable-userns');
  // Without --cap-drop ALL a root process inside can remount / read-write (reference/sandbox-linux.md).
  a.push('--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev');
  // --dev's tmpfs holds up to half the RAM, outside the memory limit (RLIMIT_DATA): /dev is
  // made read-only below, and /dev/shm (semaphores, shared memory) gets Docker's 64 MiB.
  a.push('--size', String(SHM_BYTES), '--tmpfs', '/dev/shm', '--proc', '/proc');
  // bwrap leaves /proc/sys writable, and root inside passes its mode check without any
  // capability: sysctls act on the host's namespaces (kernel.core_pattern runs a program as
  // host root). Read-only, like /proc/sysrq-trigger where the kernel has it.
  a.push(
    '--ro-bind',
    '/proc/sys',
    '/proc/sys',
    '--ro-bind-try',
    '/proc/sysrq-trigger',
    '/proc/sysrq-trigger',
  );
  for (const m of layout.masks) a.push('--tmpfs', m);
  // Binds shallowest first; a remask goes right after the binds as deep as it, before deeper ones.
  const remasks = [...layout.remasks];
  for (const b of layout.binds) {
    while (remasks.length > 0 && depth(remasks[0]) < depth(b.path)) a.push('--tmpfs', remasks.shift()!);
    if (!b.placeholder) a.push(b.writable ? '--bind' : '--ro-bind', b.path, b.path);
    else if (extra.standIns) a.push('--ro-bind', extra.standIns[b.placeholder], b.path);
  }
  for (const r of remasks) a.push('--tmpfs', r);
  if (extra.proxyDir) a.push('--ro-bind', extra.proxyDir, PROXY_DIR);
  // Without capabilities even root cannot read a mode-000 file: reading one fails, and is named.
  if (extra.deniedSource) for (const f of layout.deniedFiles) a.push('--ro-bind', extra.deniedSource, f);
  // issue 7: writable only the grants and the run folder. The masks become read-only once the
  // binds inside them exist (not recursive: the binds keep their own flags), so a write to the
  // home or /tmp fails and is reported instead of vanishing with the tmpfs.
  // A write grant of a masked folder itself (`~/**`, /tmp) is the top mount there: left writable.
  for (const m of [...layout.masks, ...layout.remasks])
    if (!layout.binds.some((b) => b.writable && b.path === m)) a.push('--remount-ro', m);
  a.push('--remount-ro', '/dev');
  if (spec.grants.network === true) {
    // A resolv.conf that points into the masked /run (systemd-resolved) must come back for DNS.
    const resolv = resolvTarget(extra.resolvConf ?? '/etc/resolv.conf');
    if (resolv) a.push('--ro-bind', path.dirname(resolv), path.dirname(resolv));
  }
  a.push('--unshare-pid', '--unshare-ipc', '--unshare-uts');
  if (spec.grants.network !== true) a.push('--unshare-net');
  a.push('--new-session', '--die-with-parent', '--clearenv');
  if (extra.seccompFd !== undefined) a.push('--seccomp', String(extra.seccompFd));
  for (const [k, v] of Object.entries(extra.env)) a.push('--setenv', k, v);
  a.push('--chdir', path.resolve(spec.cwd));
  return a;
}

function resolvTarget(file: string): string | null {
  try {
    const real = fs.realpathSync(file);
    return real.startsWith('/run/') ? real : null;
  } catch {
    return null;
  }
}

/** bwrap's `--args 3` format: each option NUL-terminated. */
export const encodeArgs = (args: string[]) => new TextEncoder().encode(args.map((x) => `${x}\0`).join(''));

/** bwrap's own failures (exit 1 with `bwrap: …` before the command ran) are setup errors, not the skill's. */
export function bwrapSetupError(stderr: string, exitCode: number | null): string | undefined {
  if (exitCode !== 1) return undefined;
  const line = stderr.split('\n').find((l) => l.startsWith('bwrap: '));
  return line ? `bubblewrap could not start the sandbox: ${line.slice(7)}` : undefined;
}
