import type { FileEntry, SkillDetail, SkillSummary } from '../../../shared/contract';
import { isInstructionFile, isScriptFile, scanSkillInstructions } from '../install/instructions';
import { readFileTree } from './files';
import type { InterpretedSkill } from './loadSkill';
import { validateSkillDir } from './validator';

/**
 * The instruction files of a listed skill folder to scan. `skillFile` is undefined when the skill
 * file could not be read (a pipe, a link out of the folder): the loader reported it already. A
 * reference is scanned only when it has bytes: the file tree lists a link with size 0, and a link
 * under references/ may point anywhere on the machine (readSkillFile refuses to follow it too).
 */
export function instructionFilesOf(files: readonly FileEntry[], skillFile: string | undefined): string[] {
  return files.flatMap((f) =>
    f.kind === 'file' && (f.path === skillFile || (f.size > 0 && isInstructionFile(f.path, skillFile ?? '')))
      ? [f.path]
      : [],
  );
}

/** The scripts of a listed skill folder to scan, as code; a link (size 0 in the tree) is not followed. */
export function scriptFilesOf(files: readonly FileEntry[]): string[] {
  return files.flatMap((f) => (f.kind === 'file' && f.size > 0 && isScriptFile(f) ? [f.path] : []));
}

/**
 * The rest of a skill's detail, read from its folder: files and hash, the strict validator's
 * report, and what its instructions ask the agent to do. Skills SkillDeck never installed (shared
 * folders, older installs) never passed the install preview, so the scan runs here, when one
 * skill is opened, and never while the catalog loads.
 */
export async function completeDetail(
  summary: SkillSummary,
  skill: InterpretedSkill,
  skillFile: string | undefined,
): Promise<SkillDetail> {
  const [tree, validation] = await Promise.all([readFileTree(summary.path), validateSkillDir(summary.path)]);
  return {
    ...summary,
    metadata: skill.metadata,
    rawFrontmatter: skill.rawFrontmatter,
    body: skill.body,
    sidecars: skill.sidecars,
    files: tree.files,
    filesTruncated: tree.truncated,
    contentHash: tree.contentHash,
    validation,
    instructions: scanSkillInstructions(
      summary.path,
      instructionFilesOf(tree.files, skillFile),
      scriptFilesOf(tree.files),
    ),
  };
}
