import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALLOWED_VALUE,
  currentUserRunner,
  nonRootRunner,
  openFixture,
  pick,
  processesWith,
  SECRET_VAR,
  waitFor,
  type ProbeFixture,
} from './testing/harness';
import type { ProbeOutcome } from './testing/planRunner';
import { LANGS, sleepArg } from './testing/probes';

// Issue 7 enforcement probes, process rules: the environment is exactly the allow-list, a
// timeout leaves no grandchild (even one in its own session), the output cap stops a flood.
const runners = [currentUserRunner, await nonRootRunner()];
const CAP = 64 * 1024;

describe.each(runners)('bwrap process rules, as $user', (runner) => {
  let fx: ProbeFixture;
  let outcomes: ProbeOutcome[] = [];
  /** Grandchild pids seen on the host while the runs were under way, per language. */
  const seen = new Map<string, Set<number>>();

  beforeAll(async () => {
    if (runner.unavailable) return;
    fx = await openFixture();
    // Loader and runtime hooks in the grants must never reach the sandbox.
    const hooks = { LD_PRELOAD: '/nonexistent/hook.so', NODE_OPTIONS: '--require /nonexistent/hook.js' };
    const plans = LANGS.flatMap((lang) => [
      fx.plan('env', lang, {}, { env: { ...fx.plan('env', lang).grants.env, ...hooks } }),
      fx.plan('grandchild', lang, { timeoutMs: 2500 }),
      fx.plan('flood', lang, { maxOutputBytes: CAP }),
    ]);
    plans.push(fx.plan('grandchild', 'bash', { id: 'cancel', timeoutMs: 30_000, cancelAfterMs: 1200 }));
    const poll = setInterval(() => {
      for (const lang of LANGS) {
        const pids = processesWith(sleepArg(fx.ctx, lang));
        seen.set(lang, new Set([...(seen.get(lang) ?? []), ...pids]));
      }
    }, 100);
    try {
      outcomes = await runner.run(plans, fx);
    } finally {
      clearInterval(poll);
    }
  }, 180_000);
  afterAll(async () => fx?.close());

  const outcome = (id: string) => {
    const o = pick(outcomes, id);
    if (!o.result) throw new Error(`${id}: ${o.error}`);
    return o;
  };

  it.for(LANGS)('%s: a variable outside the allow-list is absent, and named', (lang, ctx) => {
    if (runner.unavailable) return ctx.skip(runner.unavailable);
    const r = outcome(`env-${lang}-bwrap`).result!;
    expect(r.stdout).toContain(`allowed=${ALLOWED_VALUE}`);
    expect(r.stdout).not.toContain('do-not-leak');
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).not.toMatch(/ld\.so|hook\.js/);
    expect(r.violations).toEqual([
      {
        kind: 'env',
        target: SECRET_VAR,
        message: `tried to read the environment variable ${SECRET_VAR}, which is not in its environment allow-list`,
      },
    ]);
  });

  it.for(LANGS)(
    '%s: a timeout kills the whole tree, grandchild in its own session included',
    async (lang, ctx) => {
      if (runner.unavailable) return ctx.skip(runner.unavailable);
      const r = outcome(`grandchild-${lang}-bwrap`).result!;
      expect(r.timedOut).toBe(true);
      expect(r.stdout).toContain('started');
      expect(r.durationMs).toBeLessThan(10_000);
      // The grandchild existed while the run was under way, and is gone now.
      expect(seen.get(lang)?.size ?? 0).toBeGreaterThan(0);
      await waitFor(() => processesWith(sleepArg(fx.ctx, lang)).length === 0);
      expect(processesWith(sleepArg(fx.ctx, lang))).toEqual([]);
    },
  );

  it.for(LANGS)('%s: a stdout flood is cut at the cap and named', (lang, ctx) => {
    if (runner.unavailable) return ctx.skip(runner.unavailable);
    const o = outcome(`flood-${lang}-bwrap`);
    const r = o.result!;
    expect(r.truncated).toBe(true);
    expect(r.timedOut).toBe(false);
    expect(Buffer.byteLength(r.stdout) + Buffer.byteLength(r.stderr)).toBe(CAP);
    expect(o.streamed).toBeGreaterThan(0);
    expect(r.violations).toEqual([
      {
        kind: 'output',
        target: `${CAP} bytes`,
        message: 'printed more than 64 KiB of output, its cap; it was stopped there',
      },
    ]);
  });

  it('Stop (AbortSignal) kills the run and its grandchild', async (ctx) => {
    if (runner.unavailable) return ctx.skip(runner.unavailable);
    const r = outcome('cancel').result!;
    expect(r.cancelled).toBe(true);
    expect(r.timedOut).toBe(false);
    expect(r.durationMs).toBeLessThan(10_000);
    await waitFor(() => processesWith(sleepArg(fx.ctx, 'bash')).length === 0);
    expect(processesWith(sleepArg(fx.ctx, 'bash'))).toEqual([]);
  });
});
