import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../../testing/fixtures';
import { buildSeatbeltProfile, sbplString, seatbeltLayout } from './seatbeltProfile';
import type { SandboxGrants, SandboxSpec } from './types';
import { findViolations } from './violations';

// sandbox-exec cannot run here: the generated profile is checked rule by rule. Paths are
// made-up macOS paths that do not exist on this machine, so they pass through unresolved.
const home = '/Users/ana';
const spec = (over: Partial<SandboxGrants> = {}): Pick<SandboxSpec, 'cwd' | 'skillDir' | 'grants'> => ({
  cwd: '/private/var/folders/xy/T/skilldeck-run-1',
  skillDir: '/Users/ana/.claude/skills/pdf',
  grants: {
    read: ['/Users/ana/docs', '/Users/ana/.pyenv/versions/3.12.1'],
    write: ['/Users/ana/out'],
    network: false,
    env: {},
    declared: { read: ['~/docs/**'], write: ['~/out/**'] },
    ...over,
  },
});
const profile = (over: Partial<SandboxGrants> = {}, proxyPort: number | null = null) =>
  buildSeatbeltProfile(spec(over), { home, proxyPort });
const lines = (text: string) => text.split('\n');
const indexOf = (text: string, start: string) => lines(text).findIndex((l) => l.startsWith(start));

describe('seatbelt profile', () => {
  it('denies by default and allows starting processes', () => {
    const p = lines(profile());
    expect(p.slice(0, 2)).toEqual(['(version 1)', '(deny default)']);
    expect(p).toContain('(allow process-fork)');
    expect(p).toContain('(allow process-exec)');
  });

  it('reads the system but hides home, temp folders and volumes, then allows the grants back (later rules win)', () => {
    const p = profile();
    const allowAll = indexOf(p, '(allow file-read*)');
    const deny = indexOf(p, '(deny file-read*');
    const grants = indexOf(p, '(allow file-read* (subpath');
    expect(allowAll).toBeGreaterThan(0);
    expect(deny).toBeGreaterThan(allowAll);
    expect(grants).toBeGreaterThan(deny);
    const denied = lines(p)[deny];
    for (const hidden of ['/Users/ana', '/Users', '/private/tmp', '/private/var/folders', '/Volumes'])
      expect(denied).toContain(`(subpath "${hidden}")`);
    const allowed = lines(p)[grants];
    for (const path of [
      spec().skillDir,
      spec().cwd,
      '/Users/ana/docs',
      '/Users/ana/.pyenv/versions/3.12.1',
      '/Users/ana/out',
    ])
      expect(allowed).toContain(`(subpath "${path}")`);
  });

  it('lets runtimes stat the folders on the way to a granted path, and nothing more there', () => {
    const meta = lines(profile()).find((l) => l.startsWith('(allow file-read-metadata'))!;
    expect(meta).toContain('(literal "/Users/ana")');
    expect(meta).toContain('(literal "/Users/ana/.claude/skills")');
    expect(meta).not.toContain('subpath');
  });

  it('writes only the work dir, the write grants and the terminal devices', () => {
    const write = lines(profile()).filter((l) => l.startsWith('(allow file-write*'));
    expect(write).toHaveLength(1);
    expect(write[0]).toContain(`(subpath "${spec().cwd}")`);
    expect(write[0]).toContain('(subpath "/Users/ana/out")');
    expect(write[0]).toContain('(literal "/dev/null")');
    expect(write[0]).not.toContain(spec().skillDir);
    expect(write[0]).not.toContain('/Users/ana/docs');
  });

  it('keeps the skill folder read-only under a write grant around it, of it or inside it (later rules win)', () => {
    const skill = spec().skillDir;
    for (const write of ['/Users/ana', skill, `${skill}/scripts`]) {
      const p = profile({ write: [write] });
      const allow = indexOf(p, '(allow file-write*');
      const deny = indexOf(p, '(deny file-write*');
      expect(deny, write).toBeGreaterThan(allow);
      expect(lines(p)[deny]).toBe(`(deny file-write* (subpath "${skill}"))`);
      expect(lines(p)[allow]).not.toContain(`(subpath "${skill}`);
      const layout = seatbeltLayout(spec({ write: [write] }), { home, deny: [] });
      const violations = findViolations({
        spec: { ...spec({ write: [write] }), maxOutputBytes: 1024 },
        stderr: `bash: ${skill}/skill.yaml: Operation not permitted\n`,
        layout,
        refusedHosts: [],
        truncated: false,
      });
      expect(violations.map((v) => v.kind)).toEqual(['own_folder']);
    }
  });

  it('network: none, only the proxy port on loopback, or any', () => {
    expect(profile()).not.toContain('(allow network');
    expect(profile()).toContain('; network: none');
    const listed = profile({ network: ['api.github.com'] }, 50123);
    expect(listed).toContain('(allow network-outbound (remote ip "localhost:50123"))');
    expect(listed).not.toContain('(allow network*)');
    const open = profile({ network: true });
    expect(open).toContain('(allow network*)');
  });

  it('quotes paths for SBPL and judges its EPERM denials like bwrap', () => {
    expect(sbplString('/a "b"\\c')).toBe('"/a \\"b\\"\\\\c"');
    // A real home here, since a hidden path is judged by what exists on the host.
    const realHome = tempDir('skilldeck-sb-home-');
    writeTree(realHome, { '.ssh/id_rsa': 'k' });
    const key = path.join(realHome, '.ssh/id_rsa');
    const s = { ...spec(), maxOutputBytes: 1024 };
    const v = findViolations({
      spec: s,
      layout: seatbeltLayout(s, { home: realHome }),
      refusedHosts: [],
      truncated: false,
      stderr: `PermissionError: [Errno 1] Operation not permitted: '${key}'\ntouch: /etc/x: Operation not permitted`,
    });
    fs.rmSync(realHome, { recursive: true, force: true });
    expect(v.map((x) => x.message)).toEqual([
      `tried to read ${key}, outside its read paths ~/docs/**`,
      'tried to write /etc/x, outside its write paths ~/out/**',
    ]);
  });
});

