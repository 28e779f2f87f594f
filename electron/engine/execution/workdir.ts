import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { RunFile } from '../../../shared/contract';
import { isForbiddenEnv } from './policy';

/** A run's scratch folders under `$SKILLDECK_HOME/runs/<run_id>/`. */
export interface RunDirs {
  root: string;
  /** The process's cwd; `./…` grants resolve here and what it leaves is listed. */
  work: string;
  /** `work/out`: the output folder skills are told about (`OUTPUT_DIR`). */
  out: string;
  /** `work/.tmp`: TMPDIR, removed after the run. */
  tmp: string;
}

/** Where a run's folders are, whether or not a script of it ran yet. */
export function runDirs(home: string, runId: string): RunDirs {
  const root = path.join(home, 'runs', runId);
  const work = path.join(root, 'work');
  return { root, work, out: path.join(work, 'out'), tmp: path.join(work, '.tmp') };
}

export function makeRunDirs(home: string, runId: string): RunDirs {
  const dirs = runDirs(home, runId);
  const { root } = dirs;
  // A run's inputs and outputs are the user's alone (records are 0600 already): 0700, so other
  // local users, and their sandboxed runs, cannot read them.
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  fs.chmodSync(root, 0o700);
  fs.mkdirSync(dirs.out, { recursive: true });
  fs.mkdirSync(dirs.tmp, { recursive: true });
  return dirs;
}

/** Variables the engine owns and always sets (reference/sandbox-linux.md: plumbing, never `LD_*`). */
const PASSED_IF_SET = [
  'LANG',
  'LC_ALL',
  'TZ',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
];

export interface RunEnvInput {
  hostEnv: NodeJS.ProcessEnv;
  allow: string[];
  home: string;
  dirs: RunDirs;
  skillName: string;
  skillDir: string;
  /** The user's project folder, where a task's relative paths ("data.csv") are meant. */
  workspace: string;
  input: Record<string, unknown>;
  timeoutMs: number;
}

/**
 * The exact environment inside a run (DESIGN §4, apex-bridge convention): the plumbing,
 * the skill's allow-listed variables that are set here, and `SKILL_NAME`, `SKILL_PATH`,
 * `INPUT_JSON`, `TIMEOUT` (seconds), `OUTPUT_DIR`, `WORKSPACE` (the user's project folder, to
 * resolve a task's relative paths; readable only when a grant covers it). Nothing else of the
 * app's environment.
 */
export function buildRunEnv(o: RunEnvInput): Record<string, string> {
  const env: Record<string, string> = {
    PATH: o.hostEnv.PATH || '/usr/local/bin:/usr/bin:/bin',
    HOME: o.home,
    TMPDIR: o.dirs.tmp,
    LANG: o.hostEnv.LANG || 'C.UTF-8',
    // The skill folder is read-only inside the sandbox: no __pycache__ writes to fail on.
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONIOENCODING: 'utf-8',
  };
  for (const name of PASSED_IF_SET) {
    const value = o.hostEnv[name];
    if (value) env[name] = value;
  }
  for (const name of o.allow) {
    const value = o.hostEnv[name];
    if (value !== undefined && !isForbiddenEnv(name)) env[name] = value;
  }
  Object.assign(env, {
    SKILL_NAME: o.skillName,
    SKILL_PATH: o.skillDir,
    INPUT_JSON: JSON.stringify(o.input),
    TIMEOUT: String(Math.max(1, Math.round(o.timeoutMs / 1000))),
    OUTPUT_DIR: o.dirs.out,
    WORKSPACE: o.workspace,
  });
  return env;
}

/**
 * How many folder entries one listing reads at most. A script can leave 100,000 empty folders
 * (no file to stop at 200): read whole, with a locale-aware sort, they held the engine's thread
 * for 3.5 s per listing, and each run lists twice.
 */
export const MAX_WALK_ENTRIES = 20_000;

