import fs from 'node:fs';
import path from 'node:path';

/**
 * Where a write grant's folder keeps what runs code outside the sandbox: git's folder (hooks,
 * core.hooksPath, core.fsmonitor), or a worktree's `.git` file that names it, direnv, editor tasks and settings, shell start-up files, the
 * project's MCP servers and agents' settings (their hooks), desktop autostart and user services.
 * Read-only under any grant around them (Codex keeps .git read-only in its writable roots;
 * Anthropic's sandbox-runtime denies writes to these); a grant of that very path still holds.
 */
export const GUARDED = [
  // The whole git folder, as Codex keeps it: with only its hooks and config bound, a new
  // .git/commondir pointed git at another config, and `mv .git` moved both aside.
  '.git',
  '.envrc',
  '.vscode',
  '.idea',
  '.mcp.json',
  '.claude',
  // Its skills/ is searched like .claude/skills (skills/discovery.ts), and a project's skill
  // shadows the user's own of the same name.
  '.agents',
  '.codex',
  '.gemini',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.gitconfig',
  '.config/git',
  '.config/fish',
  '.config/autostart',
  '.config/systemd',
];

/** Whether an absolute path is one of GUARDED, or inside one, wherever it lies. */
export function isGuarded(abs: string): boolean {
  return GUARDED.some((g) => abs.endsWith(`/${g}`) || abs.includes(`/${g}/`));
}

/** GUARDED entries of one name (`.git`, `.envrc`): the ones a nested repository or project has. */
const GUARDED_NAMES = new Set(GUARDED.filter((g) => !g.includes('/')));

/**
 * How deep below a write folder, and over how many folders and entries, nested guards are looked
 * for: a folder of repositories holds them one or two levels down, and every run with a write
 * grant pays for the walk (0.1 to 0.3 ms a folder on this loaded machine), so a huge tree costs a bound.
 */
export const NESTED_DEPTH = 4;
export const NESTED_FOLDERS = 500;
export const NESTED_ENTRIES = 10_000;

/**
 * The GUARDED entries that exist deeper inside the write folders `writes` (a repository in a
 * folder of repositories, a nested checkout: `repo1/.git`, `a/b/.envrc`), with the folders on the
 * way to each (`pins`, below the write folder): bwrap refuses to rename a mount point but not the
 * folder above one, so `mv repo1 x` would carry the guard away. Shallowest first, so a spent
 * budget leaves out the deepest; not below a link, node_modules (dependencies' own checkouts) or
 * a guarded entry, nor where `skip` says (the run folder).
 */
