import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Problem, RepairProposal, ReplayResult } from '../../../shared/contract';
import { forbidden } from '../errors';
import { fixFrontmatter } from '../skills/frontmatterFix';
import { numberHunks, renderDiff, type FileChange } from './diffs';
import { budgetOf, checkValidator } from './guards';
import { materialize, removeScratch } from './replay';
import { interpretDir, readSnapshot, type SkillSnapshot } from './snapshot';

/** The deterministic fixer's name on proposals and revisions. */
export const FRONTMATTER_FIXER = 'frontmatter';

const errorsOf = (problems: Problem[]) => problems.filter((p) => p.severity === 'error');

/** The errors left when the catalog's loader reads a SKILL.md text, as one refusal, or null. */
const refusalOf = (problems: Problem[]): string | null => {
  const left = errorsOf(problems);
  return left.length ? `SKILL.md would still not load: ${left.map((p) => p.message).join(' ')}` : null;
};

/**
 * Why a SKILL.md text would still not load, or null when the catalog's loader reads it without
 * an error. The strict validator is not asked: a block closed at last shows fields (homepage,
 * metadata) it already had, which the lenient loader accepts.
 */
export async function frontmatterCheck(dir: string, skillFile: string, text: string): Promise<string | null> {
  return refusalOf((await interpretDir(dir, skillFile, text)).problems);
}

/**
 * Why the accepted changes may not be applied, or null: a frontmatter fix is checked by loading
 * it, any other change by the validator on a scratch copy (no error it did not have before).
 */
export async function checkApplied(
  proposal: RepairProposal,
  skill: SkillSnapshot,
  changes: FileChange[],
  scratchRoot?: string,
): Promise<string | null> {
  if (proposal.fixer === FRONTMATTER_FIXER) {
    const doc = changes.find((c) => c.path === skill.skillFile);
    return doc ? frontmatterCheck(skill.dir, skill.skillFile, doc.after) : null;
  }
  const scratch = await materialize(skill, changes, scratchRoot);
  try {
    return (await checkValidator(skill.dir, scratch))?.reason ?? null;
  } finally {
    await removeScratch(scratch);
  }
}

/**
 * The "replay" of a frontmatter fix: the changed SKILL.md loaded by the catalog's loader (nothing
 * runs). Refused, with why, when it would still not load.
 */
export async function loadedReplay(skill: SkillSnapshot, changes: FileChange[]): Promise<ReplayResult> {
  return (await loadChanged(skill, changes)).replay;
}

/** The changed SKILL.md as the catalog's loader reads it, and that reading as a replay. */
async function loadChanged(skill: SkillSnapshot, changes: FileChange[]) {
  const doc = changes.find((c) => c.path === skill.skillFile);
  const text = doc?.after ?? skill.texts.get(skill.skillFile) ?? '';
  const loaded = await interpretDir(skill.dir, skill.skillFile, text);
  const refusal = refusalOf(loaded.problems);
  if (refusal) throw forbidden(refusal);
  const warnings = loaded.problems.length;
  const replay: ReplayResult = {
    status: 'success',
    output: '',
    error: null,
    exit_code: null,
    duration_ms: 0,
    verdict: 'passes',
    improved: true,
    met_expectation: true,
    summary: `Loaded with the change (nothing was run): no errors${warnings ? `, ${warnings} warning(s) left` : ''}.`,
  };
  return { loaded, replay };
}

/**
 * A reviewable proposal (the repair review's diff, per-hunk accept, apply as a revision with
 * undo) that makes a skill's frontmatter loadable. Nothing runs: it is checked by loading the
 * patched text with the catalog's loader. Refused, with why, when no mechanical edit helps.
 */
export async function proposeFrontmatterFix(
  dir: string,
  bundled: boolean,
  at: Date,
): Promise<RepairProposal> {
  const skill = await readSnapshot(dir);
  const before = skill.texts.get(skill.skillFile);
  if (before === undefined)
    throw forbidden(`${skill.skillFile} is not UTF-8 text SkillDeck can edit; save it as UTF-8 first.`);
  const fix = fixFrontmatter(before, path.basename(skill.dir));
  if ('reason' in fix) throw forbidden(fix.reason);
  const changes: FileChange[] = [{ path: skill.skillFile, before, after: fix.after }];
  const { loaded: fixed, replay } = await loadChanged(skill, changes);
  return {
    id: `prop-${randomBytes(6).toString('hex')}`,
    repair_id: `fm-${randomBytes(6).toString('hex')}`,
    run_id: '',
    skill: fixed.metadata.name,
    skill_id: skill.dir,
    source: 'fixer',
    fixer: FRONTMATTER_FIXER,
    attempt: 1,
    error_signature: fix.problem.code,
    root_cause: fix.problem.message,
    patched_files: [skill.skillFile],
    expected_effect: `${fix.did} The skill then loads and can be routed.`,
    diff: renderDiff(changes),
    files: [{ path: skill.skillFile, before, after: fix.after }],
    hunks: numberHunks(changes),
    budget: budgetOf(skill, changes),
    replay,
    content_hash: skill.contentHash,
    bundled,
    created_at: at.toISOString(),
    status: 'pending',
    stale: false,
  };
}
