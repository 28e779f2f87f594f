import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GUARD_PARENTS, GUARDED, hookFolders, madeForStandIn, missingGuards, nestedGuards } from './guarded';
import type { SandboxSpec } from './types';

/** What the sandbox's file system looks like: which host folders are hidden and what is bound back. */
export interface SandboxLayout {
  /** Hidden behind an empty private tmpfs (home, /tmp, /run …), outermost first. */
  masks: string[];
  /** Bound back in, shallowest first (a deeper bind wins over a shallower one). */
  binds: { path: string; writable: boolean; placeholder?: 'dir' | 'file'; pin?: boolean }[];
  /**
   * `hide` folders ($SKILLDECK_HOME, the skill folders) that a grant's bind would show again (a
   * read grant of `~`), and masks a write grant around them would bury (`/var/tmp` under `/var`):
   * masked once more after the binds around them, before the deeper ones (the run folder, the
   * skill's own folder) go back in. Shallowest first.
   */
  remasks: string[];
  /**
   * System secrets only root may read (password hashes, SSH host keys): covered by an
   * unreadable file, since a process running as root still owns them inside a sandbox.
   */
  deniedFiles: string[];
  /** Files that run code outside the sandbox, kept read-only under a write grant around them (GUARDED). */
  guarded?: string[];
  /**
   * What bwrap makes on the host for the guards of such files that do not exist yet (the mount
   * points, and the folders on the way to them), deepest first: removed after the run while empty.
   */
  created?: string[];
}

/** Root-only secrets of the system that no skill has reason to read. */
const SECRET_FILES = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/sudoers',
  '/etc/security/opasswd',
  '/etc/master.passwd',
];
const SSH_HOST_KEY = /^ssh_host_.+_key$/;

/** The secret files this machine has (real files, not links out of /etc). */
export function secretFiles(etc = '/etc'): string[] {
  const named = SECRET_FILES.map((f) => path.join(etc, path.relative('/etc', f)));
  let keys: string[] = [];
  try {
    keys = fs
      .readdirSync(path.join(etc, 'ssh'))
      .filter((n) => SSH_HOST_KEY.test(n))
      .map((n) => path.join(etc, 'ssh', n));
  } catch {
    // No SSH server configured.
  }
  return [...named, ...keys].filter((f) => {
    try {
      return fs.lstatSync(f).isFile();
    } catch {
      return false;
    }
  });
}

export interface LayoutOptions {
  /** The engine user's home; os.homedir() when omitted (tests pass a fake one). */
  home?: string;
  /** More folders to hide, e.g. a SKILLDECK_HOME outside the home directory. */
  hide?: string[];
  /**
   * Of those, the ones a grant around them must not show again ($SKILLDECK_HOME, the skill
   * folders); `hide` when omitted. A grant of that very folder, or of one inside it, still holds.
   */
  keepHidden?: string[];
  /** Root-only files to make unreadable; `secretFiles()` when omitted. */
  deny?: string[];
  /**
   * Files of the home that hold credentials (~/.netrc, ~/.git-credentials …): covered by an
   * unreadable file where they lead (a dotfile manager links them), wherever a grant around them
   * would show them. A grant that names one, as written or through a link, shows it.
   */
  hideFiles?: string[];
  /** Paths other engines' live runs made for their stand-ins (standInLedger.ts). */
  claimedStandIns?: ReadonlySet<string>;
  /**
   * Folders skills are loaded from that do not exist yet (a project's skills/): hidden when they
   * exist (`hide`), so where a write grant holds one a run gets a read-only stand-in instead of
   * the chance to make it and fill it with a skill that the next message or run would load.
   */
  absentSkillFolders?: string[];
}

/**
 * Never masked even if a home or `hide` entry points there: hiding them would break every
 * interpreter, and they hold no user data.
 */
const SYSTEM = new Set([
  '/',
  '/usr',
  '/etc',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/opt',
  '/var',
  '/proc',
  '/dev',
  '/sys',
  '/boot',
  '/nix',
]);

