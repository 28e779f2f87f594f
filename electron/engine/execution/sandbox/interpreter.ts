import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { which } from './probe';
import { skillVenv } from './skillVenv';

/** How to run one script: the real program on the host and what the sandbox must let it read. */
export type InterpreterResolution =
  | {
      ok: true;
      /** Absolute path of the program on the host (never a shim). */
      command: string;
      /** Arguments before the script's own: interpreter flags and the script path. */
      args: string[];
      /** Folders the interpreter needs (its prefix); add them to grants.read. */
      readPrefixes: string[];
      /** Variables the interpreter itself needs (ELECTRON_RUN_AS_NODE for Electron's node). */
      env: Record<string, string>;
    }
  | { ok: false; error: string };

export interface InterpreterOptions {
  /** PATH etc. used to find interpreters; process.env when omitted. */
  env?: NodeJS.ProcessEnv;
  /** The running binary (Electron's in the app); process.execPath when omitted. */
  execPath?: string;
  /** Whether execPath is Electron (needs ELECTRON_RUN_AS_NODE=1 to act as node); from process.versions when omitted. */
  isElectron?: boolean;
  /**
   * The skill's folder: its own venv (`.venv`, `venv`) runs its Python scripts, and the
   * interpreter that venv links to is readable in the sandbox for any of its scripts.
   */
  skillDir?: string;
}

const BY_EXTENSION: Record<string, string> = {
  '.py': 'python3',
  '.sh': 'bash',
  '.bash': 'bash',
  '.js': 'node',
  '.mjs': 'node',
  '.cjs': 'node',
  '.ts': 'node',
  '.mts': 'node',
  '.cts': 'node',
};

/** Languages whose interpreter is often absent: a shebang names theirs first (with its flags). */
const BY_EXTENSION_AFTER_SHEBANG: Record<string, string> = {
  '.zsh': 'zsh',
  '.pl': 'perl',
  '.rb': 'ruby',
  '.php': 'php',
  '.lua': 'lua',
  '.ps1': 'pwsh',
};

/**
 * Where a python really lives: the executable, its prefixes (a venv's and the base one)
 * and the user site-packages (`pip install --user`), which sits under the masked home.
 */
const PY_INFO =
  'import sys, json, site; print(json.dumps([sys.executable, sys.prefix, sys.base_prefix, site.getusersitepackages()]))';

const pythonCache = new Map<string, { executable: string; prefixes: string[] } | null>();
const nodeVersionCache = new Map<string, string | null>();

function realpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

/** What an interpreter needs of the prefix it sits in (`prefix/bin/x`), besides its own folder. */
const RUNTIME = ['bin', 'lib', 'lib64', 'libexec', 'pyvenv.cfg'];

/**
 * The folders to bind for `exe`: its own, and its prefix's runtime folders that exist; never
 * the whole prefix, which for `~/bin/x` or `/tmp/.mount_x/app` is the home or /tmp itself.
 */
function runtimeOf(exe: string): string[] {
  const prefix = path.dirname(path.dirname(exe));
  const dirs = RUNTIME.map((d) => path.join(prefix, d)).filter((d) => fs.existsSync(d));
  return [...new Set([path.dirname(exe), ...dirs])];
}

/** `#!/usr/bin/env -S node --flag` → ['node', '--flag']; null without a shebang. */
function readShebang(file: string): string[] | null {
  let head: string;
  try {
    const fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(256);
    const n = fs.readSync(fd, buf, 0, 256, 0);
    fs.closeSync(fd);
    head = buf.subarray(0, n).toString('utf8');
  } catch {
    return null;
  }
  if (!head.startsWith('#!')) return null;
  const words = head.slice(2).split('\n')[0].trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  if (path.basename(words[0]) === 'env') {
    const rest = words.slice(1).filter((w) => w !== '-S');
    return rest.length ? rest : null;
  }
  return words;
}

/** Asks a python (maybe a pyenv shim) where it really lives, once per path. */
function pythonInfo(bin: string, env: NodeJS.ProcessEnv): { executable: string; prefixes: string[] } | null {
  if (pythonCache.has(bin)) return pythonCache.get(bin) ?? null;
  const run = spawnSync(bin, ['-c', PY_INFO], {
    encoding: 'utf8',
    timeout: 10_000,
    env,
  });
  let info: { executable: string; prefixes: string[] } | null = null;
  try {
    const [executable, prefix, basePrefix, userSite] = JSON.parse(run.stdout.trim()) as string[];
    if (executable) {
      const exe = realpath(executable);
      const dirs = [prefix, basePrefix, ...runtimeOf(exe)];
      if (userSite && fs.existsSync(userSite)) dirs.push(userSite);
      info = { executable: exe, prefixes: [...new Set(dirs.map(realpath))] };
    }
  } catch {
    info = null;
  }
  pythonCache.set(bin, info);
  return info;
}

/**
 * A python a shebang names by path, never run here: invoked by that path (a venv's python
 * finds its venv from it), with its runtime folders and those of the file it links to.
 */
function namedPython(bin: string): { executable: string; prefixes: string[] } {
  return { executable: bin, prefixes: [...new Set([...runtimeOf(bin), ...runtimeOf(realpath(bin))])] };
}

function nodeVersion(bin: string, env: Record<string, string | undefined>): string | null {
  if (nodeVersionCache.has(bin)) return nodeVersionCache.get(bin) ?? null;
  const run = spawnSync(bin, ['-p', 'process.versions.node'], { encoding: 'utf8', timeout: 10_000, env });
  const v = run.status === 0 ? run.stdout.trim() : null;
  nodeVersionCache.set(bin, v);
  return v;
}

