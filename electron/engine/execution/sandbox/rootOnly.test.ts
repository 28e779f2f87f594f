import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../testing/fixtures';
import { rootOnly } from './rootOnly';

// Root's private files, found by owner and mode in real trees (bwrap.hardening.test.ts shows a
// root run failing to read them). Only root can own such files: other users skip, and say so.
const asRoot = process.platform === 'linux' && process.getuid?.() === 0;
/** An owner that is not root (no account needed: chown takes any uid). */
const OTHER_UID = 4242;

describe.skipIf(!asRoot)('rootOnly (as root: the files it makes are root-owned)', () => {
  let top: string;
  /** A fresh folder under the test's temp folder, by its real path. */
  let n = 0;
  const fresh = () => {
    const dir = path.join(top, `t${n++}`);
    fs.mkdirSync(dir, { mode: 0o755 });
    return dir;
  };
  /** Creates `rel` under `root`: a folder when it ends in "/", else a file; with this mode. */
  const make = (root: string, rel: string, mode: number) => {
    const p = path.join(root, rel);
    if (rel.endsWith('/')) fs.mkdirSync(p, { recursive: true });
    else {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, 'secret\n');
    }
    fs.chmodSync(p, mode);
    return p.replace(/\/$/, '');
  };
  const sorted = (found: { dirs: string[]; files: string[] }) => ({
    dirs: [...found.dirs].sort(),
    files: [...found.files].sort(),
  });

  beforeAll(() => {
    top = fs.realpathSync(tempDir('skilldeck-rootonly-'));
  });
  afterAll(() => fs.rmSync(top, { recursive: true, force: true }));

  it('finds the files others may not read and the folders others may not list or enter, and only those', () => {
    const t = fresh();
    const key = make(t, 'key', 0o600);
    const groupOnly = make(t, 'group-only', 0o640);
    make(t, 'public', 0o644);
    make(t, 'others-may-read', 0o604);
    const priv = make(t, 'private/', 0o700);
    make(t, 'private/inside.key', 0o600);
    const noEnter = make(t, 'list-only/', 0o754);
    const noList = make(t, 'enter-only/', 0o751);
    make(t, 'open/', 0o755);
    const nested = make(t, 'open/site.key', 0o600);
    make(t, 'open/also-open/', 0o705);
    const deeper = make(t, 'open/also-open/passwords.dat', 0o600);
    make(t, 'open/also-open/readme', 0o644);
    // A folder is hidden whole: what is inside is not searched, nor listed.
    expect(sorted(rootOnly([t]))).toEqual({
      dirs: [noList, noEnter, priv].sort(),
      files: [deeper, groupOnly, key, nested].sort(),
    });
  });

  it("leaves what another user owns, and searches another user's private folder for root's files", () => {
    const t = fresh();
    fs.chownSync(make(t, 'theirs.key', 0o600), OTHER_UID, OTHER_UID);
    const theirs = make(t, 'theirs/', 0o700);
    fs.chownSync(theirs, OTHER_UID, OTHER_UID);
    const inside = make(t, 'theirs/root.key', 0o600);
    expect(rootOnly([t])).toEqual({ dirs: [], files: [inside] });
  });

  it('follows no symlink and skips what is neither a file nor a folder (a fifo)', () => {
    const t = fresh();
    const elsewhere = fresh();
    const privDir = make(elsewhere, 'private/', 0o700);
    const privFile = make(elsewhere, 'private.key', 0o600);
    const open = make(elsewhere, 'open/', 0o755);
    make(elsewhere, 'open/inside.key', 0o600);
    fs.symlinkSync(privDir, path.join(t, 'to-private'));
    fs.symlinkSync(privFile, path.join(t, 'to-key'));
    fs.symlinkSync(open, path.join(t, 'to-open'));
    const fifo = path.join(t, 'fifo');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    expect(fs.lstatSync(fifo).mode & 0o777).toBe(0o600);
    expect(rootOnly([t])).toEqual({ dirs: [], files: [] });
  });

  it('searches five levels below a root, no deeper', () => {
    const t = fresh();
    const levels = ['', 'a/', 'a/b/', 'a/b/c/', 'a/b/c/d/', 'a/b/c/d/e/', 'a/b/c/d/e/f/'];
    const keys = levels.map((dir) => make(t, `${dir}key`, 0o600));
    const privs = levels.map((dir) => make(t, `${dir}private/`, 0o700));
    // The fifth level's entries (a/b/c/d/key) are judged; the sixth's are never read.
    expect(sorted(rootOnly([t]))).toEqual({ dirs: privs.slice(0, 5).sort(), files: keys.slice(0, 5).sort() });
  });

  it('walks each root by its real path, skips a root this system lacks, and searches the others', () => {
    const a = fresh();
    const b = fresh();
    const inA = make(a, 'a.key', 0o600);
    const inB = make(b, 'b/', 0o700);
    const link = path.join(fresh(), 'link-to-a');
    fs.symlinkSync(a, link);
    expect(rootOnly([link, path.join(top, 'no-such-root'), b])).toEqual({ dirs: [inB], files: [inA] });
  });

  it('remembers what it found per list of roots', () => {
    const t = fresh();
    const first = make(t, 'first.key', 0o600);
    const found = rootOnly([t]);
    expect(found).toEqual({ dirs: [], files: [first] });
    make(t, 'later.key', 0o600);
    // Found once per process: the same roots give the same answer, a file made since or not.
    expect(rootOnly([t])).toBe(found);
    expect(rootOnly([t])).toEqual({ dirs: [], files: [first] });
    // A list of roots is not its concatenation: [t, "/r"] is not [t + "/r"].
    const sub = make(t, 'skilldeck-no-such-root/', 0o755);
    const subKey = make(t, 'skilldeck-no-such-root/x.key', 0o600);
    expect(rootOnly([sub])).toEqual({ dirs: [], files: [subKey] });
    const both = rootOnly([t, '/skilldeck-no-such-root']);
    expect(sorted(both).files).toEqual([first, path.join(t, 'later.key'), subKey].sort());
  });

  it('stops after 50,000 entries and keeps what it found by then', () => {
    const t = fresh();
    const many = make(t, 'many/', 0o755);
    for (let i = 0; i <= 50_000; i++) fs.closeSync(fs.openSync(path.join(many, `k${i}`), 'w', 0o600));
    const found = rootOnly([many]);
    expect(found.dirs).toEqual([]);
    // 50,001 root-only files, each an entry: the first 50,000 read are kept, the last is not.
    expect(found.files).toHaveLength(50_000);
    expect(new Set(found.files).size).toBe(50_000);
  }, 60_000);

  it("by default searches the system's folders, and finds their private ones (read, never written)", () => {
    // Folders Debian makes private to root: TLS keys (root:ssl-cert 710) and ldconfig's cache (700).
    const known = ['/etc/ssl/private', '/var/cache/ldconfig'].filter((p) => {
      try {
        const st = fs.statSync(p);
        return st.uid === 0 && (st.mode & 0o005) !== 0o005;
      } catch {
        return false;
      }
    });
    expect(known.length, 'a Debian-like system has at least one of them').toBeGreaterThan(0);
    const { dirs, files } = rootOnly();
    for (const dir of known) expect(dirs).toContain(dir);
    for (const p of [...dirs, ...files])
      expect(
        ['/etc/', '/var/', '/boot/', '/opt/', '/srv/', '/usr/local/'].some((r) => p.startsWith(r)),
        p,
      ).toBe(true);
  });
});