export function nestedGuards(
  writes: string[],
  skip: (p: string) => boolean,
): { guards: string[]; pins: string[] } {
  const guards: string[] = [];
  const pins = new Set<string>();
  let entries = NESTED_ENTRIES;
  let folders = NESTED_FOLDERS;
  const queue = writes
    .filter((w) => lstatOrNull(w)?.isDirectory())
    .map((w) => ({ root: w, dir: w, level: 0 }));
  for (let next = queue.shift(); next && entries > 0 && folders-- > 0; next = queue.shift()) {
    const { root, dir, level } = next;
    let found: fs.Dirent[];
    try {
      found = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries -= found.length;
    for (const e of found) {
      const at = path.join(dir, e.name);
      if (e.isSymbolicLink() || skip(at)) continue;
      if (GUARDED_NAMES.has(e.name)) {
        // The write folder's own guards are bound by the layout already.
        if (level === 0) continue;
        guards.push(at);
        for (let up = dir; up !== root; up = path.dirname(up)) pins.add(up);
      } else if (e.isDirectory() && e.name !== 'node_modules' && level < NESTED_DEPTH)
        queue.push({ root, dir: at, level: level + 1 });
    }
  }
  return { guards, pins: [...pins] };
}

/** core.hooksPath in a git config file, as written (the last one wins, as in git), or null. */
export function hooksPathOf(config: string): string | null {
  let section = '';
  let found: string | null = null;
  for (const raw of config.split('\n')) {
    const line = raw.trim();
    const header = /^\[\s*([^\s\]"]+)/.exec(line);
    if (header) section = header[1].toLowerCase();
    const entry = /^hookspath\s*=\s*(.*?)\s*$/i.exec(line.replace(/^\[[^\]]*\]\s*/, ''));
    if (section === 'core' && entry) found = entry[1].replace(/^"(.*)"$/, '$1');
  }
  return found;
}

/**
 * The hooks folders that the repositories `gitDirs` (`.git` folders) name in core.hooksPath,
 * where they lie inside one of `writes`, with the folders on the way pinned (as nestedGuards):
 * git runs them on commit and push, and they are the project's own files, not .git's. husky's
 * `.husky/_` only holds stubs that run `.husky/<hook>`: its parent is the hooks folder then.
 */
export function hookFolders(gitDirs: string[], writes: string[]): { guards: string[]; pins: string[] } {
  const guards: string[] = [];
  const pins = new Set<string>();
  for (const gitDir of gitDirs) {
    let config: string;
    try {
      config = fs.readFileSync(path.join(gitDir, 'config'), 'utf8');
    } catch {
      continue;
    }
    const named = hooksPathOf(config);
    if (!named || named.startsWith('~')) continue;
    let hooks = path.resolve(path.dirname(gitDir), named);
    if (path.basename(hooks) === '_') hooks = path.dirname(hooks);
    const root = writes.find((w) => hooks.startsWith(`${w}${path.sep}`));
    if (!root || !lstatOrNull(hooks)?.isDirectory()) continue;
    guards.push(hooks);
    for (let up = path.dirname(hooks); up !== root; up = path.dirname(up)) pins.add(up);
  }
  return { guards, pins: [...pins] };
}

/** The GUARDED entries that are files; the others are folders. */
const GUARDED_FILES = new Set([
  '.envrc',
  '.mcp.json',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.gitconfig',
]);

const depth = (p: string) => p.split(path.sep).filter(Boolean).length;

function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

/**
 * The GUARDED paths that do not exist yet under the write folders `writes`: a skill could create
 * them (.git/config with a core.fsmonitor that a git-aware prompt runs on the next `cd`, a
 * ~/.zshenv, .claude/settings.json with hooks), and bwrap binds only over what exists. Each gets
 * an empty read-only stand-in, a folder or a file as the entry is; bwrap makes its mount point,
 * and any folder on the way, on the host: `created` lists them, deepest first, to remove after
 * the run. Not below a link or a file on the way (a worktree's `.git` file), nor where `skip`
 * says (another grant inside). `folders`: more paths kept so wherever a write folder holds them,
 * the skill folders that do not exist yet (a project's skills/, which a skill could fill).
 */
export function missingGuards(
  writes: string[],
  skip: (p: string) => boolean,
  elsewhere?: ReadonlySet<string>,
  folders: readonly string[] = [],
): { placeholders: { path: string; dir: boolean }[]; created: string[] } {
  const placeholders: { path: string; dir: boolean }[] = [];
  const created = new Set<string>();
  // A write grant of a file holds no guarded path.
  for (const w of writes.filter((at) => lstatOrNull(at)?.isDirectory()))
    for (const g of [...GUARDED, ...inside(w, folders)]) {
      const target = path.join(w, g);
      if (skip(target) || placeholders.some((p) => p.path === target)) continue;
      const made: string[] = [];
      let at = w;
      for (const part of g.split('/')) {
        at = path.join(at, part);
        if (made.length > 0) {
          made.push(at);
          continue;
        }
        // Made for another run's stand-in, and removed when that run ends: this run makes its own.
        const st = madeForStandIn(at, elsewhere) ? null : lstatOrNull(at);
        if (st === null) made.push(at);
        else if (!st.isDirectory()) break;
      }
      if (made.length === 0) continue;
      placeholders.push({ path: target, dir: !GUARDED_FILES.has(g) });
      for (const m of made) created.add(m);
    }
  return { placeholders, created: [...created].sort((a, b) => depth(b) - depth(a)) };
}

/**
 * `folders` (absolute) that lie below the folder `w`, as paths relative to it; not those inside a
 * GUARDED entry (.claude/skills), which its own stand-in keeps already.
 */
const inside = (w: string, folders: readonly string[]) =>
  folders
    .filter((f) => f.startsWith(`${w}/`))
    .map((f) => f.slice(w.length + 1))
    .filter((rel) => !GUARDED.some((g) => rel === g || rel.startsWith(`${g}/`)));

/**
 * The folders above nested GUARDED entries (`.config`): bwrap refuses to rename a mount point
 * but not the folder above one, so `mv .config .config-old` would move the guards aside. Bound
 * writable onto themselves under each write folder, they cannot be renamed or removed.
 */
export const GUARD_PARENTS = [...new Set(GUARDED.filter((g) => g.includes('/')).map((g) => g.split('/')[0]))];

/**
 * What runs of this process made for their stand-ins, and how many live runs rely on each: a run
 * beside another with the same write folder finds the other's stand-ins there, and removing
 * them when the first ends would lift the guard under the second (or fail its start).
 */
const held = new Map<string, number>();

/**
 * Whether `p` was made for a stand-in of a live run, of this process or in `elsewhere` (another
 * engine's: standInLedger.ts): the run that finds it plans its own stand-in there.
 */
export const madeForStandIn = (p: string, elsewhere?: ReadonlySet<string>): boolean =>
  held.has(p) || (elsewhere?.has(p) ?? false);

/** One more run relies on `paths` (its layout's `created`). */
export function holdCreated(paths: string[]): void {
  for (const p of paths) held.set(p, (held.get(p) ?? 0) + 1);
}

/**
 * One run fewer relies on `paths`: those no run holds any more, and that `busy` does not name
 * (another engine's run relies on them: standInLedger.ts), are removed (`removeUnheld`).
 */
export function releaseCreated(paths: string[], busy: (p: string) => boolean = () => false): void {
  const free: string[] = [];
  for (const p of paths) {
    const left = (held.get(p) ?? 1) - 1;
    if (left > 0) {
      held.set(p, left);
      continue;
    }
    held.delete(p);
    free.push(p);
  }
  removeUnheld(free, busy);
}

/**
 * Removes `paths`, deepest first as given, each only while empty (the run may have written on
 * the way to a guard), held by no live run of this process and not `busy`.
 */
export function removeUnheld(paths: string[], busy: (p: string) => boolean): void {
  for (const p of paths) {
    if (held.has(p) || busy(p)) continue;
    try {
      const st = fs.lstatSync(p);
      if (st.isDirectory()) fs.rmdirSync(p);
      else if (st.isFile() && st.size === 0) fs.unlinkSync(p);
    } catch {
      // Not empty, or gone.
    }
  }
}