/** Files the run left in its working folder (TMPDIR excluded), at most `limit`, reading at most `maxEntries` folder entries. */
export function listRunFiles(dirs: RunDirs, limit = 200, maxEntries = MAX_WALK_ENTRIES): RunFile[] {
  return walkRunFiles(dirs, limit, maxEntries).map(unstamped);
}

/** Each file's size and modification time, to tell what a script wrote (`writtenSince`). */
export type RunFileStamps = Map<string, string>;

export function stampRunFiles(dirs: RunDirs, limit = 200): RunFileStamps {
  return new Map(walkRunFiles(dirs, limit).map((f) => [f.path, f.stamp]));
}

/**
 * The files in the run's folder that are new or changed since `before`: what the script that
 * ran in between wrote (the run's scripts run one at a time, in one folder).
 */
export function writtenSince(dirs: RunDirs, before: RunFileStamps, limit = 200): RunFile[] {
  return walkRunFiles(dirs, limit)
    .filter((f) => before.get(f.path) !== f.stamp)
    .map(unstamped);
}

type StampedFile = RunFile & { stamp: string };

const unstamped = (f: StampedFile): RunFile => ({ path: f.path, abs: f.abs, size: f.size });

/** By bytes (code point order for UTF-8): locale-aware sorting cost a second per 100,000 names. */
const byName = (a: fs.Dirent<Buffer>, b: fs.Dirent<Buffer>) => Buffer.compare(a.name, b.name);

/**
 * Names are read and used as bytes: a name that is no UTF-8 (`bad\xff.txt`, from a zip made on
 * another system) decodes to U+FFFD, which names no file, and stat threw: the run came back
 * "could not be loaded: ENOENT". Such a name is listed with U+FFFD in its path.
 */
function walkRunFiles(dirs: RunDirs, limit: number, maxEntries = MAX_WALK_ENTRIES): StampedFile[] {
  const out: StampedFile[] = [];
  let budget = maxEntries;
  const tmp = Buffer.from(dirs.tmp);
  const slash = Buffer.from(path.sep);
  const walk = (dir: Buffer, depth: number) => {
    if (depth > 8 || out.length >= limit || budget <= 0) return;
    let entries: fs.Dirent<Buffer>[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true, encoding: 'buffer' });
    } catch {
      return;
    }
    budget -= entries.length;
    for (const e of entries.sort(byName)) {
      const abs = Buffer.concat([dir, slash, e.name]);
      if (abs.equals(tmp)) continue;
      // Spent: the files of this folder are still listed, no folder below it is read.
      if (e.isDirectory()) walk(abs, depth + 1);
      else if (e.isFile() && out.length < limit) {
        let stat: fs.BigIntStats;
        try {
          stat = fs.statSync(abs, { bigint: true });
        } catch {
          continue;
        }
        const name = abs.toString();
        out.push({
          path: path.relative(dirs.work, name).split(path.sep).join('/'),
          abs: name,
          size: Number(stat.size),
          stamp: `${stat.size}:${stat.mtimeNs}`,
        });
      }
    }
  };
  walk(Buffer.from(dirs.work), 0);
  return out;
}

/**
 * Whether a file changed at or after `since` (ms): by its last status change, which no script
 * can set back (utimes sets it too), to the whole second where that is all a file system keeps.
 */
function changedSince(st: fs.Stats, since: number): boolean {
  return st.ctimeMs >= (st.ctimeMs % 1000 === 0 ? Math.floor(since / 1000) * 1000 : since);
}

/** Folders whose thousands of files say nothing to the user: an install's, git's (madeRepos.ts names the set-aside ones). */
const NOT_LISTED = /^(node_modules|\.git|.*\.set-aside-by-skilldeck(-\d+)?)$/;

/**
 * The files in the write folders `folders` (outside the run's own) that changed at or after
 * `since`: what a run wrote in the user's project, listed by their paths on disk. Breadth first,
 * at most `limit` files, 8 levels and MAX_WALK_ENTRIES entries read; not below a link, nor in
 * node_modules or .git (an install's or a commit's thousands of files), nor in `hidden`.
 * A file something else changed meanwhile is listed too: the sandbox cannot tell who wrote it.
 */
