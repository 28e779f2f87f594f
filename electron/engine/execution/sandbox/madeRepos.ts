import fs from 'node:fs';
import path from 'node:path';
import type { Violation } from '../../../../shared/contract';
import { isInside } from './layout';

/**
 * Git folders a run made under its write folders are checked when it ends (the sandbox guards
 * only those that exist before: guarded.ts). git runs a repository's hooks and the commands its
 * config names (core.fsmonitor on every `git status`, which a git-aware prompt runs on `cd`)
 * outside any sandbox. A new one that would run code is renamed so git no longer finds it.
 */

/** What a set-aside git folder's name ends with (workdir.ts lists none of its files). */
export const SET_ASIDE = '.set-aside-by-skilldeck';

/** How deep, and over how many folder entries, the write folders are searched after a run. */
export const REPO_DEPTH = 8;
export const REPO_ENTRIES = 50_000;

/**
 * Config keys that name no command, by section (subsections any): what `git init`, `git clone`,
 * `git submodule` and a skill's `git config user.*` write. Anything else (core.fsmonitor,
 * core.pager, core.sshCommand, alias.*, filter.*, include.path, submodule.*.update = !cmd …)
 * counts as code, rather than keep a list of the keys that run something.
 */
const SAFE_KEYS: Record<string, string[]> = {
  core: [
    'repositoryformatversion',
    'filemode',
    'bare',
    'logallrefupdates',
    'ignorecase',
    'precomposeunicode',
    'symlinks',
    'autocrlf',
    'eol',
    'safecrlf',
    'sparsecheckout',
    'sparsecheckoutcone',
    'quotepath',
    'worktree',
    'checkstat',
    'trustctime',
    'untrackedcache',
    'commentchar',
    'abbrev',
    'compression',
  ],
  extensions: ['objectformat', 'worktreeconfig', 'partialclone', 'refstorage', 'preciousobjects'],
  remote: ['url', 'pushurl', 'fetch', 'push', 'tagopt', 'mirror', 'prune', 'promisor', 'partialclonefilter'],
  branch: ['remote', 'merge', 'rebase', 'pushremote', 'description'],
  submodule: ['url', 'active', 'branch', 'shallow', 'ignore', 'fetchrecursesubmodules'],
  user: ['name', 'email'],
  init: ['defaultbranch'],
  pull: ['rebase', 'ff'],
  push: ['default', 'autosetupremote', 'followtags'],
  fetch: ['prune', 'recursesubmodules'],
  gc: ['auto'],
  lfs: ['repositoryformatversion'],
  i18n: ['commitencoding', 'logoutputencoding'],
};

/**
 * The keys of a git config file that may run code (`core.fsmonitor`), and `a line git may read
 * otherwise` for what this reader does not follow (a value continued on the next line): read
 * line by line, so that no key hides where this reader and git's would part.
 */