/**
 * User data and live sockets (reference/sandbox-linux.md: `/tmp` and `/run` masked because a
 * unix socket stays connectable through a read-only bind; `/mnt` holds WSL's Windows drives).
 */
function defaultMasks(home: string): string[] {
  let passwdHome: string | null = null;
  try {
    passwdHome = os.userInfo().homedir;
  } catch {
    // No passwd entry (some containers): the HOME-based one still applies.
  }
  return [
    home,
    passwdHome ?? home,
    '/home',
    '/root',
    '/tmp',
    os.tmpdir(),
    '/var/tmp',
    '/run',
    '/mnt',
    '/media',
  ];
}

/** A folder of the system itself (`/usr`, `/opt`, `/var` …), which no mask may hide. */
export const isSystemFolder = (p: string): boolean => SYSTEM.has(path.resolve(p));

/** True when `child` is `parent` or inside it (both absolute). */
export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function realDir(p: string): string | null {
  try {
    const real = fs.realpathSync(p);
    return fs.statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

function realPath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

/** A file, or a link that leads to one (a dangling link has nothing to cover, and bwrap could not bind over it). */
function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** What bwrap mounts its own view of; the root holds them all. */
const KERNEL_DIRS = ['/proc', '/dev', '/sys'];

/**
 * The first write grant that is /, or /proc, /dev, /sys or inside one (as written or where its
 * links lead), or null. bwrap mounts the sandbox's own /proc, /dev and /sys: a writable bind
 * of one of them, or of /, lays the host's over it, and /proc then lists every process of the
 * machine. Under / the masks also end up below the bind, and bwrap stops at their remount.
 */
export function kernelWrite(writes: string[]): string | null {
  for (const w of writes) {
    for (const p of new Set([path.resolve(w), realPath(path.resolve(w))]))
      if (p === '/' || KERNEL_DIRS.some((k) => isInside(p, k))) return p;
  }
  return null;
}

/** How many folders deep a path is: binds and remasks apply shallowest first. */
export const depth = (p: string) => p.split(path.sep).filter(Boolean).length;

/**
 * Plans the file system of one run (DESIGN §4): read-only system, masks over home, /tmp,
 * /run …, then the skill folder and read grants bound read-only where a mask hid them, the
 * work dir and write grants bound writable. The skill folder stays read-only whatever the
 * write grants (DESIGN §4 binds it read-only): one around it, of it or inside it. A skill that
 * could rewrite its SKILL.md, skill.yaml or scripts could widen its own declared permissions
 * or code, and an `approval: auto` skill would then run the widened version unasked.
 */
export function planLayout(
  spec: Pick<SandboxSpec, 'cwd' | 'skillDir' | 'grants'>,
  opts: LayoutOptions = {},
): SandboxLayout {
  const home = opts.home ?? os.homedir();
  // Where /bin leads too (/usr/bin on merged-/usr systems): a `hide` entry of /bin resolves there.
  const system = new Set([...SYSTEM, ...[...SYSTEM].map(realDir)]);
  const candidates = [...defaultMasks(home), ...(opts.hide ?? [])]
    .map(realDir)
    .filter((p): p is string => p !== null && !system.has(p));
  const masks: string[] = [];
  for (const m of [...new Set(candidates)].sort((a, b) => depth(a) - depth(b))) {
    if (!masks.some((outer) => isInside(m, outer))) masks.push(m);
  }

  const hidden = (p: string) => masks.some((m) => isInside(p, m));
  // Masks are real paths. A folder reached through a visible symlink (a linked node_modules,
  // a skills folder behind a link) lies where its target is, and bwrap cannot make a bind
  // point under a symlink: bind it at its target. Inside a mask the link is gone, so there
  // the path itself is the bind point (bwrap follows the source's links), unless another bind
  // around it shows the link again (`~/**` and `~/.netrc` → dotfiles/netrc, a link in the skill's
  // folder): bwrap cannot make a bind point of that link either ("Can't create file at …").
  const given = [spec.cwd, spec.skillDir, ...spec.grants.write, ...spec.grants.read].map((p) =>
    path.resolve(p),
  );
  const placed = (p: string) => {
    const abs = path.resolve(p);
    if (!hidden(abs)) return realPath(abs);
    const real = realPath(abs);
    return real !== abs && given.some((o) => o !== abs && isInside(abs, o)) ? real : abs;
  };
  const skill = placed(spec.skillDir);
  const writes = [placed(spec.cwd), ...spec.grants.write.map(placed).filter((w) => !isInside(w, skill))];
  const reads = [spec.skillDir, ...spec.grants.read].filter(exists).map(placed);
  const binds = new Map<string, boolean>();
  for (const w of writes) binds.set(w, true);
  for (const r of reads) {
    if (binds.get(r) === true) continue;
    const isSkill = r === skill;
    // A read path is visible already unless a mask hid it or a write bind would make it writable.
    const underWrite = writes.some((w) => isInside(r, w));
    if (isSkill ? hidden(r) || underWrite : hidden(r) && !underWrite) binds.set(r, false);
  }
  // Existing ones only (bwrap would leave an empty file where it binds over a missing one), and
  // not through a link (it leads somewhere a bind of its own decides).
  const guarded = writes.flatMap((w) =>
    GUARDED.map((g) => path.join(w, g)).filter((g) => {
      try {
        return !madeForStandIn(g, opts.claimedStandIns) && !fs.lstatSync(g).isSymbolicLink() && !binds.has(g);
      } catch {
        return false;
      }
    }),
  );
  const cwd = placed(spec.cwd);
  // Deeper ones (a repository inside the granted folder), and the folders on the way pinned.
  // Not inside what stays hidden ($SKILLDECK_HOME, the skill folders): a bind there would show it.
  const kept = (opts.keepHidden ?? opts.hide ?? []).map(realDir).filter((p): p is string => p !== null);
  const nested = nestedGuards(
    writes.filter((w) => !isInside(w, cwd)),
    (p) => isInside(p, cwd) || isInside(p, skill) || binds.has(p) || kept.some((k) => isInside(p, k)),
  );
  guarded.push(...nested.guards);
  // And the hooks folders their core.hooksPath names in the project (.husky, .githooks).
  const hooks = hookFolders(
    guarded.filter((g) => path.basename(g) === '.git'),
    writes.filter((w) => !isInside(w, cwd)),
  );
  guarded.push(...hooks.guards.filter((h) => !binds.has(h) && !guarded.includes(h)));
  for (const g of guarded) binds.set(g, false);
  // Missing ones get an empty read-only stand-in (guarded.ts), but not in the run folder, which
  // holds nothing of the user's, nor where another grant lies inside (it names that very path).
  const missing = missingGuards(
    writes.filter((w) => !isInside(w, cwd)),
    (p) => [...binds.keys()].some((b) => isInside(b, p)),
    opts.claimedStandIns,
    // Inside what stays hidden ($SKILLDECK_HOME's managed skills/) a run writes only its own tmpfs.
    opts.absentSkillFolders?.map((f) => path.resolve(f)).filter((f) => !kept.some((k) => isInside(f, k))),
  );
  const stand = new Map(
    missing.placeholders.map((m) => [m.path, m.dir ? ('dir' as const) : ('file' as const)]),
  );
  for (const m of missing.placeholders) binds.set(m.path, false);
  // The folders above nested guards, bound onto themselves so that they cannot be renamed away
  // (guarded.ts). One that a stand-in needs and does not exist yet the backend makes first (bwrap
  // looks for a bind's source before it makes anything) and removes with the stand-ins.
  const pins = new Set([
    ...writes
      .filter((w) => !isInside(w, cwd))
      .flatMap((w) => GUARD_PARENTS.map((g) => path.join(w, g)))
      .filter((p) => !binds.has(p) && [...binds.keys()].some((b) => isInside(b, p) && b !== p))
      .filter((p) => missing.created.includes(p) || fs.lstatSync(p).isDirectory()),
    ...[...nested.pins, ...hooks.pins].filter((p) => !binds.has(p)),
  ]);
  for (const p of pins) binds.set(p, true);
  const ordered = [...binds.entries()]
    .map(([p, writable]) => ({
      path: p,
      writable,
      ...(stand.has(p) ? { placeholder: stand.get(p) } : {}),
      ...(pins.has(p) ? { pin: true } : {}),
    }))
    .sort((a, b) => depth(a.path) - depth(b.path) || Number(a.path === cwd) - Number(b.path === cwd));
  // SkillDeck's own data and the other skills stay hidden under any grant: a read grant of `~`
  // must not show $SKILLDECK_HOME (secrets, other runs) or ~/.claude/skills (other skills' tokens).
  const keep = [
    ...new Set((opts.keepHidden ?? opts.hide ?? []).map(realDir).filter((p): p is string => p !== null)),
  ];
  // A write grant around a mask (`/var` holds `/var/tmp`, a folder that holds the home) would
  // bury it under the bind: masked again after it, as bwrap could not remount it read-only.
  const buried = masks.filter((m) => ordered.some((b) => b.writable && isInside(m, b.path) && m !== b.path));
  const remasks = [
    ...new Set([
      ...keep.filter((h) => !system.has(h) && ordered.some((b) => isInside(h, b.path) && h !== b.path)),
      ...buried,
    ]),
  ].sort((a, b) => depth(a) - depth(b));
  const layout = {
    masks,
    binds: ordered,
    remasks,
    deniedFiles: [] as string[],
    guarded: [...guarded, ...stand.keys()],
    created: missing.created,
  };
  // Covered when it would show inside: not hidden by a mask, or shown again by a bind (a read
  // grant of ~/project keeps its app.sock connectable). Granted by name (a write bind, or a read
  // grant of that very file or socket), it stays. Once each: the named secrets are root-only files
  // too, and every bind costs bwrap a read of the mount table. A file gone since it was found
  // (rootOnly.ts finds them once per process) has nothing to hide, and bwrap cannot bind over a
  // missing file under the read-only root: the run would fail to start.
  const named = (f: string) => binds.has(placed(f)) || reads.includes(placed(f));
  const credentials = (opts.hideFiles ?? []).filter((f) => isFile(f) && !named(f)).map(realPath);
  layout.deniedFiles = [...new Set([...(opts.deny ?? secretFiles()), ...credentials])].filter(
    (f) => exists(f) && visibleInside(f, layout) && !binds.has(f) && !reads.includes(f),
  );
  return layout;
}

/** The deepest of the binds and remasks that holds `target`: what decides how it shows inside. */
function innermost(target: string, layout: SandboxLayout): { writable: boolean } | 'remask' | null {
  let found: { writable: boolean } | 'remask' | null = null;
  let at = -1;
  for (const b of layout.binds)
    if (isInside(target, b.path) && depth(b.path) >= at) {
      found = b;
      at = depth(b.path);
    }
  // A remask at the depth of a bind is applied after it, so it wins the tie.
  for (const r of layout.remasks)
    if (isInside(target, r) && depth(r) >= at) {
      found = 'remask';
      at = depth(r);
    }
  return found;
}

/**
 * Whether `target` (absolute, on the host) can be seen inside a sandbox with `layout`: not
 * under a mask, or under a bind, or a folder bwrap creates on the way to a bind.
 */
export function visibleInside(target: string, layout: SandboxLayout): boolean {
  if (layout.deniedFiles.includes(target)) return false;
  // A folder bwrap creates on the way to a bind is there (empty but for the way down).
  if (layout.binds.some((b) => isInside(b.path, target) && b.path !== target)) return true;
  const inner = innermost(target, layout);
  if (inner === 'remask') return layout.remasks.includes(target);
  if (inner) return true;
  return !layout.masks.some((m) => isInside(target, m) && target !== m);
}

/** Whether `target` is writable inside: the deepest bind holding it is a writable one (work dir, write grants). */
export function writableInside(target: string, layout: SandboxLayout): boolean {
  const inner = innermost(target, layout);
  return inner !== null && inner !== 'remask' && inner.writable;
}
