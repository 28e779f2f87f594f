import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBwrapBackend } from './bwrap';
import { createProcessBackend } from './process';
import { probeSandbox, which } from './probe';
import { startAllowListProxy } from './proxy';
import type { SandboxBackend, SandboxSpec } from './types';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number) => Math.round(x * 10) / 10;

async function timeRun(backend: SandboxBackend, spec: SandboxSpec): Promise<number> {
  const start = performance.now();
  const r = await backend.run(spec);
  const ms = performance.now() - start;
  if (r.exitCode !== 0) throw new Error(`${backend.tier} run failed: ${r.setupError ?? r.stderr}`);
  return ms;
}

/**
 * Sandbox overhead per run (issue 7 speed goal: ≤ 10 ms over a plain spawn, network off),
 * and what a declared domain list adds (the per-run proxy and the socat bridge). Runs are
 * interleaved so machine load hits every variant alike. Used by `npm run bench`.
 */
export async function benchSandbox(runs = 30): Promise<Record<string, unknown>> {
  const probe = probeSandbox();
  if (probe.tier !== 'bwrap') return { skipped: `no bwrap here: ${probe.reason}` };
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldeck-bench-sbx-'));
  const spec = (network: SandboxSpec['grants']['network']): SandboxSpec => ({
    command: which('true') ?? '/bin/true',
    args: [],
    cwd: path.join(root, 'run'),
    skillDir: root,
    grants: {
      read: [],
      write: [],
      network,
      env: { PATH: '/usr/bin:/bin' },
      declared: { read: [], write: [] },
    },
    timeoutMs: 10_000,
    maxOutputBytes: 1024,
  });
  const plain = createProcessBackend();
  const bwrap = createBwrapBackend({ home: root });
  const times = {
    plain: [] as number[],
    bwrap: [] as number[],
    allowList: [] as number[],
    proxyOnly: [] as number[],
  };
  try {
    for (let i = 0; i < runs + 3; i++) {
      const warm = i < 3;
      const p = await timeRun(plain, spec(false));
      const b = await timeRun(bwrap, spec(false));
      const a = probe.socat ? await timeRun(bwrap, spec(['example.com'])) : NaN;
      const start = performance.now();
      await (await startAllowListProxy({ allow: ['example.com'], listen: 'unix' })).close();
      const proxyOnly = performance.now() - start;
      if (warm) continue;
      times.plain.push(p);
      times.bwrap.push(b);
      times.allowList.push(a);
      times.proxyOnly.push(proxyOnly);
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  const overhead = median(times.bwrap) - median(times.plain);
  return {
    runs,
    command: 'true',
    plain_spawn_ms: round(median(times.plain)),
    bwrap_network_off_ms: round(median(times.bwrap)),
    overhead_ms: round(overhead),
    target_overhead_ms: 10,
    // Wall times on a busy shared machine are mostly waiting for a core: read them with the load.
    load_average: os.loadavg().map(round),
    cpus: os.cpus().length,
    pass: overhead <= 10,
    allow_list: probe.socat
      ? {
          bwrap_with_proxy_ms: round(median(times.allowList)),
          startup_over_network_off_ms: round(median(times.allowList) - median(times.bwrap)),
          proxy_start_stop_alone_ms: round(median(times.proxyOnly)),
        }
      : { skipped: 'socat is not installed' },
  };
}
