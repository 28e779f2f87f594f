import fs from 'node:fs';
import path from 'node:path';
import { planLayout, type LayoutOptions, type SandboxLayout } from './layout';
import { probeSandbox } from './probe';
import { startAllowListProxy, type AllowListProxy, type ResolveHost } from './proxy';
import { runGuarded } from './spawn';
import {
  blankResult,
  sandboxResult,
  type SandboxBackend,
  type SandboxResult,
  type SandboxSpec,
} from './types';
import { findViolations } from './violations';

export interface BwrapOptions extends LayoutOptions {
  /** Absolute path of bwrap; from the probe when omitted. */
  bwrap?: string;
  /** Absolute path of socat (the allow-list bridge); from the probe when omitted. */
  socat?: string | null;
  /** Whether bwrap has `--disable-userns` (0.8+); from the probe when omitted. */
  disableUserns?: boolean;
  /** How the allow-list proxy reaches a host (tests name local servers `allowed.test`). */
  resolveHost?: ResolveHost;
}

/** Where the per-run proxy folder appears inside (under the private /run tmpfs). */
const PROXY_DIR = '/run/skilldeck-proxy';
/** The loopback port the bridge listens on inside; the sandbox has its own network namespace, so it never collides. */
export const BRIDGE_PORT = 3128;

