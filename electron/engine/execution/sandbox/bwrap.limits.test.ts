import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentUserRunner, nonRootRunner, openFixture, pick, type ProbeFixture } from './testing/harness';
import type { ProbeOutcome } from './testing/planRunner';
import { BIG_CHUNKS, LANGS, MEMORY_MIB, type Lang } from './testing/probes';

// Resource limits (limits.ts): a file past the file-size limit fails instead of filling the
// disk, an allocation past the memory limit fails instead of swapping the machine to a halt,
// and a fork loop stops at the process limit; the same probes with room to spare succeed.
const runners = [currentUserRunner, await nonRootRunner()];
const MiB = 1024 * 1024;
const TIGHT = { fileBytes: MiB, processes: 30, memoryBytes: 256 * MiB };
const ROOMY = { fileBytes: 64 * MiB, processes: 1000, memoryBytes: 2048 * MiB };
/**
 * Bash pads a 512 MiB string a byte at a time: 11–12 s on a loaded 2-core machine, near the
 * fixture's 15 s run timeout, so these runs get more room (a timeout is no limit being tested).
 */
const SLOW_RUN_MS = 60_000;
/** Bash retries a failed fork for half a minute; Python and Node report it at once. */
const FORK_LANGS: Lang[] = ['python', 'node'];

describe.each(runners)('bwrap resource limits, as $user', (runner) => {
  let fx: ProbeFixture;
  let outcomes: ProbeOutcome[] = [];

  beforeAll(async () => {
    if (runner.unavailable) return;
    fx = await openFixture();
    // The roomy twin runs in its own folder (a plan's folder follows its default id).
    const roomy = (probe: 'bigfile' | 'forks' | 'memory', lang: Lang) => {
      const id = `${probe}-${lang}-roomy`;
      return fx.plan(probe, lang, {
        id,
        cwd: path.join(fx.root, 'runs', id),
        limits: ROOMY,
        timeoutMs: SLOW_RUN_MS,
      });
    };
    const plans = LANGS.flatMap((lang) => [
      fx.plan('bigfile', lang, { limits: TIGHT, timeoutMs: SLOW_RUN_MS }),
      roomy('bigfile', lang),
      fx.plan('memory', lang, { limits: TIGHT, timeoutMs: SLOW_RUN_MS }),
      roomy('memory', lang),
    ]);
    outcomes = await runner.run(plans, fx);
    // One at a time: the process count is the user's, so a fork loop running beside another
    // run takes that run's room too.
    for (const lang of FORK_LANGS)
      for (const plan of [fx.plan('forks', lang, { limits: TIGHT }), roomy('forks', lang)])
        outcomes.push(...(await runner.run([plan], fx)));
  }, 300_000);
  afterAll(async () => fx?.close());

  const result = (id: string) => {
    const o = pick(outcomes, id);
    if (!o.result) throw new Error(`${id}: ${o.error}`);
    return o.result;
  };
  const bigFile = (id: string) => path.join(fx.root, 'runs', id, 'out', 'big.bin');

  it.for(LANGS)('%s: a file past the file-size limit fails, and is named', (lang, ctx) => {
    if (runner.unavailable) return ctx.skip(runner.unavailable);
    const r = result(`bigfile-${lang}-bwrap`);
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).not.toContain('wrote it all');
    expect(fs.statSync(bigFile(`bigfile-${lang}-bwrap`)).size).toBeLessThanOrEqual(MiB);
    expect(r.violations[0]).toEqual({
      kind: 'output',
      target: `${MiB} bytes per file`,
      message: 'tried to write a file larger than 1 MiB, its file-size limit',
    });
  });

  it.for(LANGS)('%s: the same file under a roomier limit is written whole', (lang, ctx) => {
    if (runner.unavailable) return ctx.skip(runner.unavailable);
    const r = result(`bigfile-${lang}-roomy`);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('wrote it all');
    expect(fs.statSync(bigFile(`bigfile-${lang}-roomy`)).size).toBe(BIG_CHUNKS * 65536);
    expect(r.violations).toEqual([]);
  });

  it.for(LANGS)('%s: an allocation past the memory limit fails, and is named (root too)', (lang, ctx) => {
    if (runner.unavailable) return ctx.skip(runner.unavailable);
    const r = result(`memory-${lang}-bwrap`);
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).not.toContain('allocated');
    expect(r.violations[0]).toEqual({
      kind: 'output',
      target: `${256 * MiB} bytes of memory`,
      message: 'ran out of memory at its 256 MiB memory limit',
    });
  });

  it.for(LANGS)('%s: the same allocation under a roomier limit succeeds', (lang, ctx) => {
    if (runner.unavailable) return ctx.skip(runner.unavailable);
    const r = result(`memory-${lang}-roomy`);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`allocated ${MEMORY_MIB}`);
    expect(r.violations).toEqual([]);
  });

  it.for(FORK_LANGS)('%s: a fork loop stops at the process limit (root too)', (lang, ctx) => {
    if (runner.unavailable) return ctx.skip(runner.unavailable);
    const r = result(`forks-${lang}-bwrap`);
    // The kernel never counts root's processes (RLIMIT_NPROC): for root the engine counts
    // the sandbox's PID namespace and stops the run past the limit.
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).not.toContain('started');
    expect(r.violations[0]).toEqual({
      kind: 'exec',
      target: '30 processes',
      message: 'tried to start more than 30 processes, its process limit',
    });
  });

  it.for(FORK_LANGS)('%s: the same loop under a roomier limit runs', (lang, ctx) => {
    if (runner.unavailable) return ctx.skip(runner.unavailable);
    const r = result(`forks-${lang}-roomy`);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('started 120');
    expect(r.violations).toEqual([]);
  });
});
