import type { InstallHint } from '../../../shared/contract';

/**
 * What a skill's `install` entries (OpenClaw metadata: `{ kind: brew, formula, bins }`,
 * `{ kind: node, package }` …) tell a user to type, so "missing bin:openhue" comes with
 * "brew install openhue/cli/openhue-cli". Shown, never run: installing is the user's call.
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

/**
 * Up to `limit` ways to install what is missing: entries that provide one of the missing
 * `bins` (or every entry when none says what it provides), for this platform where an entry
 * names platforms ("Install OpenHue CLI (brew)", "brew install openhue/cli/openhue-cli").
 */
export function installHints(
  install: readonly Record<string, unknown>[],
  missingBins: readonly string[],
  platform: NodeJS.Platform = process.platform,
  limit = 2,
): InstallHint[] {
  const provides = install.filter((e) => binsOf(e).some((b) => missingBins.includes(b)));
  const relevant = provides.length > 0 ? provides : install.filter((e) => binsOf(e).length === 0);
  const here = relevant.filter((e) => osOf(e).length === 0 || osOf(e).includes(platform));
  const out: InstallHint[] = [];
  for (const entry of here.length > 0 ? here : relevant) {
    const command = commandOf(entry);
    if (!command || out.some((hint) => hint.command === command)) continue;
    const label = typeof entry.label === 'string' ? entry.label.trim().replace(/[\n\r]+/g, ' ') : '';
    out.push(label ? { label, command } : { command });
    if (out.length >= limit) break;
  }
  return out;
}