describe('seatbelt profile, as a whole', () => {
  // The whole text for one run: every rule, its order (later SBPL rules win) and its quoting.
  // A change to the profile should show up here, to be read as a change to the sandbox.
  it('is exactly these rules for a run with a read grant, a write grant and no network', () => {
    const run = {
      cwd: '/private/var/folders/xy/T/run-1',
      skillDir: '/Users/ana/skills/pdf',
      grants: {
        read: ['/Users/ana/docs'],
        write: ['/Users/ana/out'],
        network: false,
        env: {},
        declared: { read: [], write: [] },
      },
    };
    expect(
      buildSeatbeltProfile(run, { home: '/Users/ana', hide: ['/Data/secret'], deny: ['/etc/master.passwd'] }),
    ).toBe(
      [
        '(version 1)',
        '(deny default)',
        '(allow process-fork)',
        '(allow process-exec)',
        '(allow signal (target same-sandbox))',
        '(allow sysctl-read)',
        '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo") (global-name "com.apple.system.logger") (global-name "com.apple.system.notification_center") (global-name "com.apple.logd") (global-name "com.apple.trustd.agent") (global-name "com.apple.SecurityServer"))',
        '; system files are readable, like bwrap --ro-bind / /',
        '(allow file-read*)',
        '; home, temp folders and volumes are hidden, like bwrap --tmpfs',
        '(deny file-read* (subpath "/Users/ana") (subpath "/Users") (subpath "/private/tmp") (subpath "/private/var/folders") (subpath "/private/var/tmp") (subpath "/Volumes") (subpath "/Data/secret"))',
        '; runtimes stat the folders on the way to a granted path',
        '(allow file-read-metadata (literal "/private/var/folders/xy/T") (literal "/private/var/folders/xy") (literal "/private/var/folders") (literal "/private/var") (literal "/private") (literal "/Users/ana") (literal "/Users") (literal "/Users/ana/skills"))',
        '; the skill folder, the work dir, the read grants and interpreter prefixes',
        '(allow file-read* (subpath "/private/var/folders/xy/T/run-1") (subpath "/Users/ana/out") (subpath "/Users/ana/skills/pdf") (subpath "/Users/ana/docs"))',
        '; root-only system secrets',
        '(deny file-read* (literal "/etc/master.passwd"))',
        '; writes: only the work dir and the write grants',
        '(allow file-write* (subpath "/private/var/folders/xy/T/run-1") (subpath "/Users/ana/out") (literal "/dev/null") (regex #"^/dev/tty") (literal "/dev/stdout") (literal "/dev/stderr"))',
        "; the skill's own folder stays read-only, even inside a write grant",
        '(deny file-write* (subpath "/Users/ana/skills/pdf"))',
        '; network: none',
        '',
      ].join('\n'),
    );
  });

  it('denies reading the root-only secrets there are, and writes no rule when there are none', () => {
    const secrets = buildSeatbeltProfile(spec(), { home, deny: ['/etc/master.passwd', '/etc/sudoers'] });
    const rule = lines(secrets).find((l) => l.startsWith('(deny file-read* (literal'));
    expect(rule).toBe('(deny file-read* (literal "/etc/master.passwd") (literal "/etc/sudoers"))');
    // After the read grants: a later rule wins in SBPL, so a grant never re-opens them.
    expect(indexOf(secrets, '(deny file-read* (literal')).toBeGreaterThan(
      indexOf(secrets, '(allow file-read* (subpath'),
    );
    expect(buildSeatbeltProfile(spec(), { home, deny: [] })).not.toContain('root-only');
  });

  it('opens DNS with the network, and names the allow-list beside the proxy rule', () => {
    const open = lines(profile({ network: true }));
    expect(open.slice(-4)).toEqual([
      '; network: any host',
      '(allow network*)',
      '(allow mach-lookup (global-name "com.apple.dnssd.service"))',
      '',
    ]);
    const listed = lines(profile({ network: ['api.github.com', 'uploads.github.com'] }, 50123));
    expect(listed.slice(-3)).toEqual([
      '; network: only the allow-list proxy (api.github.com, uploads.github.com)',
      '(allow network-outbound (remote ip "localhost:50123"))',
      '',
    ]);
    // A list with no proxy running (it failed to start) opens nothing.
    expect(lines(profile({ network: ['api.github.com'] }, null)).slice(-2)).toEqual(['; network: none', '']);
  });

  it('names real paths: a granted symlink is allowed where it leads, each path once', () => {
    const root = fs.realpathSync(tempDir('skilldeck-sb-real-'));
    writeTree(root, { 'data/a.txt': 'a' });
    fs.symlinkSync(path.join(root, 'data'), path.join(root, 'link'));
    const run = {
      cwd: path.join(root, 'run'),
      skillDir: path.join(root, 'link'),
      grants: {
        read: [path.join(root, 'data')],
        write: [path.join(root, 'run')],
        network: false,
        env: {},
        declared: { read: [], write: [] },
      },
    };
    const p = lines(
      buildSeatbeltProfile(run, { home: path.join(root, 'home'), hide: [path.join(root, 'link')] }),
    );
    fs.rmSync(root, { recursive: true, force: true });
    const read = p.find((l) => l.startsWith('(allow file-read* (subpath'))!;
    expect(read).toBe(`(allow file-read* (subpath "${root}/run") (subpath "${root}/data"))`);
    expect(p.find((l) => l.startsWith('(deny file-read*'))).toContain(`(subpath "${root}/data")`);
    expect(p.find((l) => l.startsWith('(allow file-write*'))).toContain(`(subpath "${root}/run")`);
  });

  it('lays out the same rules for violations.ts: hidden folders as masks, grants as binds, shallowest first', () => {
    expect(
      seatbeltLayout(spec(), { home, hide: ['/Data/secret', '/Users'], deny: ['/etc/master.passwd'] }),
    ).toEqual({
      deniedFiles: ['/etc/master.passwd'],
      remasks: [],
      masks: [
        '/Users/ana',
        '/Users',
        '/private/tmp',
        '/private/var/folders',
        '/private/var/tmp',
        '/Volumes',
        '/Data/secret',
      ],
      binds: [
        { path: '/Users/ana/docs', writable: false },
        { path: '/Users/ana/out', writable: true },
        { path: '/Users/ana/.claude/skills/pdf', writable: false },
        { path: '/Users/ana/.pyenv/versions/3.12.1', writable: false },
        { path: '/private/var/folders/xy/T/skilldeck-run-1', writable: true },
      ],
    });
  });
});
