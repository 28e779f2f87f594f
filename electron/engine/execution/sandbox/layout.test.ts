import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTree } from '../../../testing/fixtures';
import {
  isInside,
  kernelWrite,
  planLayout,
  secretFiles,
  visibleInside,
  writableInside,
  type SandboxLayout,
} from './layout';
import type { SandboxGrants } from './types';

// The file system a run sees (DESIGN §4), planned from real folders: what is hidden behind
// a tmpfs, what is bound back, read-only or writable. bwrap.*.test.ts run it for real.
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
// Outside /tmp, so only its own mask (not /tmp's) hides it, as a real home would be.
const cache = path.join(repo, 'node_modules', '.cache');
fs.mkdirSync(cache, { recursive: true });
// Its real path: masks are real paths, and Stryker's copy of the repo links to node_modules.
const root = fs.realpathSync(fs.mkdtempSync(path.join(cache, 'skilldeck-layout-')));
const home = path.join(root, 'home');
writeTree(root, {
  'home/.ssh/id_rsa': 'k',
  'home/skills/pdf/SKILL.md': '---\nname: pdf\n---\n',
  'home/docs/notes.txt': 'n',
  'home/out/keep': '',
  'home/a-file': 'not a folder',
  'work/out/x': '',
  'work/skill/SKILL.md': '',
  'elsewhere/data.txt': 'd',
});
fs.symlinkSync(path.join(root, 'elsewhere'), path.join(root, 'link-to-elsewhere'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const depth = (p: string) => p.split('/').filter(Boolean).length;
const spec = (over: Partial<SandboxGrants> & { cwd?: string; skillDir?: string } = {}) => ({
  cwd: over.cwd ?? path.join(root, 'work'),
  skillDir: over.skillDir ?? path.join(home, 'skills/pdf'),
  grants: {
    read: over.read ?? [],
    write: over.write ?? [],
    network: false as const,
    env: {},
    declared: { read: [], write: [] },
  },
});

describe('planLayout: masks', () => {
  const { masks } = planLayout(spec(), { home });

  it('hides the home, the passwd home, /home, /root, the temp folders, /run, /mnt and /media', () => {
    const expected = [
      home,
      os.userInfo().homedir,
      '/home',
      '/root',
      '/tmp',
      os.tmpdir(),
      '/var/tmp',
      '/run',
      '/mnt',
      '/media',
    ]
      .filter((p) => fs.existsSync(p))
      .map((p) => fs.realpathSync(p));
    for (const p of expected)
      expect(
        masks.some((m) => isInside(p, m)),
        p,
      ).toBe(true);
    expect(masks).toContain(home);
    expect(masks).toContain('/tmp');
    expect(masks).toContain('/run');
  });

  it('lists each folder once, outermost first, and never one inside another', () => {
    expect(new Set(masks).size).toBe(masks.length);
    for (let i = 1; i < masks.length; i++)
      expect(depth(masks[i])).toBeGreaterThanOrEqual(depth(masks[i - 1]));
    for (const inner of masks)
      for (const outer of masks) if (inner !== outer) expect(isInside(inner, outer)).toBe(false);
  });

  it('adds `hide` folders by their real path, drops files, missing paths and folders already hidden', () => {
    const hide = [
      path.join(root, 'link-to-elsewhere'),
      path.join(home, 'a-file'),
      path.join(root, 'missing'),
      path.join(home, 'docs'),
    ];
    const withHide = planLayout(spec(), { home, hide }).masks;
    expect(withHide).toEqual([...masks, path.join(root, 'elsewhere')].sort((a, b) => depth(a) - depth(b)));
  });

  it('never masks a system folder, even when asked to', () => {
    const hide = [
      '/',
      '/usr',
      '/etc',
      '/bin',
      '/sbin',
      '/lib',
      '/opt',
      '/var',
      '/proc',
      '/dev',
      '/sys',
      '/boot',
      '/srv',
    ];
    const withSystem = planLayout(spec(), { home, hide }).masks;
    expect(withSystem.filter((m) => !masks.includes(m))).toEqual(fs.existsSync('/srv') ? ['/srv'] : []);
    const systemHome = planLayout(spec(), { home: '/usr' }).masks;
    expect(systemHome).not.toContain('/usr');
  });
});

describe('planLayout: binds', () => {
  const cwd = path.join(root, 'work');

  it('binds the skill read-only where a mask hides it, the work dir and write grants writable', () => {
    const layout = planLayout(spec({ write: [path.join(home, 'out/')] }), { home });
    expect(layout.binds.filter((b) => !b.placeholder && !b.pin)).toEqual([
      { path: cwd, writable: true },
      { path: path.join(home, 'out'), writable: true },
      { path: path.join(home, 'skills/pdf'), writable: false },
    ]);
  });

  it('binds a read grant only where a mask hides it and no write grant already shows it', () => {
    const docs = path.join(home, 'docs');
    const layout = planLayout(
      spec({ read: [docs, '/usr/share', path.join(cwd, 'out'), path.join(home, 'missing')] }),
      { home },
    );
    expect(layout.binds).toEqual([
      { path: cwd, writable: true },
      { path: docs, writable: false },
      { path: path.join(home, 'skills/pdf'), writable: false },
    ]);
  });

  it('keeps a folder granted both ways writable, and the skill read-only even inside a write grant', () => {
    const skillDir = path.join(cwd, 'skill');
    const docs = path.join(home, 'docs');
    const layout = planLayout(spec({ skillDir, read: [docs], write: [docs] }), { home });
    expect(layout.binds.filter((b) => !b.placeholder && !b.pin)).toEqual([
      { path: cwd, writable: true },
      { path: docs, writable: true },
      { path: skillDir, writable: false },
    ]);
  });

  it('keeps the skill read-only under a write grant of it or inside it: neither is bound writable', () => {
    const skillDir = path.join(home, 'skills/pdf');
    for (const write of [skillDir, path.join(skillDir, 'scripts'), path.join(skillDir, 'new/dir')]) {
      const layout = planLayout(spec({ skillDir, write: [write] }), { home });
      expect(layout.binds, write).toEqual([
        { path: cwd, writable: true },
        { path: skillDir, writable: false },
      ]);
      expect(writableInside(path.join(skillDir, 'scripts/run.sh'), layout)).toBe(false);
    }
  });

  it('binds a folder reached through a visible link into a hidden one at its target', () => {
    // `hide` covers elsewhere/ (another skills folder); the skill is named through the link
    // beside it, which stays visible, and bwrap cannot bind under a link.
    const skillDir = path.join(root, 'link-to-elsewhere');
    const layout = planLayout(spec({ skillDir }), { home, hide: [path.join(root, 'elsewhere')] });
    expect(layout.binds).toEqual([
      { path: path.join(root, 'elsewhere'), writable: false },
      { path: cwd, writable: true },
    ]);
  });

  it('leaves a visible skill folder alone', () => {
    expect(planLayout(spec({ skillDir: '/usr/share' }), { home }).binds).toEqual([
      { path: cwd, writable: true },
    ]);
  });

  it('orders by depth, and the work dir after another bind of its depth (its TMPDIR must win)', () => {
    // Granted in that order, the work dir first: without the tie-break it would stay first.
    const layout = planLayout(spec({ write: [home] }), { home });
    expect(layout.binds.filter((b) => !b.placeholder && !b.pin)).toEqual([
      { path: home, writable: true },
      { path: cwd, writable: true },
      { path: path.join(home, 'skills/pdf'), writable: false },
    ]);
  });
});

describe('planLayout: stand-ins for guarded files that do not exist yet', () => {
  it('binds an empty read-only folder or file where each would be, under a write grant but not the run folder', () => {
    const out = path.join(home, 'out');
    fs.mkdirSync(path.join(out, '.vscode'), { recursive: true });
    const layout = planLayout(spec({ write: [out] }), { home });
    const stand = (p: string) => layout.binds.find((b) => b.path === path.join(out, p))?.placeholder;
    expect(stand('.git')).toBe('dir');
    expect(stand('.envrc')).toBe('file');
    expect(stand('.config/autostart')).toBe('dir');
    // There already: bound as itself.
    expect(layout.binds).toContainEqual({ path: path.join(out, '.vscode'), writable: false });
    expect(layout.binds.some((b) => b.placeholder && isInside(b.path, path.join(root, 'work')))).toBe(false);
    expect(writableInside(path.join(out, '.git/config'), layout)).toBe(false);
    expect(writableInside(path.join(out, 'notes.md'), layout)).toBe(true);
    // The folder above nested guards is bound onto itself (made first by the backend), so it
    // cannot be renamed away; what is inside it stays writable.
    expect(layout.binds).toContainEqual({ path: path.join(out, '.config'), writable: true, pin: true });
    expect(writableInside(path.join(out, '.config/app/settings.json'), layout)).toBe(true);
    // What is made for them, deepest first, to remove after the run.
    const created = layout.created ?? [];
    expect(created).toContain(path.join(out, '.config'));
    expect(created.indexOf(path.join(out, '.config/git'))).toBeLessThan(
      created.indexOf(path.join(out, '.config')),
    );
    fs.rmSync(path.join(out, '.vscode'), { recursive: true });
  });

  it('binds none under a write grant of a file', () => {
    const layout = planLayout(spec({ write: [path.join(home, 'a-file')] }), { home });
    expect(layout.binds.filter((b) => b.placeholder)).toEqual([]);
  });

  it('leaves out a guarded path with another grant inside it, or below a file on the way', () => {
    const out = path.join(home, 'out');
    writeTree(out, { '.git': 'gitdir: ../elsewhere\n' });
    const layout = planLayout(spec({ write: [out, path.join(out, '.claude/skills/mine')] }), { home });
    expect(layout.binds.some((b) => b.path === path.join(out, '.claude'))).toBe(false);
    // A worktree's .git file is guarded as it is.
    expect(layout.binds).toContainEqual({ path: path.join(out, '.git'), writable: false });
    fs.rmSync(path.join(out, '.git'));
  });
});

describe('planLayout: hidden folders under a grant', () => {
  const skills = path.join(home, 'skills');
  it('hides them again under a grant around them, before the skill’s own folder goes back in', () => {
    const layout = planLayout(spec({ read: [home] }), { home, hide: [skills] });
    expect(layout.remasks).toEqual([skills]);
    expect(visibleInside(path.join(skills, 'other', 'token.txt'), layout)).toBe(false);
    expect(visibleInside(path.join(skills, 'pdf', 'SKILL.md'), layout)).toBe(true);
    expect(visibleInside(path.join(home, 'notes.txt'), layout)).toBe(true);
  });

  it('shows them to a grant of that very folder or of one inside it (a skill that installs skills)', () => {
    expect(planLayout(spec({ write: [skills] }), { home, hide: [skills] }).remasks).toEqual([]);
    // Hidden only for privacy (root's own mkdtemp folders): a grant around it shows it.
    expect(planLayout(spec({ read: [home] }), { home, hide: [skills], keepHidden: [] }).remasks).toEqual([]);
  });
});

describe('planLayout: masks under a write grant', () => {
  it('masks again what a write grant around it would bury (the home under its parent), once', () => {
    const layout = planLayout(spec({ write: [root] }), { home });
    expect(layout.remasks).toEqual([home]);
    expect(planLayout(spec({ write: [root] }), { home, hide: [home] }).remasks).toEqual([home]);
    expect(visibleInside(path.join(home, '.ssh/id_rsa'), layout)).toBe(false);
    expect(writableInside(path.join(root, 'elsewhere/x'), layout)).toBe(true);
  });

  it('leaves a mask the grant names itself, and one a read-only bind holds, as they were', () => {
    expect(planLayout(spec({ write: [home] }), { home }).remasks).toEqual([]);
    expect(planLayout(spec({ read: [root] }), { home }).remasks).toEqual([]);
  });
});

describe('kernelWrite', () => {
  it('finds a write grant of /, or of /proc, /dev, /sys or inside one', () => {
    for (const p of ['/', '/proc', '/proc/self', '/dev/', '/sys/fs', '/proc/../dev'])
      expect(kernelWrite([path.join(root, 'work'), p])).toBe(path.resolve(p));
    expect(kernelWrite([path.join(root, 'work'), '/var', '/procfs', '/usr/src/dev', '/devices'])).toBeNull();
  });

  it('follows a link to one', () => {
    const link = path.join(root, 'link-to-proc');
    fs.symlinkSync('/proc', link);
    expect(kernelWrite([link])).toBe('/proc');
  });
});

describe('planLayout: root-only secrets', () => {
  it('finds the password hashes and SSH host keys an /etc holds, real files only', () => {
    const etc = path.join(root, 'etc');
    writeTree(etc, {
      shadow: 'root:*:1',
      gshadow: 'g',
      'ssh/ssh_host_ed25519_key': 'k',
      'ssh/ssh_host_ed25519_key.pub': 'public',
      'ssh/ssh_config': 'c',
    });
    fs.symlinkSync(path.join(root, 'elsewhere/data.txt'), path.join(etc, 'sudoers'));
    expect(secretFiles(etc).sort()).toEqual(
      [
        path.join(etc, 'gshadow'),
        path.join(etc, 'shadow'),
        path.join(etc, 'ssh/ssh_host_ed25519_key'),
      ].sort(),
    );
    expect(secretFiles(path.join(root, 'no-etc'))).toEqual([]);
  });

  it('denies them unless a mask already hides them or the skill was granted them', () => {
    const secret = path.join(root, 'elsewhere/data.txt');
    const hiddenOne = path.join(home, '.ssh/id_rsa');
    expect(planLayout(spec(), { home, deny: [secret, hiddenOne] }).deniedFiles).toEqual([secret]);
    expect(planLayout(spec({ write: [secret] }), { home, deny: [secret] }).deniedFiles).toEqual([]);
    expect(planLayout(spec({ read: [secret] }), { home, deny: [secret] }).deniedFiles).toEqual([]);
    // A grant of the folder holding it is not a grant of the secret.
    const folder = path.join(root, 'elsewhere');
    expect(planLayout(spec({ read: [folder] }), { home, deny: [secret] }).deniedFiles).toEqual([secret]);
  });

  it('covers a file named twice once (/etc/shadow is both a named secret and root-only)', () => {
    const secret = path.join(root, 'elsewhere/data.txt');
    const other = path.join(root, 'work/skill/SKILL.md');
    expect(planLayout(spec(), { home, deny: [secret, other, secret] }).deniedFiles).toEqual([secret, other]);
  });

  it('leaves out a file that is gone (bwrap cannot bind over it under the read-only root)', () => {
    const secret = path.join(root, 'elsewhere/data.txt');
    const gone = path.join(root, 'elsewhere/removed-since.key');
    expect(planLayout(spec(), { home, deny: [gone, secret] }).deniedFiles).toEqual([secret]);
  });
});

describe('visibleInside and writableInside', () => {
  const layout: SandboxLayout = {
    masks: ['/home/ana', '/tmp'],
    binds: [
      { path: '/home/ana/out', writable: true },
      { path: '/home/ana/out/skill', writable: false },
      { path: '/tmp/run', writable: true },
    ],
    remasks: [],
    deniedFiles: ['/etc/shadow'],
  };

  it('sees the system, the binds, the folders on the way to a bind and the empty mask itself', () => {
    for (const p of [
      '/usr/bin/python3',
      '/home/ana/out/x',
      '/home/ana/out/skill/a',
      '/home',
      '/home/ana',
      '/tmp',
      '/tmp/run/f',
      '/',
    ])
      expect(visibleInside(p, layout), p).toBe(true);
  });

  it('hides what a mask covers and no bind brings back', () => {
    for (const p of ['/home/ana/.ssh/id_rsa', '/home/ana/outside', '/tmp/other', '/tmp/runs', '/etc/shadow'])
      expect(visibleInside(p, layout), p).toBe(false);
  });

  it('writes only inside a writable bind, the deepest bind deciding', () => {
    expect(writableInside('/home/ana/out/new.txt', layout)).toBe(true);
    expect(writableInside('/home/ana/out', layout)).toBe(true);
    expect(writableInside('/home/ana/out/skill/SKILL.md', layout)).toBe(false);
    expect(writableInside('/tmp/run/x', layout)).toBe(true);
    expect(writableInside('/tmp/x', layout)).toBe(false);
    expect(writableInside('/etc/passwd', layout)).toBe(false);
    expect(writableInside('/home/ana', layout)).toBe(false);
  });
});

describe('isInside', () => {
  it('is true for the folder itself and what lies under it, not for a sibling with the same prefix', () => {
    expect(isInside('/a/b', '/a/b')).toBe(true);
    expect(isInside('/a/b/c', '/a/b')).toBe(true);
    expect(isInside('/a/bc', '/a/b')).toBe(false);
    expect(isInside('/a', '/a/b')).toBe(false);
    expect(isInside('/x/y', '/a/b')).toBe(false);
  });
});

describe('planLayout: credential files and links shown by another bind', () => {
  const dot = path.join(home, 'dotfiles');
  writeTree(dot, { netrc: 'machine x password p\n', 'git-credentials': 'https://u:t@x\n' });
  const netrc = path.join(home, '.netrc');
  const gitCredentials = path.join(home, '.git-credentials');
  const pgpass = path.join(home, '.pgpass');
  fs.symlinkSync(path.join(dot, 'netrc'), netrc);
  fs.writeFileSync(gitCredentials, 't');
  fs.symlinkSync(path.join(home, 'gone'), pgpass);
  const hideFiles = [netrc, gitCredentials, pgpass, path.join(home, '.npmrc')];

  it('covers each that exists under a grant around it, where its link leads, with nothing to cover for a dangling one', () => {
    const layout = planLayout(spec({ read: [home] }), { home, deny: [], hideFiles });
    expect(layout.deniedFiles).toEqual([path.join(dot, 'netrc'), gitCredentials]);
    expect(visibleInside(path.join(home, 'docs/notes.txt'), layout)).toBe(true);
  });

  it('covers none a mask hides already, nor one a read grant names', () => {
    expect(planLayout(spec(), { home, deny: [], hideFiles }).deniedFiles).toEqual([]);
    const named = planLayout(spec({ read: [home, netrc] }), { home, deny: [], hideFiles });
    expect(named.deniedFiles).toEqual([gitCredentials]);
  });

  it('binds a named link shown again by a bind around it at its target, where bwrap can make a bind point', () => {
    const { binds } = planLayout(spec({ read: [home, netrc] }), { home, deny: [] });
    expect(binds.map((b) => b.path)).toContain(path.join(dot, 'netrc'));
    expect(binds.map((b) => b.path)).not.toContain(netrc);
    // Alone under the mask the link is gone inside: its own path is the bind point.
    expect(planLayout(spec({ read: [netrc] }), { home, deny: [] }).binds.map((b) => b.path)).toContain(netrc);
  });
});
