import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BRIDGE_PORT, bwrapOptions, bwrapSetupError, encodeArgs, PROXY_DIR, sandboxEnv } from './bwrapArgs';
import { isInside, kernelWrite, planLayout, secretFiles, type LayoutOptions } from './layout';
import { setAsideMadeRepos } from './madeRepos';
import { listeningSockets } from './hostSockets';
import { firmwareSecrets, rootOnly } from './rootOnly';
import { probeSandbox } from './probe';
import type { ResolveHost } from './hosts';
import { startAllowListProxy, type AllowListProxy } from './proxy';
import { DEFAULT_LIMITS } from './limits';
import { sandboxMemoryMeter, sandboxProcessCounter } from './processWatch';
import { seccompFilter } from './seccomp';
import {
  claimedStandIns,
  claimStandIns,
  releaseStandIns,
  sweepStandIns,
  type StandInClaim,
} from './standInLedger';
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
  /** Where a root run's private system files are looked for (rootOnly.ts; tests pass their own). */
  systemRoots?: string[];
  /**
   * Where runs record the stand-ins they make in the user's folders ($SKILLDECK_HOME/stand-ins),
   * so that those an engine killed mid-run left are removed by the next run (standInLedger.ts).
   */
  ledger?: string;
  /**
   * The user's folders that a grant may show again, around, of or inside them (the workspace
   * outside the home): hidden like the home, unlike `hide` never kept hidden under a grant.
   */
  conceal?: string[];
}

let denied: string | null = null;
let standIns: { dir: string; file: string } | null = null;

/**
 * An empty folder and an empty file, read-only, in a private temp folder (made once, again if
 * something removed them): what a missing guarded file is bound to (guarded.ts).
 */
function standInSources(): { dir: string; file: string } | null {
  if (standIns && fs.existsSync(standIns.dir) && fs.existsSync(standIns.file)) return standIns;
  try {
    const at = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldeck-guard-'));
    const made = { dir: path.join(at, 'empty'), file: path.join(at, 'empty-file') };
    fs.mkdirSync(made.dir, { mode: 0o555 });
    fs.writeFileSync(made.file, '', { mode: 0o444, flag: 'wx' });
    standIns = made;
  } catch {
    standIns = null;
  }
  return standIns;
}

/**
 * An empty file with mode 000 in a private temp folder (made once, again if something removed
 * it), bound over the root-only secrets: without capabilities nobody, root included, reads it.
 */
