import type { InstallHint } from '../../../shared/contract';

/**
 * What a skill's `install` entries (OpenClaw metadata: `{ kind: brew, formula, bins }`,
 * `{ kind: node, package }` …) tell a user to type, so "missing bin:openhue" comes with
 * "brew install openhue/cli/openhue-cli". Shown with a copy button; the ones the user's own package
 * manager runs without sudo can also be run from the app, when the user asks (dependencies.ts).
 */

/** The command line for one entry, or null when the entry says too little to write one. */
function commandOf(entry: Record<string, unknown>): string | null {
  const str = (key: string) => {
    const value = entry[key];
    return typeof value === 'string' && value.trim() && !/[\n\r]/.test(value) ? value.trim() : null;
  };
  const list = Array.isArray(entry.packages)
    ? entry.packages.filter((p): p is string => typeof p === 'string' && /^[\w@./:+-]+$/.test(p)).join(' ')
    : '';
  const named =
    str('package') ?? str('formula') ?? str('pkg') ?? str('module') ?? str('crate') ?? (list || null);
  // `package: "."` means "this folder", which says nothing to a user elsewhere.
  const pkg = named && named !== '.' ? named : null;
  const given = str('command') ?? str('cmd') ?? str('run') ?? str('instructions');
  switch (str('kind') ?? str('type')) {
    case 'brew': {
      const cask = str('cask');
      return cask ? `brew install --cask ${cask}` : pkg ? `brew install ${pkg}` : given;
    }
    case 'node':
    case 'npm':
      return pkg ? `npm install -g ${pkg}` : given;
    case 'go':
      return pkg ? `go install ${pkg.includes('@') ? pkg : `${pkg}@latest`}` : given;
    case 'pip':
    case 'python':
      return pkg ? `pip install ${pkg}` : given;
    case 'uv':
      return pkg ? `uv tool install ${pkg}` : given;
    case 'apt':
      return pkg ? `sudo apt install ${pkg}` : given;
    case 'cargo': {
      const git = str('git');
      return git ? `cargo install --git ${git}` : pkg ? `cargo install ${pkg}` : given;
    }
    case 'download': {
      const url = str('url');
      return url ? `download ${url}` : given;
    }
    default:
      return given;
  }
}

const binsOf = (entry: Record<string, unknown>): string[] =>
  Array.isArray(entry.bins) ? entry.bins.filter((b): b is string => typeof b === 'string') : [];

const osOf = (entry: Record<string, unknown>): string[] =>
  Array.isArray(entry.os) ? entry.os.filter((o): o is string => typeof o === 'string') : [];

/** A package, formula or module as the installers take it: nothing that reads as an option or holds a blank. */
const PACKAGE_RE = /^[\w@./~][\w@./:+~-]*$/;

/**
 * The program and arguments that install one entry, where the user's own package manager does it
 * without sudo and `has` finds that manager on PATH: brew, npm, go, uv, cargo, and pip as a tool
 * (pipx, or uv) — a bare `pip install` meets PEP 668's "externally managed" on Debian and macOS'
 * Homebrew Python. apt (sudo), downloads and commands the skill writes out are never run.
 */
export function installerArgv(
  entry: Record<string, unknown>,
  has: (bin: string) => boolean,
): string[] | null {
  const str = (key: string) => {
    const value = entry[key];
    return typeof value === 'string' && PACKAGE_RE.test(value.trim()) ? value.trim() : null;
  };
  const pkg = str('package') ?? str('formula') ?? str('pkg') ?? str('module') ?? str('crate');
  const named = pkg && pkg !== '.' ? pkg : null;
  const run = (argv: (string | null)[]) =>
    argv.every((a): a is string => a !== null) && has(argv[0] as string) ? (argv as string[]) : null;
  const kind = [entry.kind, entry.type].find((k): k is string => typeof k === 'string')?.trim();
  switch (kind) {
    case 'brew': {
      const cask = str('cask');
      return cask ? run(['brew', 'install', '--cask', cask]) : run(['brew', 'install', named]);
    }
    case 'node':
    case 'npm':
      return run(['npm', 'install', '-g', named]);
    case 'go':
      return run(['go', 'install', named && (named.includes('@') ? named : `${named}@latest`)]);
    case 'uv':
      return run(['uv', 'tool', 'install', named]);
    case 'pip':
    case 'python':
      return run(['pipx', 'install', named]) ?? run(['uv', 'tool', 'install', named]);
    case 'cargo': {
      const git = typeof entry.git === 'string' && /^https:\/\/[^\s]+$/.test(entry.git) ? entry.git : null;
      return git ? run(['cargo', 'install', '--git', git]) : run(['cargo', 'install', named]);
    }
    default:
      return null;
  }
}

/** A hint and, when SkillDeck can run it for the user, the program and arguments it runs. */
export interface RunnableHint {
  hint: InstallHint;
  argv: string[] | null;
}

/**
 * Up to `limit` ways to install what is missing: entries that provide one of the missing
 * `bins` (or every entry when none says what it provides), for this platform where an entry
 * names platforms ("Install OpenHue CLI (brew)", "brew install openhue/cli/openhue-cli").
 * With `has` (is this program on PATH?), an entry SkillDeck can run is marked `runnable`, and
 * its command is exactly what would run.
 */
export function installHints(
  install: readonly Record<string, unknown>[],
  missingBins: readonly string[],
  platform: NodeJS.Platform = process.platform,
  limit = 2,
  has?: (bin: string) => boolean,
): InstallHint[] {
  return runnableHints(install, missingBins, platform, limit, has).map((r) => r.hint);
}

export function runnableHints(
  install: readonly Record<string, unknown>[],
  missingBins: readonly string[],
  platform: NodeJS.Platform = process.platform,
  limit = 2,
  has?: (bin: string) => boolean,
): RunnableHint[] {
  const provides = install.filter((e) => binsOf(e).some((b) => missingBins.includes(b)));
  const relevant = provides.length > 0 ? provides : install.filter((e) => binsOf(e).length === 0);
  const here = relevant.filter((e) => osOf(e).length === 0 || osOf(e).includes(platform));
  const out: RunnableHint[] = [];
  for (const entry of here.length > 0 ? here : relevant) {
    const argv = has ? installerArgv(entry, has) : null;
    const command = argv ? argv.join(' ') : commandOf(entry);
    if (!command || out.some((r) => r.hint.command === command)) continue;
    const label = typeof entry.label === 'string' ? entry.label.trim().replace(/[\n\r]+/g, ' ') : '';
    const hint: InstallHint = label ? { label, command } : { command };
    if (argv) hint.runnable = true;
    out.push({ hint, argv });
    if (out.length >= limit) break;
  }
  return out;
}
