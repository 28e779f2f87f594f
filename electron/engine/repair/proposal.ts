import { randomBytes } from 'node:crypto';
import type { Eligibility, RepairProposal, ReplayResult } from '../../../shared/contract';
import { numberHunks, renderDiff, type FileChange } from './diffs';
import type { DraftProposal } from './fixers';
import { budgetOf } from './guards';
import type { RepairRequest } from './loop';
import type { SkillSnapshot } from './snapshot';

/**
 * The reviewable record of a replayed draft (DESIGN §5): the cumulative change against the
 * skill as it is, its hunks numbered for per-hunk review, and the hash it is bound to.
 */
export function toProposal(
  req: RepairRequest,
  repairId: string,
  original: SkillSnapshot,
  eligibility: Eligibility,
  draft: DraftProposal,
  changes: FileChange[],
  causes: string[],
  attempt: number,
  replay: ReplayResult,
  at: Date,
): RepairProposal {
  const proposal: RepairProposal = {
    id: `prop-${randomBytes(6).toString('hex')}`,
    repair_id: repairId,
    run_id: req.run.run_id,
    skill: original.metadata.name,
    skill_id: original.dir,
    source: draft.source,
    attempt,
    error_signature: eligibility.error_signature,
    root_cause: causes.length > 1 ? causes.map((c, i) => `${i + 1}) ${c}`).join(' ') : draft.root_cause,
    patched_files: changes.map((c) => c.path),
    expected_effect: draft.expected_effect,
    diff: renderDiff(changes),
    files: changes.map((c) => ({ path: c.path, before: c.before, after: c.after })),
    hunks: numberHunks(changes),
    budget: budgetOf(original, changes),
    replay,
    content_hash: original.contentHash,
    bundled: req.bundled ?? false,
    created_at: at.toISOString(),
    status: 'pending',
    stale: false,
  };
  if (draft.fixer) proposal.fixer = draft.fixer;
  return proposal;
}