/** Variables that change how a loader or runtime behaves; never passed in (reference/sandbox-linux.md). */
export function isForbiddenEnv(name: string): boolean {
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

/**
 * Waits until socat listens (a line in /proc/net/tcp: 127.0.0.1:PORT in state LISTEN, read
 * with shell builtins so the check forks nothing) before the command starts, so its first
 * request never races the bridge. socat usually listens before the first check.
 */
const LISTEN_ADDR = `0100007F:${BRIDGE_PORT.toString(16).toUpperCase().padStart(4, '0')}`;
const BRIDGE_SCRIPT = [
  'socat="$1"; shift',
  `"$socat" TCP-LISTEN:${BRIDGE_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${PROXY_DIR}/proxy.sock &`,
  `ready() { while read -r _ addr _ st _; do [ "$addr" = ${LISTEN_ADDR} ] && [ "$st" = 0A ] && return 0; done < /proc/net/tcp; return 1; }`,
  'i=0',
  'until ready; do',
  '  i=$((i+1)); [ $i -gt 1000 ] && { echo "skilldeck: the network bridge did not start" >&2; exit 125; }',
  // The skill's PATH may lack it: sleep runs with the system's.
  '  PATH=/usr/bin:/bin sleep 0.002',
  'done',
  'exec "$@"',
].join('\n');

/** bwrap's options (passed through fd 3, so allow-listed secrets never show in `ps`). */
export function bwrapOptions(
  spec: Pick<SandboxSpec, 'cwd' | 'grants'>,
  layout: SandboxLayout,
  extra: { disableUserns: boolean; proxyDir: string | null; env: Record<string, string> },
): string[] {
  const a = ['--unshare-user'];
  if (extra.disableUserns) a.push('--disable-userns');
  // Without --cap-drop ALL a root process inside can remount / read-write (reference/sandbox-linux.md).
  a.push('--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  for (const m of layout.masks) a.push('--tmpfs', m);
  for (const b of layout.binds) a.push(b.writable ? '--bind' : '--ro-bind', b.path, b.path);
  if (extra.proxyDir) a.push('--ro-bind', extra.proxyDir, PROXY_DIR);
  // issue 7: writable only the grants and the run folder. The masks become read-only once the
  // binds inside them exist (not recursive: the binds keep their own flags), so a write to the
  // home or /tmp fails and is reported instead of vanishing with the tmpfs.
  for (const m of layout.masks) a.push('--remount-ro', m);
  if (spec.grants.network === true) {
    // A resolv.conf that points into the masked /run (systemd-resolved) must come back for DNS.
    const resolv = resolvTarget();
    if (resolv) a.push('--ro-bind', path.dirname(resolv), path.dirname(resolv));
  }
  a.push('--unshare-pid', '--unshare-ipc');
  if (spec.grants.network !== true) a.push('--unshare-net');
  a.push('--new-session', '--die-with-parent', '--clearenv');
  for (const [k, v] of Object.entries(extra.env)) a.push('--setenv', k, v);
  a.push('--chdir', path.resolve(spec.cwd));
  return a;
}

function resolvTarget(): string | null {
  try {
    const real = fs.realpathSync('/etc/resolv.conf');
    return real.startsWith('/run/') ? real : null;
  } catch {
    return null;
  }
}

const encodeArgs = (args: string[]) => new TextEncoder().encode(args.map((x) => `${x}\0`).join(''));

/**
 * The Linux backend: bubblewrap spawned directly (no shell, so --die-with-parent ties it to
 * the engine), hardened as in reference/sandbox-linux.md. A declared domain list starts a
 * per-run allow-list proxy on a unix socket; inside (still without a network), socat
 * bridges 127.0.0.1:3128 to it and the proxy variables point there.
 */
export function createBwrapBackend(opts: BwrapOptions = {}): SandboxBackend {
  const probe = opts.bwrap ? null : probeSandbox();
  const bwrap = opts.bwrap ?? probe?.bwrap ?? 'bwrap';
  const socat = opts.socat !== undefined ? opts.socat : (probe?.socat ?? null);
  const disableUserns = opts.disableUserns ?? probe?.disableUserns ?? true;
  return {
    tier: 'bwrap',
    unenforced: [],
    run: (spec) => runBwrap(spec, { ...opts, bwrap, socat, disableUserns }),
  };
}

async function runBwrap(
  spec: SandboxSpec,
  o: BwrapOptions & { bwrap: string; socat: string | null; disableUserns: boolean },
): Promise<SandboxResult> {
  const started = performance.now();
  const fail = (setupError: string): SandboxResult =>
    blankResult('bwrap', setupError, Math.round(performance.now() - started));
  try {
    // A write grant that names an existing file is bound as that file; a missing one becomes a folder.
    for (const w of [spec.cwd, ...spec.grants.write])
      if (!fs.existsSync(w)) fs.mkdirSync(w, { recursive: true });
  } catch (error) {
    return fail(`could not create a writable folder: ${(error as Error).message}`);
  }
  const list = Array.isArray(spec.grants.network) ? spec.grants.network : null;
  if (list && !o.socat)
    return fail('a network allow-list needs socat inside the sandbox; install it (apt-get install socat)');

  let proxy: AllowListProxy | null = null;
  try {
    if (list) proxy = await startAllowListProxy({ allow: list, listen: 'unix', resolveHost: o.resolveHost });
  } catch (error) {
    return fail(`the network allow-list proxy did not start: ${(error as Error).message}`);
  }
  try {
    const layout = planLayout(spec, o);
    const env = sandboxEnv(spec.grants.env, proxy ? `http://127.0.0.1:${BRIDGE_PORT}` : null);
    const options = bwrapOptions(spec, layout, {
      disableUserns: o.disableUserns,
      proxyDir: proxy?.dir ?? null,
      env,
    });
    const command =
      proxy && o.socat ? ['/bin/sh', '-c', BRIDGE_SCRIPT, 'sh', o.socat, spec.command] : [spec.command];
    const run = await runGuarded({
      file: o.bwrap,
      args: ['--args', '3', '--', ...command, ...spec.args],
      cwd: spec.cwd,
      env: {},
      fd3: encodeArgs(options),
      timeoutMs: spec.timeoutMs,
      maxOutputBytes: spec.maxOutputBytes,
      signal: spec.signal,
      onOutput: spec.onOutput,
    });
    const refusedHosts = [...(proxy?.refusedHosts ?? [])];
    const setupError = run.spawnError ?? bwrapSetupError(run.stderr, run.exitCode);
    return sandboxResult('bwrap', run, {
      refusedHosts,
      violations: findViolations({
        spec,
        stderr: run.stderr,
        layout,
        refusedHosts,
        proxyRefusals: proxy?.refusals,
        truncated: run.truncated,
        proxyPort: proxy ? BRIDGE_PORT : undefined,
      }),
      setupError,
    });
  } finally {
    await proxy?.close();
  }
}

/** bwrap's own failures (exit 1 with `bwrap: …` before the command ran) are setup errors, not the skill's. */
function bwrapSetupError(stderr: string, exitCode: number | null): string | undefined {
  if (exitCode !== 1) return undefined;
  const line = stderr.split('\n').find((l) => l.startsWith('bwrap: '));
  return line ? `bubblewrap could not start the sandbox: ${line.slice(7)}` : undefined;
}