function deniedSource(): string | null {
  if (denied && fs.existsSync(denied)) return denied;
  try {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldeck-deny-')), 'denied');
    fs.writeFileSync(file, '', { mode: 0o000, flag: 'wx' });
    fs.chmodSync(file, 0o000);
    denied = file;
  } catch {
    denied = null;
  }
  return denied;
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

/** The run's folder and its write folders, each once (none inside another). */
function writeRoots(spec: SandboxSpec): string[] {
  const dirs = [spec.cwd, ...spec.grants.write].filter((d) => {
    try {
      return fs.lstatSync(d).isDirectory();
    } catch {
      return false;
    }
  });
  return dirs.filter((d, i) => !dirs.some((o, j) => j !== i && isInside(d, o) && (o !== d || j < i)));
}

async function runBwrap(
  spec: SandboxSpec,
  o: BwrapOptions & { bwrap: string; socat: string | null; disableUserns: boolean },
): Promise<SandboxResult> {
  const started = performance.now();
  const fail = (setupError: string): SandboxResult =>
    blankResult('bwrap', setupError, Math.round(performance.now() - started));
  const kernel = kernelWrite(spec.grants.write);
  if (kernel !== null)
    return fail(
      `it will not give write access to ${kernel}: /, /proc, /dev and /sys are never writable in the sandbox; declare the folders the skill writes instead`,
    );
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
  // What is made on the host for the guards' stand-ins (guarded.ts), removed after the run.
  let claim: StandInClaim = { file: null, paths: [] };
  try {
    if (list) proxy = await startAllowListProxy({ allow: list, listen: 'unix', resolveHost: o.resolveHost });
  } catch (error) {
    return fail(`the network allow-list proxy did not start: ${(error as Error).message}`);
  }
  try {
    // uid 0 inside still owns root's files: hide those only root may read. Listening unix
    // sockets are covered too, wherever a mask does not hide them already.
    const privateToRoot =
      process.getuid?.() === 0
        ? [rootOnly(o.systemRoots), firmwareSecrets()].reduce((a, b) => ({
            dirs: [...a.dirs, ...b.dirs],
            files: [...a.files, ...b.files],
          }))
        : { dirs: [], files: [] };
    sweepStandIns(o.ledger);
    const layout = planLayout(spec, {
      ...o,
      claimedStandIns: claimedStandIns(o.ledger),
      hide: [...(o.hide ?? []), ...(o.conceal ?? []), ...privateToRoot.dirs],
      // Root's private folders hide like the rest, but a grant of one (a mkdtemp folder) shows it.
      keepHidden: o.hide ?? [],
      deny: [...(o.deny ?? secretFiles()), ...privateToRoot.files, ...listeningSockets()],
    });
    claim = claimStandIns(o.ledger, layout.created ?? []);
    // The keyring calls only. With `network: true` the run shares the host's network namespace
    // and so its abstract unix sockets (an X server's @/tmp/.X11-unix/X0): refusing
    // socket(AF_UNIX) would close them, but it broke headless Chromium, which needs its own.
    try {
      for (const b of layout.binds) if (b.pin) fs.mkdirSync(b.path, { recursive: true });
    } catch (error) {
      return fail(`could not create a folder to guard: ${(error as Error).message}`);
    }
    const seccomp = seccompFilter();
    const env = sandboxEnv(spec.grants.env, proxy ? `http://127.0.0.1:${BRIDGE_PORT}` : null);
    const options = bwrapOptions(spec, layout, {
      disableUserns: o.disableUserns,
      proxyDir: proxy?.dir ?? null,
      env,
      deniedSource: layout.deniedFiles.length > 0 ? deniedSource() : null,
      standIns: layout.binds.some((b) => b.placeholder) ? standInSources() : null,
      ...(seccomp ? { seccompFd: 4 } : {}),
    });
    const command =
      proxy && o.socat ? ['/bin/sh', '-c', BRIDGE_SCRIPT, 'sh', o.socat, spec.command] : [spec.command];
    const limits = spec.limits ?? DEFAULT_LIMITS;
    // A file system's clock may lag the wall clock by a tick.
    const since = Date.now() - 10;
    const run = await runGuarded({
      file: o.bwrap,
      args: ['--args', '3', '--', ...command, ...spec.args],
      cwd: spec.cwd,
      env: {},
      fd3: encodeArgs(options),
      ...(seccomp ? { fd4: seccomp } : {}),
      timeoutMs: spec.timeoutMs,
      maxOutputBytes: spec.maxOutputBytes,
      limits,
      writable: [spec.cwd, ...spec.grants.write],
      // RLIMIT_NPROC never holds for root: the engine counts the sandbox's processes instead.
      ...(process.getuid?.() === 0
        ? { processWatch: { limit: limits.processes, counter: sandboxProcessCounter } }
        : {}),
      memoryMeter: sandboxMemoryMeter,
      signal: spec.signal,
      onOutput: spec.onOutput,
    });
    const refusedHosts = [...(proxy?.refusedHosts ?? [])];
    const setupError = run.spawnError ?? bwrapSetupError(run.stderr, run.exitCode);
    // Every process of the run is gone: what it left can no longer change under the check.
    const madeRepos = setAsideMadeRepos(writeRoots(spec), since, (p) =>
      [spec.skillDir, ...(o.hide ?? [])].some((h) => isInside(p, h) && !isInside(p, spec.cwd)),
    );
    return sandboxResult('bwrap', run, {
      refusedHosts,
      violations: [
        ...madeRepos,
        ...findViolations({
          spec,
          stderr: run.stderr,
          layout,
          refusedHosts,
          proxyRefusals: proxy?.refusals,
          truncated: run.truncated,
          proxyPort: proxy ? BRIDGE_PORT : undefined,
        }),
      ],
      setupError,
    });
  } finally {
    releaseStandIns(o.ledger, claim);
    await proxy?.close();
  }
}
