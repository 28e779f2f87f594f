import fs from 'node:fs';
import path from 'node:path';
import type { InstallCandidate, InstallFile, Problem, SkillMetadata } from '../../../shared/contract';
import { InstallName } from '../../../shared/contract';
import { problem } from '../skills/problems';
import { scanRootSync } from '../skills/discovery';
import { readFileTree } from '../skills/files';
import {
  interpretSkill,
  readSkillTextsSync,
  skillWithFileProblem,
  unreadableSkill,
} from '../skills/loadSkill';
import { describeUnmet, unmetRequirements } from '../skills/readiness';
import { capabilitySummary } from './capabilities';
import { isInstructionFile, isScriptFile, scanSkillInstructions } from './instructions';
import { detectSandboxTier } from './sandboxTier';

export interface StagedCandidate extends InstallCandidate {
  /** Absolute path of the candidate's folder inside the staging dir. */
  stagedDir: string;
  metadata: SkillMetadata;
}

/** What the preview needs to know about the managed folder (conflicts). */
export interface ManagedLookup {
  skillsRoot: string;
  versionOf(dir: string): string | undefined;
  /** A listed skill of this name outside the managed folder, which the install would take over. */
  listedElsewhere?(name: string): { path: string; source: string } | undefined;
}

/**
 * Every skill in a staged tree, described for the preview: files with sizes and script
 * languages, the capability summary, problems, unmet requirements and conflicts with
 * managed skills. The installed folder name is the skill's name, so a name/folder
 * mismatch inside the source is not reported.
 */
export async function describeStaged(
  tree: string,
  managed: ManagedLookup,
  /** Name for a skill at the tree's root that names none (the source folder or archive name). */
  rootName = 'skill',
): Promise<StagedCandidate[]> {
  const real = fs.realpathSync(tree);
  const scan = scanRootSync(tree, real, 'managed');
  const tier = detectSandboxTier();
  const out: StagedCandidate[] = [];
  for (const skill of scan.skills) {
    let interpreted;
    try {
      interpreted = skill.fileProblem
        ? skillWithFileProblem(skill, skill.fileProblem)
        : interpretSkill(skill, readSkillTextsSync(skill), process.platform);
    } catch (e) {
      interpreted = unreadableSkill(skill, e instanceof Error ? e.message : String(e));
    }
    const m = interpreted.metadata;
    const fileTree = await readFileTree(skill.dir);
    const files: InstallFile[] = fileTree.files
      .filter((f) => f.kind === 'file')
      .map(({ path: p, size, executable, scriptLanguage }) =>
        scriptLanguage ? { path: p, size, executable, scriptLanguage } : { path: p, size, executable },
      );
    // The loader falls back to the folder name, which for the tree's root is our staging name.
    // No frontmatter to take a name from counts as no name too (it was installed as "tree"),
    // and so does a SKILL.md that could not be read at all.
    const NAMELESS = [
      'name-missing',
      'no-frontmatter',
      'frontmatter-unclosed',
      'frontmatter-not-mapping',
      'file-unreadable',
    ];
    const nameless = !m.name || interpreted.problems.some((p) => NAMELESS.includes(p.code));
    // A nested one is named after its folder as a skill name, as the root is after its source:
    // nobody wrote "openclaw___agent-news" as a name, so it is no name to refuse.
    const name = nameless
      ? skill.dir === tree
        ? rootName
        : installFolderName(path.basename(skill.dir))
      : m.name;
    // A name that is no folder name ("Ahrefs Automation", "../../etc") installs nowhere until the
    // user picks one: the target and the conflict are those of the name we suggest.
    const targetPath = path.join(managed.skillsRoot, installFolderName(name));
    const existing = fs.existsSync(targetPath);
    const version = existing ? managed.versionOf(targetPath) : undefined;
    const candidate: StagedCandidate = {
      name,
      description: m.description,
      sourcePath: path.relative(tree, skill.dir).split(path.sep).join('/'),
      targetPath,
      files,
      totalBytes: files.reduce((sum, f) => sum + f.size, 0),
      scripts: files.flatMap((f) => (f.scriptLanguage ? [{ path: f.path, language: f.scriptLanguage }] : [])),
      capabilities: capabilitySummary(m, files),
      instructions: scanSkillInstructions(
        skill.dir,
        files.flatMap((f) => (isInstructionFile(f.path, skill.fileName) ? [f.path] : [])),
        files.flatMap((f) => (isScriptFile(f) ? [f.path] : [])),
      ),
      sandboxTier: tier,
      problems: [
        ...interpreted.problems.filter((p) => p.code !== 'name-dir-mismatch'),
        ...takesOver(name, managed),
      ],
      unmet: describeUnmet(unmetRequirements(m)),
      conflict: existing
        ? version !== undefined
          ? { existingId: targetPath, existingVersion: version }
          : { existingId: targetPath }
        : null,
      stagedDir: skill.dir,
      metadata: m,
    };
    if (m.version !== undefined) candidate.version = m.version;
    out.push(candidate);
  }
  for (const c of out) c.problems.push(...sameName(c, out));
  return out;
}

/** A warning on each of several skills of one name in a source: one folder, so one is installed. */
function sameName(c: StagedCandidate, all: readonly StagedCandidate[]): Problem[] {
  const first = all.find((o) => o.name === c.name)!;
  const others = all.filter((o) => o !== c && o.name === c.name);
  if (others.length === 0) return [];
  const at = (o: StagedCandidate) => `${o.sourcePath || '.'}/`;
  return [
    problem(
      'warning',
      'duplicate-name',
      first === c
        ? `Other skills in this source are also named ${c.name} (${others.map(at).join(', ')}); this one is installed under that name, they are not.`
        : `The skill at ${at(first)} in this source is also named ${c.name} and is installed under that name; this one is not. Install its folder on its own with --name.`,
    ),
  ];
}

/** The candidate as the contract shows it (no staging internals). */
export function publicCandidate(c: StagedCandidate): InstallCandidate {
  const { stagedDir: _dir, metadata: _m, ...rest } = c;
  return rest;
}

/** A warning when a skill of this name is already listed from elsewhere: the install takes its place. */
function takesOver(name: string, managed: ManagedLookup): Problem[] {
  const other = managed.listedElsewhere?.(name);
  if (!other) return [];
  return [
    problem(
      'warning',
      'shadowed',
      `A ${other.source} skill named ${name} is already listed (${other.path}); installed, this one takes its place, and that one is shadowed until this is removed or renamed.`,
    ),
  ];
}

/**
 * The folder a skill of this name installs under: the name itself when it is a valid install name,
 * else a suggestion made from it (lowercase ASCII words joined by hyphens), never a path.
 */
export function installFolderName(name: string): string {
  if (InstallName.safeParse(name).success) return name;
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 64)
    .replace(/^-+|-+$/g, '');
  return slug || 'skill';
}