export function writtenIn(folders: string[], since: number, hidden: string[], limit = 200): RunFile[] {
  const skip = (p: string) => hidden.some((h) => p === h || p.startsWith(`${h}${path.sep}`));
  const out: RunFile[] = [];
  const seen = new Set<string>();
  const add = (abs: string, st: fs.Stats) => {
    const entry = st.isFile() || st.isSymbolicLink();
    if (seen.has(abs) || out.length >= limit || !entry || !changedSince(st, since)) return;
    seen.add(abs);
    out.push({ path: abs, abs, size: st.size });
  };
  let budget = MAX_WALK_ENTRIES;
  const queue: { dir: string; level: number }[] = [];
  for (const f of folders) {
    if (skip(f)) continue;
    const st = lstatOrNull(f);
    if (st?.isDirectory()) queue.push({ dir: f, level: 0 });
    else if (st) add(f, st);
  }
  for (let next = queue.shift(); next && budget > 0 && out.length < limit; next = queue.shift()) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(next.dir, { withFileTypes: true });
    } catch {
      continue;
    }
    budget -= entries.length;
    // A bare repository is git's insides too (HEAD, objects, refs), as is a .git the sandbox set aside.
    const names = new Set(entries.map((e) => e.name));
    if (next.level > 0 && ['HEAD', 'objects', 'refs'].every((n) => names.has(n))) continue;
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const abs = path.join(next.dir, e.name);
      if (skip(abs)) continue;
      if (e.isDirectory()) {
        if (!NOT_LISTED.test(e.name) && next.level < 8) queue.push({ dir: abs, level: next.level + 1 });
      } else if (e.isFile() || e.isSymbolicLink()) {
        // A link it made is listed as a link (its size is that of the path it holds), never followed.
        const st = lstatOrNull(abs);
        if (st) add(abs, st);
      }
    }
  }
  return out;
}

function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

/**
 * A run's files with those its scripts wrote outside its folder added (an instruction skill's
 * result lists its folder only; a skill that failed before a fallback answered), each once.
 */
export function withWrittenElsewhere(files: RunFile[], scripts: { files?: RunFile[] }[]): RunFile[] {
  const out = [...files];
  for (const f of scripts.flatMap((s) => s.files ?? []))
    if (path.isAbsolute(f.path) && !out.some((o) => o.abs === f.abs)) out.push(f);
  return out;
}

/** Remove the run's TMPDIR (outputs stay for the user). Never throws. */
export function cleanRunTmp(dirs: RunDirs): void {
  removeTree(dirs.tmp);
}

/**
 * Remove a folder a script wrote, also when it took its own write permission away (`chmod 500`
 * on a folder, `chmod 000` on TMPDIR): the engine runs as the same user and, unlike root, needs
 * it to remove the entries. Folders are made 0700 again first, found by lstat, so no link out of
 * the tree is ever followed (chmod -R follows none either). Never throws; false when something stayed.
 */
export function removeTree(dir: string): boolean {
  try {
    fs.rmSync(dir, { recursive: true, force: true });
    return true;
  } catch {
    // Locked by the script: unlock below, then once more.
  }
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop()!;
    try {
      if (!fs.lstatSync(d).isDirectory()) continue;
      fs.chmodSync(d, 0o700);
      for (const e of fs.readdirSync(d, { withFileTypes: true }))
        if (e.isDirectory()) stack.push(path.join(d, e.name));
    } catch {
      // Gone, or not ours: rmSync says what stayed.
    }
  }
  try {
    fs.rmSync(dir, { recursive: true, force: true });
    return true;
  } catch {
    // Deeper than PATH_MAX (folders made one below the other by relative paths): Node names each
    // entry by its whole path (ENAMETOOLONG); chmod and rm walk the tree from inside.
  }
  if (process.platform === 'win32') return false;
  spawnSync('chmod', ['-R', 'u+rwx', '--', dir], { stdio: 'ignore' });
  spawnSync('rm', ['-rf', '--', dir], { stdio: 'ignore' });
  return !fs.existsSync(dir);
}