export function codeInConfig(text: string): string[] {
  const found: string[] = [];
  let section = '';
  for (const raw of text.split('\n')) {
    let line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\\n]|\\.)*")?\s*\](.*)$/.exec(line);
    if (header) {
      section = header[1].split('.')[0].toLowerCase();
      line = header[2].trim();
      if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(=|$|[#;])/.exec(line);
    if (!entry) {
      found.push('a line git may read otherwise');
      continue;
    }
    const key = entry[1].toLowerCase();
    if (!(SAFE_KEYS[section] ?? []).includes(key)) found.push(`${section}.${key}`);
  }
  return [...new Set(found)];
}

/**
 * What in the git folder `gitDir` runs code outside the sandbox: hooks (any file but git's
 * `*.sample`), config keys that name commands (in `config` and `config.worktree`, of its
 * submodules and worktrees too), and a `commondir` that leads out of it (to a config kept
 * elsewhere). Relative to `gitDir`; empty when it runs nothing.
 */
export function codeInGitDir(gitDir: string): string[] {
  const found: string[] = [];
  let budget = 5_000;
  const walk = (dir: string, level: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    budget -= entries.length;
    for (const e of entries) {
      const at = path.join(dir, e.name);
      const rel = path.relative(gitDir, at);
      if (e.name === 'hooks') {
        // A link is not followed: git would, to hooks anywhere.
        if (!e.isDirectory()) found.push(`${rel} (no folder of its own)`);
        else for (const hook of safeList(at)) if (!hook.endsWith('.sample')) found.push(path.join(rel, hook));
      } else if (e.isDirectory()) {
        // Objects and refs hold no code, and a ref may be named `config`.
        if (e.name !== 'objects' && e.name !== 'refs' && level < 6 && budget > 0) walk(at, level + 1);
      } else if (e.name === 'config' || e.name === 'config.worktree') {
        const keys = e.isFile() ? codeInConfig(readText(at)) : ['a config that is no file'];
        for (const k of keys) found.push(rel === e.name ? k : `${k} in ${rel}`);
      } else if (e.name === 'commondir') {
        const target = e.isFile() ? path.resolve(dir, readText(at).trim()) : '(a link)';
        if (!isInside(target, gitDir)) found.push(`${rel} (it leads to ${target})`);
      }
    }
  };
  walk(gitDir, 0);
  if (budget <= 0) found.push('more files than could be checked');
  return found;
}

/**
 * What the run changed since `since` in an existing git folder that runs code: its hooks (not
 * git's samples), and its config or config.worktree where that names a command (codeInConfig).
 */
function codeChangedSince(gitDir: string, since: number): string[] {
  const changedAt = (p: string) => {
    try {
      const st = fs.lstatSync(p);
      return st.ctimeMs >= since ? st : null;
    } catch {
      return null;
    }
  };
  const hooks = safeList(path.join(gitDir, 'hooks'))
    .filter((h) => !h.endsWith('.sample') && changedAt(path.join(gitDir, 'hooks', h)))
    .map((h) => `hooks/${h}`);
  const configs = ['config', 'config.worktree'].filter((c) => {
    const st = changedAt(path.join(gitDir, c));
    return st?.isFile() && codeInConfig(readText(path.join(gitDir, c))).length > 0;
  });
  return [...hooks, ...configs];
}

function safeList(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Whether a file was made at or after `since`: by its birth time where the file system keeps
 * one, else by its last status change, to the whole second where that is all it keeps.
 */
function bornSince(st: fs.Stats, since: number): boolean {
  if (st.birthtimeMs > 0) return st.birthtimeMs >= since;
  return st.ctimeMs >= (st.ctimeMs % 1000 === 0 ? Math.floor(since / 1000) * 1000 : since);
}

/**
 * The git folder a `.git` file (`gitdir: …`) or link leads to, or null. Where its link leads is
 * read by the path the link holds, not followed: a link to ~/.aws would have its config read.
 */
function ledTo(entry: string, st: fs.Dirent): string | null {
  try {
    if (st.isSymbolicLink()) return path.resolve(path.dirname(entry), fs.readlinkSync(entry));
    const line = /^gitdir:\s*(.+?)\s*$/m.exec(readText(entry));
    return line ? path.resolve(path.dirname(entry), line[1]) : null;
  } catch {
    return null;
  }
}

/**
 * The git folders made at or after `since` (ms) under `roots`: `.git` folders, `.git` files and
 * links (checked where they lead), and folders git takes for a repository by their contents
 * (HEAD, objects, refs: a bare one, whose core.worktree makes a work tree of any folder). Not
 * below a link, node_modules or what `skip` says; at most REPO_DEPTH deep and `budget` entries
 * read. `unchecked`: the roots whose new folders were not all searched (the budget ran out, or
 * a new folder lies deeper). `touched`: the user's git folders (older than the run) in which it
 * changed what runs code, deeper than the guards reach (guarded.ts NESTED_DEPTH).
 */
export function reposMadeSince(
  roots: string[],
  since: number,
  skip: (p: string) => boolean,
  budget = REPO_ENTRIES,
): {
  found: { entry: string; gitDir: string }[];
  unchecked: string[];
  touched: { gitDir: string; changed: string[] }[];
} {
  const out: { entry: string; gitDir: string }[] = [];
  const touched: { gitDir: string; changed: string[] }[] = [];
  const unchecked = new Set<string>();
  const isNew = (p: string) => {
    try {
      return bornSince(fs.lstatSync(p), since);
    } catch {
      return false;
    }
  };
  // Breadth first: a spent budget leaves out the deepest, not a whole folder beside a big one.
  const queue = roots.map((dir) => ({ root: dir, dir, level: 0 }));
  for (let next = queue.shift(); next; next = queue.shift()) {
    const { root, dir, level } = next;
    if (budget <= 0) {
      unchecked.add(root);
      continue;
    }
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    budget -= entries.length;
    const named = new Map(entries.map((e) => [e.name, e]));
    const looksBare =
      named.get('HEAD')?.isFile() && named.get('objects')?.isDirectory() && named.get('refs')?.isDirectory();
    if (level > 0 && looksBare) {
      if (isNew(dir)) out.push({ entry: dir, gitDir: dir });
      continue;
    }
    for (const e of entries) {
      const at = path.join(dir, e.name);
      if (skip(at)) continue;
      if (e.name === '.git') {
        const gitDir = isNew(at) ? (e.isDirectory() ? at : ledTo(at, e)) : null;
        if (gitDir) out.push({ entry: at, gitDir });
        else if (e.isDirectory()) {
          const changed = codeChangedSince(at, since);
          if (changed.length > 0) touched.push({ gitDir: at, changed });
        }
      } else if (e.isDirectory() && e.name !== 'node_modules') {
        if (level < REPO_DEPTH) queue.push({ root, dir: at, level: level + 1 });
        else if (isNew(at)) unchecked.add(root);
      }
    }
  }
  return { found: out, unchecked: [...unchecked], touched };
}

/**
 * Renames each git folder the run made under `roots` that would run code outside the sandbox
 * (`sub/.git` → `sub/.git.set-aside-by-skilldeck`), so that git finds none there, and says so
 * as a violation. Kept, not removed: the user may look it over and rename it back.
 */
export function setAsideMadeRepos(
  roots: string[],
  since: number,
  skip: (p: string) => boolean,
  budget = REPO_ENTRIES,
): Violation[] {
  const violations: Violation[] = [];
  const made = reposMadeSince(roots, since, skip, budget);
  // Said, not passed over: a git folder there was not looked at.
  for (const root of made.unchecked)
    violations.push({
      kind: 'write',
      target: root,
      message: `made more folders in ${root} than are searched after a run (${budget.toLocaleString('en')} entries, ${REPO_DEPTH} levels), so a git folder it made there may run code outside the sandbox the next time git runs in it; look before you run git there`,
      grantable: false,
    });
  // The user's own: not renamed (theirs, with their hooks), but said.
  for (const { gitDir, changed } of made.touched)
    violations.push({
      kind: 'write',
      target: gitDir,
      message: `changed ${changed.join(', ')} in the git folder ${gitDir}, deeper in its write folder than the sandbox keeps git folders read-only, and git runs them outside the sandbox; look at them before you run git there`,
      grantable: false,
    });
  // All checked before any is renamed: a .git file may lead to a git folder set aside here.
  // One led to out of the folders the run could write is read no further: it may be any folder.
  const found = made.found.map((r) => ({
    ...r,
    code:
      roots.some((root) => isInside(r.gitDir, root)) && !linkOnTheWay(r.gitDir, roots)
        ? codeInGitDir(r.gitDir)
        : [`a pointer to ${r.gitDir}, outside the folders it could write`],
  }));
  for (const { entry, code } of found) {
    if (code.length === 0) continue;
    const aside = freeName(entry);
    try {
      fs.renameSync(entry, aside);
    } catch (error) {
      violations.push(
        violation(entry, code, `could not be renamed (${(error as Error).message}); remove it`),
      );
      continue;
    }
    violations.push(
      violation(
        entry,
        code,
        `renamed to ${path.basename(aside)} so git ignores it; look it over before you rename it back`,
      ),
    );
  }
  return violations;
}

/** Whether a folder on the way from its root to `p` (or `p` itself) is a link, which leads anywhere. */
function linkOnTheWay(p: string, roots: string[]): boolean {
  const root = roots.find((r) => isInside(p, r))!;
  for (let at = p; at !== root && isInside(at, root); at = path.dirname(at)) {
    try {
      if (fs.lstatSync(at).isSymbolicLink()) return true;
    } catch {
      return false;
    }
  }
  return false;
}

function violation(entry: string, code: string[], done: string): Violation {
  const shown = code.length > 4 ? [...code.slice(0, 4), `${code.length - 4} more`] : code;
  return {
    kind: 'write',
    target: entry,
    message: `made the git folder ${entry}, whose ${shown.join(', ')} would run outside the sandbox the next time git runs there; ${done}`,
    grantable: false,
  };
}

/**
 * A name beside `entry` that nothing has yet: `<name>.set-aside-by-skilldeck`, or for a name too
 * long to take the suffix (a folder name holds 255 bytes), `.set-aside-by-skilldeck`.
 */
function freeName(entry: string): string {
  const long = Buffer.byteLength(path.basename(entry)) > 200;
  const base = long ? path.join(path.dirname(entry), SET_ASIDE) : `${entry}${SET_ASIDE}`;
  for (let i = 1; ; i++) {
    const name = i === 1 ? base : `${base}-${i}`;
    try {
      fs.lstatSync(name);
    } catch {
      return name;
    }
  }
}