/** Type stripping: `--experimental-strip-types` exists from Node 22.6. */
function stripsTypes(version: string): boolean {
  const [major, minor] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 6);
}

/**
 * How to run a skill script (DESIGN §4): by extension (`.py` python3, `.sh` bash,
 * `.js/.mjs/.cjs` node, `.ts` node's type stripping), else by its shebang, else by the
 * extensions of languages a host may lack (`.pl` perl, `.rb` ruby …), else the file itself
 * when executable. Interpreters are resolved on the host to their real path and
 * prefix (a pyenv shim or an nvm node under the home vanishes inside the sandbox:
 * reference/sandbox-linux.md). In Electron, `process.execPath` is the app: a `node` on
 * PATH is preferred, else the app with ELECTRON_RUN_AS_NODE=1.
 */
export function resolveInterpreter(scriptPath: string, opts: InterpreterOptions = {}): InterpreterResolution {
  const resolved = resolveFor(scriptPath, opts);
  const venv = opts.skillDir ? skillVenv(opts.skillDir) : null;
  // A shell wrapper that starts the venv's python needs the interpreter behind it too.
  if (!resolved.ok || !venv) return resolved;
  const readPrefixes = [...new Set([...resolved.readPrefixes, ...namedPython(venv.python).prefixes])];
  return { ...resolved, readPrefixes };
}

function resolveFor(scriptPath: string, opts: InterpreterOptions): InterpreterResolution {
  const env = opts.env ?? process.env;
  const script = path.resolve(scriptPath);
  if (!fs.existsSync(script)) return { ok: false, error: `the script ${script} does not exist` };
  const ext = path.extname(script).toLowerCase();
  const shebang = readShebang(script);
  const byExt = BY_EXTENSION[ext];
  if (byExt) return interpreterFor(byExt, [], script, ext, env, opts);
  if (shebang) return interpreterFor(shebang[0], shebang.slice(1), script, ext, env, opts);
  const other = BY_EXTENSION_AFTER_SHEBANG[ext];
  if (other) return interpreterFor(other, [], script, ext, env, opts);
  try {
    fs.accessSync(script, fs.constants.X_OK);
    return { ok: true, command: script, args: [], readPrefixes: [], env: {} };
  } catch {
    return {
      ok: false,
      error: `no interpreter for ${path.basename(script)}: add a shebang line or use .py, .sh, .js or .ts`,
    };
  }
}

function interpreterFor(
  name: string,
  flags: string[],
  script: string,
  ext: string,
  env: NodeJS.ProcessEnv,
  opts: InterpreterOptions,
): InterpreterResolution {
  const base = path.basename(name);
  if (/^python(\d+(\.\d+)?)?$/.test(base)) {
    // A python named by path in the shebang is the one the script asked for.
    const venv = !name.includes('/') && opts.skillDir ? skillVenv(opts.skillDir) : null;
    if (venv) {
      const info = namedPython(venv.python);
      return {
        ok: true,
        command: info.executable,
        args: [...flags, script],
        readPrefixes: info.prefixes,
        env: {},
      };
    }
    const bin = which(name, env);
    if (!bin)
      return {
        ok: false,
        error: `${base} is not installed (not on PATH); the script ${path.basename(script)} needs it`,
      };
    // Only a python found on the host's PATH is asked where it lives: a path the shebang names
    // may be the skill's own file, or one a run wrote, and asking means running it unsandboxed.
    const info = name.includes('/') ? namedPython(bin) : pythonInfo(bin, env);
    if (!info) return { ok: false, error: `${bin} did not start: cannot run ${path.basename(script)}` };
    return {
      ok: true,
      command: info.executable,
      args: [...flags, script],
      readPrefixes: info.prefixes,
      env: {},
    };
  }
  if (base === 'node' || base === 'nodejs') return nodeFor(name, flags, script, ext, env, opts);
  const bin = which(name, env);
  if (!bin)
    return {
      ok: false,
      error: `${base} is not installed (not on PATH); the script ${path.basename(script)} needs it`,
    };
  const exe = realpath(bin);
  return {
    ok: true,
    command: exe,
    args: [...flags, script],
    readPrefixes: runtimeOf(exe),
    env: {},
  };
}

function nodeFor(
  name: string,
  flags: string[],
  script: string,
  ext: string,
  env: NodeJS.ProcessEnv,
  opts: InterpreterOptions,
): InterpreterResolution {
  const isElectron = opts.isElectron ?? Boolean(process.versions.electron);
  const execPath = opts.execPath ?? process.execPath;
  const onPath = which(name, env);
  const command = onPath ? realpath(onPath) : isElectron ? execPath : realpath(execPath);
  const extraEnv: Record<string, string> = !onPath && isElectron ? { ELECTRON_RUN_AS_NODE: '1' } : {};
  const args = [...flags];
  if (ext === '.ts' || ext === '.mts' || ext === '.cts') {
    const version = nodeVersion(command, { ...env, ...extraEnv });
    if (!version || !stripsTypes(version)) {
      return {
        ok: false,
        error: `${path.basename(script)} is TypeScript, which needs Node 22.6 or newer (type stripping); this node is ${version ?? 'unknown'}; use a .js script or install a newer node`,
      };
    }
    args.push('--experimental-strip-types', '--disable-warning=ExperimentalWarning');
  }
  return {
    ok: true,
    command,
    args: [...args, script],
    readPrefixes: runtimeOf(command),
    env: extraEnv,
  };
}
