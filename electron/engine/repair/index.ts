/**
 * The repair loop (issue 9; DESIGN §5; routing spec §11–13): eligibility, deterministic
 * fixers and model proposals, guards and budget, replay on a scratch copy, and revisions
 * with byte-for-byte undo. Plain Node; the executor (`Replay`) and the model (`Complete`)
 * are injected.
 */
export { assessEligibility, PROGRESS_THRESHOLD, REPAIRABLE } from './eligibility';
export { gatherEvidence, type Evidence } from './evidence';
export { extractDiff, parseUnifiedDiff, renderDiff, type FileChange } from './diffs';
export {
  REPAIR_BUDGET,
  countAddedTokens,
  resolvePatch,
  checkContent,
  checkBudget,
  checkValidator,
} from './guards';
export { proposeFixes, type DraftProposal } from './fixers';
export { buildRepairPrompt, parseModelAnswer, type Complete, type PriorAttempt } from './prompt';
export { judgeReplay, materialize, replayChanges, type Replay } from './replay';
export { runRepairLoop, type RepairLoopDeps, type RepairRequest } from './loop';
export { recoverRepairs } from './journal';
export { RevisionStore, type ApplyRequest } from './revisions';
export { RepairService, type RepairServiceDeps, type RunSource } from './service';
export { readSnapshot, type SkillSnapshot } from './snapshot';
export { repairReport, type RepairReport } from './report';
