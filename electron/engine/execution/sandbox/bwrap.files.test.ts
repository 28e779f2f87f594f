import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALLOWED_VALUE,
  currentUserRunner,
  nonRootRunner,
  openFixture,
  pick,
  type ProbeFixture,
} from './testing/harness';
import type { ProbeOutcome } from './testing/planRunner';
import { LANGS } from './testing/probes';

// Issue 7 enforcement probes, files: writes outside the grants, ~/.ssh from a fake home, a
// host unix socket; and the allowed counterparts. Real bwrap, as root and as a throwaway user.
const runners = [currentUserRunner, await nonRootRunner()];

describe.each(runners)('bwrap files and sockets, as $user', (runner) => {
  let fx: ProbeFixture;
  let outcomes: ProbeOutcome[] = [];

  beforeAll(async () => {
    if (runner.unavailable) return;
    fx = await openFixture();
    // A folder of the home the run cannot see: a write into it fails as "no such file" inside.
    fs.mkdirSync(path.join(fx.home, 'notes'), { recursive: true });
    const readGrant = {
      read: [fx.ctx.grantedFile],
      declared: { read: ['~/docs/notes.txt'], write: ['./out/**'] },
    };
    const plans = LANGS.flatMap((lang) => [
      fx.plan('write_outside', lang),
      fx.plan('write_home', lang),
      fx.plan('read_ssh', lang),
      fx.plan('read_shadow', lang),
      // A read grant of the whole home, as csv-summary declares: ~/.netrc stays unreadable.
      fx.plan(
        'read_creds',
        lang,
        { hideFiles: [path.join(fx.home, '.netrc')] },
        { read: [fx.home], declared: { read: ['~/**'], write: ['./out/**'] } },
      ),
      // Control: as root, the same read without the OS sandbox gets the password hashes.
      fx.plan('read_shadow', lang, { backend: 'process' }),
      fx.plan('allowed_files', lang, {}, readGrant),
      fx.plan('socket', lang),
      // Control: the same socket probe without the OS sandbox reaches the socket.
      fx.plan('socket', lang, { backend: 'process' }),
    ]);
    outcomes = await runner.run(plans, fx);
  }, 180_000);
  afterAll(async () => fx?.close());

  const outcome = (id: string) => {
    const o = pick(outcomes, id);
    if (!o.result) throw new Error(`${id}: ${o.error}`);
    return o.result;
  };

  it.for(LANGS)('%s: writing outside the grants is blocked and named', (lang, ctx) => {
    if (runner.unavailable) return ctx.skip(runner.unavailable);
    const r = outcome(`write_outside-${lang}-bwrap`);
    const target = fx.ctx.outsidePath;
    expect(r.tier).toBe('bwrap');
    expect(r.exitCode).not.toBe(0);
    expect(r.violations).toContainEqual({
      kind: 'write',
      target,
      message: `tried to write ${target}, outside its write paths ./out/**`,
    });
    expect(fs.existsSync(target)).toBe(false);
  });

  it.for(LANGS)('%s: writing into the hidden home is named a write, not a read', (lang, ctx) => {
    if (runner.unavailable) return ctx.skip(runner.unavailable);
    const r = outcome(`write_home-${lang}-bwrap`);
    const target = path.join(fx.home, 'notes/new.txt');
    expect(r.exitCode).not.toBe(0);
    expect(r.violations).toEqual([
      { kind: 'write', target, message: `tried to write ${target}, outside its write paths ./out/**` },
    ]);
    expect(fs.existsSync(target)).toBe(false);
  });

  it.for(LANGS)('%s: ~/.ssh/id_rsa of the home is hidden and named', (lang, ctx) => {
    if (runner.unavailable) return ctx.skip(runner.unavailable);
    const r = outcome(`read_ssh-${lang}-bwrap`);
    const target = path.join(fx.home, '.ssh/id_rsa');
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).not.toContain('FAKE PRIVATE KEY');
    expect(r.violations).toEqual([
      { kind: 'read', target, message: `tried to read ${target}, outside its read paths (none declared)` },
    ]);
  });

  it.for(LANGS)('%s: ~/.netrc stays unreadable under a read grant of the whole home', (lang, ctx) => {
    if (runner.unavailable) return ctx.skip(runner.unavailable);
    const r = outcome(`read_creds-${lang}-bwrap`);
    const target = path.join(fx.home, '.netrc');
    expect(r.stdout).toContain('home notes');
    expect(r.stdout).not.toContain('FAKE-NETRC-SECRET');
    expect(r.exitCode).not.toBe(0);
    expect(r.violations).toEqual([
      {
        kind: 'read',
        target,
        message: `tried to read ${target}, which holds keys, credentials or SkillDeck's own data: hidden under its read paths ~/**, shown only to a read path that names it`,
      },
    ]);
  });

  it.for(LANGS)('%s: /etc/shadow stays unreadable, even to root, and is named', (lang, ctx) => {
    if (runner.unavailable) return ctx.skip(runner.unavailable);
    const r = outcome(`read_shadow-${lang}-bwrap`);
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).not.toMatch(/^root:/m);
    expect(r.violations).toEqual([
      {
        kind: 'read',
        target: '/etc/shadow',
        message: 'tried to read /etc/shadow, outside its read paths (none declared)',
      },
    ]);
    if (runner.user === 'root') expect(outcome(`read_shadow-${lang}-process`).stdout).toMatch(/^root:/m);
  });

  it.for(LANGS)(
    '%s: writing ./out, reading a granted file and an allow-listed variable work',
    (lang, ctx) => {
      if (runner.unavailable) return ctx.skip(runner.unavailable);
      const r = outcome(`allowed_files-${lang}-bwrap`);
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      expect(r.violations).toEqual([]);
      expect(r.stdout).toContain('granted notes');
      expect(r.stdout).toContain(ALLOWED_VALUE);
      const written = path.join(fx.root, 'runs', `allowed_files-${lang}-bwrap`, 'out', 'ok.txt');
      expect(fs.readFileSync(written, 'utf8').trim()).toBe('ok');
    },
  );

  it.for(LANGS)('%s: a host unix socket cannot be reached (but can without the sandbox)', (lang, ctx) => {
    if (runner.unavailable) return ctx.skip(runner.unavailable);
    const r = outcome(`socket-${lang}-bwrap`);
    const target = fx.ctx.socketPath;
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).not.toContain('hello from the host socket');
    expect(r.violations).toEqual([
      {
        kind: 'read',
        target,
        message: `tried to connect to the socket ${target}, outside its read paths (none declared)`,
      },
    ]);
    expect(outcome(`socket-${lang}-process`).stdout).toContain('hello from the host socket');
  });
});
