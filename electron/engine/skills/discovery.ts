import fs from 'node:fs';
import path from 'node:path';
import type { Problem, SkillSource } from '../../../shared/contract';
import type { SkillLocation } from './loadSkill';
import { warning } from './problems';

/** Where skills are looked for, and how (DESIGN §2). */
export interface CatalogOptions {
  /** $SKILLDECK_HOME; managed skills live in home/skills. */
  home: string;
  /** Used for ~/.claude/skills and ~/.agents/skills. */
  userHome: string;
  /** Its skills/, .claude/skills and .agents/skills are searched. */
  workspace: string;
  /** The app's bundled skills/ folder. */
  bundledDir?: string;
  /** From `--skills DIR` or settings, source 'extra'. */
  extraDirs: string[];
  /** True: search only extraDirs. */
  noDefaultPaths: boolean;
  /** Platform for `os` gating; defaults to process.platform. */
  platform?: NodeJS.Platform;
}

/** Limits of one root's scan (agentskills.io client guide: bound the scan). */
export const SCAN_LIMITS = { maxDepth: 6, maxDirs: 20_000 };

/**
 * The discovery folders, lowest precedence first: bundled → user (~/.claude/skills,
 * ~/.agents/skills) → managed ($SKILLDECK_HOME/skills) → workspace (skills/,
 * .claude/skills, .agents/skills) → extra. A later same-named skill shadows an earlier one.
 */
export function discoveryRoots(options: CatalogOptions): { path: string; source: SkillSource }[] {
  const extra = options.extraDirs.map((dir) => ({ path: path.resolve(dir), source: 'extra' as const }));
  if (options.noDefaultPaths) return extra;
  const roots: { path: string; source: SkillSource }[] = [];
  if (options.bundledDir) roots.push({ path: path.resolve(options.bundledDir), source: 'bundled' });
  for (const dir of ['.claude/skills', '.agents/skills'])
    roots.push({ path: path.resolve(options.userHome, dir), source: 'user' });
  roots.push({ path: path.resolve(options.home, 'skills'), source: 'managed' });
  for (const dir of ['skills', '.claude/skills', '.agents/skills']) {
    roots.push({ path: path.resolve(options.workspace, dir), source: 'workspace' });
  }
  return [...roots, ...extra];
}

export interface FoundSkill extends SkillLocation {
  /** The folder's real path (symlinks resolved), to find the same skill reached twice. */
  realDir: string;
}

export interface RootScan {
  skills: FoundSkill[];
  truncated: boolean;
  problems: Problem[];
}

/** Folders never searched: VCS, dependencies, caches. Dot-folders are skipped too, except these. */
const SKIP = new Set(['node_modules', '__pycache__']);
const DOT_ALLOWED = new Set(['.claude', '.agents']);

/**
 * Walks one root depth-first in sorted name order (so "first found" is deterministic), at
 * most `maxDepth` levels below the root and `maxDirs` folders. A folder holding SKILL.md
 * (any case; exact `SKILL.md` preferred) is a skill, and the walk goes on inside it: a
 * skill nested in a skill is its own skill. Symlinked folders are followed, cycles are not.
 */
export function scanRootSync(
  root: string,
  realRoot: string,
  source: SkillSource,
  limits = SCAN_LIMITS,
): RootScan {
  const skills: FoundSkill[] = [];
  const problems: Problem[] = [];
  let dirs = 0;
  let truncated = false;
  const ancestors = new Set<string>();

  const walk = (dir: string, realDir: string, depth: number): void => {
    if (dirs >= limits.maxDirs) {
      truncated = true;
      return;
    }
    dirs++;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      if (depth === 0)
        problems.push(
          warning(
            'folder-unreadable',
            `This folder could not be read (${errorCode(e)}); check its permissions.`,
          ),
        );
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const files = new Set<string>();
    const subdirs: { name: string; link: boolean }[] = [];
    for (const entry of entries) {
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      const link = entry.isSymbolicLink();
      if (link) {
        try {
          const st = fs.statSync(path.join(dir, entry.name));
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch {
          continue; // a dangling link
        }
      }
      if (isFile) files.add(entry.name);
      else if (isDir) subdirs.push({ name: entry.name, link });
    }
    const skillFile = files.has('SKILL.md')
      ? 'SKILL.md'
      : [...files].find((f) => f.toLowerCase() === 'skill.md');
    if (skillFile) {
      const names = new Set(subdirs.map((d) => d.name));
      skills.push({
        dir,
        realDir,
        fileName: skillFile,
        root,
        source,
        skillYaml: files.has('skill.yaml') ? 'skill.yaml' : files.has('skill.yml') ? 'skill.yml' : undefined,
        hasAgentsDir: names.has('agents'),
        hasScriptsDir: names.has('scripts'),
      });
    }
    if (depth >= limits.maxDepth) return;
    ancestors.add(realDir);
    for (const sub of subdirs) {
      if (SKIP.has(sub.name) || (sub.name.startsWith('.') && !DOT_ALLOWED.has(sub.name))) continue;
      const subPath = path.join(dir, sub.name);
      let subReal = path.join(realDir, sub.name);
      if (sub.link) {
        try {
          subReal = fs.realpathSync(subPath);
        } catch {
          continue;
        }
        if (ancestors.has(subReal)) continue; // a link back up the tree
      }
      walk(subPath, subReal, depth + 1);
    }
    ancestors.delete(realDir);
  };

  walk(root, realRoot, 0);
  if (truncated) {
    problems.push(
      warning(
        'scan-limit',
        `The scan stopped after ${limits.maxDirs} folders; skills deeper in this folder may be missing. Point SkillDeck at a narrower folder.`,
      ),
    );
  }
  return { skills, truncated, problems };
}

/** The root's real path, or why it cannot be searched. */
export function resolveRoot(root: string): { real?: string; exists: boolean; problem?: Problem } {
  try {
    const real = fs.realpathSync(root);
    if (!fs.statSync(real).isDirectory()) {
      return {
        exists: true,
        problem: warning(
          'folder-unreadable',
          'This is a file, not a folder; skills are folders holding SKILL.md.',
        ),
      };
    }
    return { real, exists: true };
  } catch (e) {
    const code = errorCode(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { exists: false };
    return {
      exists: true,
      problem: warning(
        'folder-unreadable',
        `This folder could not be read (${code}); check its permissions.`,
      ),
    };
  }
}

function errorCode(e: unknown): string {
  return e && typeof e === 'object' && 'code' in e ? String((e as { code: unknown }).code) : String(e);
}
