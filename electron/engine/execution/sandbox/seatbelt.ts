import fs from 'node:fs';
import { sandboxEnv } from './bwrapArgs';
import { probeSandbox } from './probe';
import type { ResolveHost } from './hosts';
import { startAllowListProxy, type AllowListProxy } from './proxy';
import { buildSeatbeltProfile, seatbeltLayout, type SeatbeltProfileOptions } from './seatbeltProfile';
import { DEFAULT_LIMITS } from './limits';
import { runGuarded } from './spawn';
import {
  blankResult,
  sandboxResult,
  type SandboxBackend,
  type SandboxResult,
  type SandboxSpec,
} from './types';
import { findViolations } from './violations';

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
      limits: spec.limits ?? DEFAULT_LIMITS,
      writable: [spec.cwd, ...spec.grants.write],
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
