import fs from 'node:fs';
import path from 'node:path';

/**
 * Where a write grant's folder keeps what runs code outside the sandbox: git hooks and config
 * (core.hooksPath, core.fsmonitor), direnv, editor tasks and settings, shell start-up files, the
 * project's MCP servers and agents' settings (their hooks), desktop autostart and user services.
 * Read-only under any grant around them (Codex keeps .git read-only in its writable roots;
 * Anthropic's sandbox-runtime denies writes to these); a grant of that very path still holds.
 */
export const GUARDED = [
  '.git/hooks',
  '.git/config',
  '.envrc',
  '.vscode',
  '.idea',
  '.mcp.json',
  '.claude',
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

/** The GUARDED entries that are files; the others are folders. */
const GUARDED_FILES = new Set([
  '.git/config',
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
 * says (another grant inside).
 */
export function missingGuards(
  writes: string[],
  skip: (p: string) => boolean,
): { placeholders: { path: string; dir: boolean }[]; created: string[] } {
  const placeholders: { path: string; dir: boolean }[] = [];
  const created = new Set<string>();
  // A write grant of a file holds no guarded path.
  for (const w of writes.filter((at) => lstatOrNull(at)?.isDirectory()))
    for (const g of GUARDED) {
      const target = path.join(w, g);
      if (skip(target)) continue;
      const made: string[] = [];
      let at = w;
      for (const part of g.split('/')) {
        at = path.join(at, part);
        if (made.length > 0) {
          made.push(at);
          continue;
        }
        const st = lstatOrNull(at);
        if (st === null) made.push(at);
        else if (!st.isDirectory()) break;
      }
      if (made.length === 0) continue;
      placeholders.push({ path: target, dir: !GUARDED_FILES.has(g) });
      for (const m of made) created.add(m);
    }
  return { placeholders, created: [...created].sort((a, b) => depth(b) - depth(a)) };
}

/** Removes what bwrap made for the stand-ins (missingGuards), deepest first, each only while empty. */
export function removeCreated(paths: string[]): void {
  for (const p of paths) {
    try {
      const st = fs.lstatSync(p);
      if (st.isDirectory()) fs.rmdirSync(p);
      else if (st.isFile() && st.size === 0) fs.unlinkSync(p);
    } catch {
      // Not empty (the run wrote there, on the way to a guard), or gone.
    }
  }
}
