import fs from 'node:fs';
import path from 'node:path';
import type { Problem, SkillSource } from '../../../shared/contract';
import type { SkillLocation } from './loadSkill';
import { error, warning } from './problems';

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
  /**
   * Set when the skill file is not a file that can be read (a dangling link, a folder, a
   * pipe): the skill is listed with this error, and the file is never opened.
   */
  fileProblem?: Problem;
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
 * A SKILL.md that is not a readable file (a dangling link, a folder) still makes the folder
 * a skill, listed with `fileProblem`, unless a readable skill file sits beside it.
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
    /** Entries named SKILL.md (any case) that are not files, in name order. */
    const notFiles: string[] = [];
    for (const entry of entries) {
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      const link = entry.isSymbolicLink();
      if (!isFile && entry.name.toLowerCase() === 'skill.md') notFiles.push(entry.name);
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
    // Without a readable skill file, a broken one is listed with what is wrong, so it can be fixed.
    const brokenFile = skillFile ? undefined : (notFiles.find((f) => f === 'SKILL.md') ?? notFiles[0]);
    const fileProblem = brokenFile ? skillFileProblem(path.join(dir, brokenFile)) : undefined;
    const fileName = skillFile ?? (fileProblem && brokenFile);
    if (fileName) {
      const names = new Set(subdirs.map((d) => d.name));
      const found: FoundSkill = {
        dir,
        realDir,
        fileName,
        root,
        source,
        skillYaml: files.has('skill.yaml') ? 'skill.yaml' : files.has('skill.yml') ? 'skill.yml' : undefined,
        hasAgentsDir: names.has('agents'),
        hasScriptsDir: names.has('scripts'),
      };
      if (fileProblem) found.fileProblem = fileProblem;
      skills.push(found);
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

/**
 * Why the skill file at `file` is not a file SkillDeck can read (a link to nothing, a link
 * loop, a folder, a pipe or device), as an error saying how to fix it; undefined when it
 * is a file, or gone. Links are not judged by where they point: a SKILL.md linked from
 * elsewhere loads as before.
 */
export function skillFileProblem(file: string): Problem | undefined {
  const name = path.basename(file);
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch {
    return undefined;
  }
  let link = '';
  if (st.isSymbolicLink()) {
    let target = '?';
    try {
      target = fs.readlinkSync(file);
    } catch {
      // Keep '?': the link vanished between the two calls.
    }
    link = `a link to ${target}, which is `;
    try {
      st = fs.statSync(file);
    } catch (e) {
      const code = errorCode(e);
      const message =
        code === 'ENOENT' || code === 'ENOTDIR'
          ? `${name} is a link to ${target}, which does not exist; point the link at the skill's file, or put the file itself here.`
          : code === 'ELOOP'
            ? `${name} is a link to ${target}, which leads round in a loop of links; put the file itself here.`
            : `${name} is a link to ${target}, which cannot be reached (${code}); check its permissions.`;
      return error('file-unreadable', message);
    }
  }
  if (st.isFile()) return undefined;
  const what = st.isDirectory() ? 'a folder' : 'a pipe, socket or device';
  return error(
    'file-unreadable',
    `${name} is ${link}${what}, not a file; the skill's frontmatter and instructions go in a file named SKILL.md.`,
  );
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
