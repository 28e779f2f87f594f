import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentUserRunner, nonRootRunner, openFixture, pick, type ProbeFixture } from './testing/harness';
import type { ProbeOutcome } from './testing/planRunner';
import { LANGS } from './testing/probes';

// Issue 7 enforcement probes, network: a loopback server the test starts is out of reach
// without a network grant; a domain list lets only the allowed host through the per-run
// proxy (a local server stands in for allowed.test and denied.test).
const runners = [currentUserRunner, await nonRootRunner()];

describe.each(runners)('bwrap network rules, as $user', (runner) => {
  let fx: ProbeFixture;
  let outcomes: ProbeOutcome[] = [];

  beforeAll(async () => {
    if (runner.unavailable) return;
    fx = await openFixture();
    const plans = LANGS.flatMap((lang) => [
      fx.plan('loopback', lang),
      // `network: true` shares the host's network: the same server is reachable.
      fx.plan('loopback', lang, { id: `loopback-${lang}-open` }, { network: true }),
      fx.plan('allowlist', lang, {}, { network: ['allowed.test'] }),
    ]);
    outcomes = await runner.run(plans, fx);
  }, 180_000);
  afterAll(async () => fx?.close());

  const outcome = (id: string) => {
    const o = pick(outcomes, id);
    if (!o.result) throw new Error(`${id}: ${o.error}`);
    return o.result;
  };

  it.for(LANGS)('%s: a loopback HTTP server on the host is out of reach, and named', (lang, ctx) => {
    if (runner.unavailable) return ctx.skip(runner.unavailable);
    const r = outcome(`loopback-${lang}-bwrap`);
    const target = `127.0.0.1:${fx.ctx.port}`;
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).not.toContain('hello from');
    expect(r.violations).toEqual([
      {
        kind: 'network',
        target,
        message: `tried to reach ${target} over the network, which it does not declare`,
      },
    ]);
  });

  it.for(LANGS)('%s: with network granted, the same server answers', (lang, ctx) => {
    if (runner.unavailable) return ctx.skip(runner.unavailable);
    const r = outcome(`loopback-${lang}-open`);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`hello from 127.0.0.1:${fx.ctx.port}`);
    expect(r.violations).toEqual([]);
  });

  it.for(LANGS)('%s: the allow-list proxy lets allowed.test through and refuses denied.test', (lang, ctx) => {
    if (runner.unavailable) return ctx.skip(runner.unavailable);
    const r = outcome(`allowlist-${lang}-bwrap`);
    expect(r.stdout).toContain(`hello from allowed.test:${fx.ctx.port}`);
    expect(r.exitCode).toBe(3);
    expect(r.refusedHosts).toEqual(['denied.test']);
    expect(r.violations).toEqual([
      {
        kind: 'network',
        target: 'denied.test',
        message: 'tried to reach denied.test, not in its network allow-list: allowed.test',
      },
    ]);
  });

  it('the test server never saw denied.test', (ctx) => {
    if (runner.unavailable) return ctx.skip(runner.unavailable);
    expect(fx.served.some((h) => h.startsWith('denied.test'))).toBe(false);
    expect(fx.served.filter((h) => h.startsWith('allowed.test'))).toHaveLength(3);
  });
});
