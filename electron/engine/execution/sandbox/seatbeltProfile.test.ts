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
