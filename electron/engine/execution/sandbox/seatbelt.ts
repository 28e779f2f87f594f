import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sandboxEnv } from './bwrap';
import type { SandboxLayout } from './layout';
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

export interface SeatbeltProfileOptions {
  /** The engine user's home; os.homedir() when omitted. */
  home?: string;
  /** More folders to hide. */
  hide?: string[];
  /** The allow-list proxy's loopback port, when the network is a domain list. */
  proxyPort?: number | null;
}

/** Mach services an interpreter needs to start (user lookups, logging); nothing that launches processes. */
const MACH_SERVICES = [
  'com.apple.system.opendirectoryd.libinfo',
  'com.apple.system.logger',
  'com.apple.system.notification_center',
  'com.apple.logd',
  'com.apple.trustd.agent',
  'com.apple.SecurityServer',
];

/** SBPL string literal. */
export function sbplString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** sandbox-exec matches real paths (/tmp is /private/tmp on macOS). */
function real(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

function ancestors(p: string): string[] {
  const out: string[] = [];
  for (let cur = path.dirname(p); cur !== path.dirname(cur); cur = path.dirname(cur)) out.push(cur);
  return out;
}

function seatbeltPaths(spec: Pick<SandboxSpec, 'cwd' | 'skillDir' | 'grants'>, opts: SeatbeltProfileOptions) {
  const home = real(opts.home ?? os.homedir());
  const hidden = [home, '/Users', '/private/tmp', '/private/var/folders', '/private/var/tmp', '/Volumes'];
  return {
    hidden: [...new Set([...hidden, ...(opts.hide ?? []).map(real)])],
    writes: [spec.cwd, ...spec.grants.write].map(real),
    reads: [spec.skillDir, ...spec.grants.read].map(real),
  };
}

/** The same rules as a layout, so violations.ts judges sandbox-exec's denials like bwrap's. */
export function seatbeltLayout(
  spec: Pick<SandboxSpec, 'cwd' | 'skillDir' | 'grants'>,
  opts: SeatbeltProfileOptions = {},
): SandboxLayout {
  const { hidden, writes, reads } = seatbeltPaths(spec, opts);
  const binds = [
    ...reads.map((p) => ({ path: p, writable: false })),
    ...writes.map((p) => ({ path: p, writable: true })),
  ];
  return { masks: hidden, binds: binds.sort((a, b) => a.path.split('/').length - b.path.split('/').length) };
}

const subpaths = (paths: string[]) => paths.map((p) => `(subpath ${sbplString(p)})`).join(' ');

/**
 * The sandbox-exec profile for one run, with bwrap's rules (DESIGN §4): deny by default;
 * read the system but not the home, temp folders or mounted volumes, except the skill
 * folder, the work dir and the grants (interpreter prefixes arrive in grants.read); write
 * only the work dir and the write grants; network off, only the proxy on loopback, or on.
 * Later SBPL rules win over earlier ones, which the order below relies on.
 */
export function buildSeatbeltProfile(
  spec: Pick<SandboxSpec, 'cwd' | 'skillDir' | 'grants'>,
  opts: SeatbeltProfileOptions = {},
): string {
  const { hidden, writes, reads } = seatbeltPaths(spec, opts);
  const visible = [...writes, ...reads];
  const parents = [...new Set(visible.flatMap(ancestors))];

  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-fork)',
    '(allow process-exec)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read)',
    `(allow mach-lookup ${MACH_SERVICES.map((s) => `(global-name ${sbplString(s)})`).join(' ')})`,
    '; system files are readable, like bwrap --ro-bind / /',
    '(allow file-read*)',
    '; home, temp folders and volumes are hidden, like bwrap --tmpfs',
    `(deny file-read* ${subpaths(hidden)})`,
    '; runtimes stat the folders on the way to a granted path',
    `(allow file-read-metadata ${parents.map((p) => `(literal ${sbplString(p)})`).join(' ')})`,
    '; the skill folder, the work dir, the read grants and interpreter prefixes',
    `(allow file-read* ${subpaths([...new Set(visible)])})`,
    '; writes: only the work dir and the write grants',
    `(allow file-write* ${subpaths([...new Set(writes)])} (literal "/dev/null") (regex #"^/dev/tty") (literal "/dev/stdout") (literal "/dev/stderr"))`,
  ];
  const network = spec.grants.network;
  if (network === true) {
    lines.push(
      '; network: any host',
      '(allow network*)',
      '(allow mach-lookup (global-name "com.apple.dnssd.service"))',
    );
  } else if (Array.isArray(network) && opts.proxyPort) {
    lines.push(
      `; network: only the allow-list proxy (${network.join(', ')})`,
      `(allow network-outbound (remote ip ${sbplString(`localhost:${opts.proxyPort}`)}))`,
    );
  } else {
    lines.push('; network: none');
  }
  return `${lines.join('\n')}\n`;
}

export interface SeatbeltOptions extends SeatbeltProfileOptions {
  sandboxExec?: string;
  resolveHost?: ResolveHost;
}

/**
 * The macOS backend: `sandbox-exec -p PROFILE command …` with the generated profile, the
 * environment exactly the grants, its own process group. A domain list starts the
 * allow-list proxy on a loopback TCP port, the only network the profile allows.
 */
export function createSeatbeltBackend(opts: SeatbeltOptions = {}): SandboxBackend {
  const sandboxExec = opts.sandboxExec ?? probeSandbox().sandboxExec ?? '/usr/bin/sandbox-exec';
  return { tier: 'seatbelt', unenforced: [], run: (spec) => runSeatbelt(spec, sandboxExec, opts) };
}

async function runSeatbelt(
  spec: SandboxSpec,
  sandboxExec: string,
  opts: SeatbeltOptions,
): Promise<SandboxResult> {
  const list = Array.isArray(spec.grants.network) ? spec.grants.network : null;
  let proxy: AllowListProxy | null = null;
  try {
    for (const w of [spec.cwd, ...spec.grants.write]) fs.mkdirSync(w, { recursive: true });
    if (list)
      proxy = await startAllowListProxy({ allow: list, listen: 'tcp', resolveHost: opts.resolveHost });
  } catch (error) {
    return blankResult('seatbelt', `the sandbox could not be prepared: ${(error as Error).message}`);
  }
  try {
    const profile = buildSeatbeltProfile(spec, { ...opts, proxyPort: proxy?.port ?? null });
    const run = await runGuarded({
      file: sandboxExec,
      args: ['-p', profile, spec.command, ...spec.args],
      cwd: spec.cwd,
      env: sandboxEnv(spec.grants.env, proxy ? `http://127.0.0.1:${proxy.port}` : null),
      timeoutMs: spec.timeoutMs,
      maxOutputBytes: spec.maxOutputBytes,
      signal: spec.signal,
      onOutput: spec.onOutput,
    });
    const refusedHosts = [...(proxy?.refusedHosts ?? [])];
    return sandboxResult('seatbelt', run, {
      refusedHosts,
      // sandbox-exec denies with EPERM ("Operation not permitted") where bwrap gives EROFS/ENOENT.
      violations: findViolations({
        spec,
        stderr: run.stderr,
        layout: seatbeltLayout(spec, opts),
        refusedHosts,
        proxyRefusals: proxy?.refusals,
        truncated: run.truncated,
      }),
      ...(run.spawnError ? { setupError: `could not start sandbox-exec: ${run.spawnError}` } : {}),
    });
  } finally {
    await proxy?.close();
  }
}
