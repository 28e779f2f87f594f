/**
 * The repair loop (issue 9; DESIGN §5, §7 `repair --json`; routing spec §11–13): near-miss
 * failures become replay-verified patch proposals the user reviews hunk by hunk, applies as
 * revisions, and can undo byte for byte. JSON keys are snake_case: `skilldeck repair --json`
 * prints these shapes.
 *
 * Methods:
 * - `repair.assess`    { run_id } → the run's eligibility (nothing is planned or replayed) and the
 *   repair transitions this engine has seen for it, so a window can offer "Repair…" with its reason.
 * - `repair.start`     { run_id } → { repair_id }. Judges the failed run and, when it nearly
 *   succeeded, plans, patches and replays; `repair.transition` events follow, then one
 *   `repair.proposed` per replayed proposal. Needs the executor (to re-run the failing case).
 * - `repair.proposals` { repair_id? , skill? } → stored proposals, newest first, each with `stale`.
 * - `repair.revise`    { proposal_id, accepted_hunks?, edited? } → a new proposal from a subset of
 *   hunks and / or edited texts, re-validated and re-replayed. Needs the executor.
 * - `repair.apply`     { proposal_id, accepted_hunks?, edited? } → RepairRevision. Writes the accepted
 *   hunks (or the edited texts) atomically; refused when the skill changed since (stale).
 * - `repair.reject`    { proposal_id, reason?, rejected_hunks?, edited? } → the proposal, marked
 *   rejected; the reason, the hunks and the user's edits go into the next attempt's prompt.
 * - `repair.history`   { skill } → every revision of a skill (id or name), newest first.
 * - `repair.undo`      { revision } → the revision, undone: every file back byte for byte.
 */
import { z } from 'zod';
import { RunStatus } from './execution';

/** The self-repair state machine (routing spec §12; DESIGN §5 names). */
/** The load problems `repair.fixFrontmatter` fixes with a mechanical edit: the window offers Fix… for them. */
export const FRONTMATTER_FIX_CODES: readonly string[] = [
  'frontmatter-unclosed',
  'frontmatter-not-at-start',
  'no-frontmatter',
];

export const RepairState = z.enum([
  'failure_detected',
  'eligibility',
  'planning',
  'patching',
  'retry',
  'evaluation',
  /** A replayed proposal is ready for review (spec `retry_execution → success`). */
  'success',
  /** Not repairable, no fix found, no improvement, or the budget is spent: the normal fallback. */
  'fallback',
]);
export type RepairState = z.infer<typeof RepairState>;

/** One transition; shaped like `RunTransition` so the run timeline draws both. */
export const RepairTransition = z.object({
  repair_id: z.string(),
  /** The failed run being repaired. */
  run_id: z.string(),
  /** 0, 1, 2 … within the repair. */
  seq: z.number().int(),
  state: RepairState,
  skill: z.string(),
  /** ISO 8601. */
  at: z.string(),
  /** Plain words: "exit 1: KeyError 'amount' in scripts/sum.py line 9", "replay passes". */
  detail: z.string(),
  /** 1 or 2 once planning started (routing spec §13: at most 2 attempts per run). */
  attempt: z.number().int().nullable(),
  /** Time spent in the previous state, ms. */
  duration_ms: z.number().optional(),
});
export type RepairTransition = z.infer<typeof RepairTransition>;

/** What kind of failure it was (routing spec §11.1 repairable, §11.2 not). */
export const RepairCategory = z.enum([
  'parameter_mapping',
  'missing_argument',
  'reference_path',
  'incomplete_instructions',
  'script_bug',
  'undeclared_prerequisite',
  'sandbox_denial',
  'permission_denied',
  'timeout',
  'cancelled',
  'missing_dependency',
  'external_service',
  'capability_mismatch',
  /** The task or input names a file that does not exist: the user's path, not the skill. */
  'bad_input',
  'persistent_failure',
  'not_a_failure',
  'unknown',
]);
export type RepairCategory = z.infer<typeof RepairCategory>;

/** Routing spec §11.3: "nearly succeeded" when most of these hold. */
export const NearMissCriteria = z.object({
  /** `progress >= 0.70`. */
  progress: z.boolean(),
  /** At most 2 root causes. */
  root_causes: z.boolean(),
  /** The fix lies inside the skill's own files. */
  within_skill: z.boolean(),
  /** One fix attempt is expected to do it. */
  single_fix: z.boolean(),
  /** The run left useful partial output. */
  partial_output: z.boolean(),
});
export type NearMissCriteria = z.infer<typeof NearMissCriteria>;

/** The eligibility verdict on one failed run. */
export const Eligibility = z.object({
  eligible: z.boolean(),
  /** One or two sentences a user understands: what failed, and why it can or cannot be repaired. */
  reason: z.string(),
  category: RepairCategory,
  /** Stable across line shifts, used to tell "same failure" from "fails differently". */
  error_signature: z.string(),
  /** Estimated task progress in [0, 1] (routing spec §11.3), from the evidence. */
  progress: z.number().min(0).max(1),
  root_causes: z.number().int(),
  criteria: NearMissCriteria,
  /** The facts the verdict rests on ("traceback ends in scripts/sum.py line 9"). */
  evidence: z.array(z.string()),
});
export type Eligibility = z.infer<typeof Eligibility>;

/** Routing spec §13 budget: per run, and per attempt. */
export const REPAIR_BUDGET = {
  /** `max_repair_attempts_per_run`. */
  attempts: 2,
  /** `max_patched_files_per_attempt`. */
  files: 3,
  /** `max_patch_hunks_per_attempt`. */
  hunks: 8,
  /** `max_added_tokens_in_skill_doc`: words added to SKILL.md (the engine's `countAddedTokens`). */
  addedTokens: 300,
} as const;

/** What a proposal spends of the per-attempt budget (routing spec §13). */
export const RepairBudgetUsed = z.object({
  files: z.number().int(),
  hunks: z.number().int(),
  /** Words added to SKILL.md (whitespace-split, net of words the same hunks removed). */
  added_tokens: z.number().int(),
});
export type RepairBudgetUsed = z.infer<typeof RepairBudgetUsed>;

export const ReplayVerdict = z.enum(['passes', 'fails_differently', 'same_failure']);
export type ReplayVerdict = z.infer<typeof ReplayVerdict>;

/** The failing case re-run against a patched scratch copy of the skill. */
export const ReplayResult = z.object({
  status: RunStatus,
  output: z.string(),
  error: z.string().nullable(),
  exit_code: z.number().int().nullable(),
  duration_ms: z.number(),
  verdict: ReplayVerdict,
  /** Routing spec §13: fewer or as many errors, and further along than before. */
  improved: z.boolean(),
  /** The proposal did what its `expected_effect` says (passes, or now reports the missing prerequisite up front). */
  met_expectation: z.boolean(),
  /** One sentence for the UI: "now passes", "fails differently: …", "same failure: …". */
  summary: z.string(),
});
export type ReplayResult = z.infer<typeof ReplayResult>;

/** One hunk of a proposal; `index` is global across the proposal's files (accept / reject by it). */
export const ProposalHunk = z.object({
  index: z.number().int(),
  file: z.string(),
  old_start: z.number().int(),
  old_lines: z.number().int(),
  new_start: z.number().int(),
  new_lines: z.number().int(),
  /** Unified-diff lines with their ` `, `-`, `+` prefixes. */
  lines: z.array(z.string()),
});
export type ProposalHunk = z.infer<typeof ProposalHunk>;

/** One patched file with both sides, for the diff viewer. */
export const ProposalFile = z.object({
  /** Relative to the skill root, `/`-separated. */
  path: z.string(),
  /** The current text; null when the proposal creates the file. */
  before: z.string().nullable(),
  after: z.string(),
});
export type ProposalFile = z.infer<typeof ProposalFile>;

/** A replay-verified patch proposal (DESIGN §5 structured record, §7 `repair --json`). */
export const RepairProposal = z.object({
  id: z.string(),
  repair_id: z.string(),
  run_id: z.string(),
  skill: z.string(),
  /** The skill folder the proposal was made against. */
  skill_id: z.string(),
  source: z.enum(['fixer', 'model', 'user']),
  /** Which deterministic fixer made it (`reference-path`, `missing-argument`, `prerequisite`). */
  fixer: z.string().optional(),
  /** 1 or 2. */
  attempt: z.number().int(),
  error_signature: z.string(),
  root_cause: z.string(),
  patched_files: z.array(z.string()),
  expected_effect: z.string(),
  /** The whole change as one unified diff, `a/…` / `b/…` paths relative to the skill root. */
  diff: z.string(),
  files: z.array(ProposalFile),
  hunks: z.array(ProposalHunk),
  budget: RepairBudgetUsed,
  replay: ReplayResult,
  /** The skill's content hash when the proposal was made: applying needs the same one. */
  content_hash: z.string(),
  /** Set when the skill is bundled (read-only): applying makes a managed copy that shadows it. */
  bundled: z.boolean(),
  created_at: z.string(),
  status: z.enum(['pending', 'applied', 'rejected', 'superseded']),
  /** True when the skill changed since the proposal was made; it can no longer be applied. */
  stale: z.boolean(),
  reject_reason: z.string().optional(),
  rejected_hunks: z.array(z.number().int()).optional(),
  /** Rejected with the proposed side edited: each edited file as a diff from the original. */
  user_edits: z.array(z.object({ path: z.string(), diff: z.string() })).optional(),
});
export type RepairProposal = z.infer<typeof RepairProposal>;

/** One file a revision changed. Hashes are sha256 of the bytes; null: the file did not exist. */
export const RevisionFile = z.object({
  path: z.string(),
  hash_before: z.string().nullable(),
  hash_after: z.string(),
});
export type RevisionFile = z.infer<typeof RevisionFile>;

/** An applied repair: originals kept under `$SKILLDECK_HOME/repairs/<skill>/<revision>/`. */
export const RepairRevision = z.object({
  revision: z.string(),
  skill: z.string(),
  /** The folder that was patched (the managed copy when the skill was bundled). */
  skill_id: z.string(),
  /** The bundled folder this revision copied into a managed, shadowing skill; null otherwise. */
  copied_from: z.string().nullable(),
  proposal_id: z.string().nullable(),
  source: z.enum(['fixer', 'model', 'user']),
  error_signature: z.string(),
  root_cause: z.string(),
  expected_effect: z.string(),
  /** The diff as applied (accepted hunks and edits only). */
  diff: z.string(),
  files: z.array(RevisionFile),
  content_hash_before: z.string(),
  content_hash_after: z.string(),
  applied_at: z.string(),
  undone_at: z.string().nullable(),
});
export type RepairRevision = z.infer<typeof RepairRevision>;

/** The structured outcome of one repair run; the CLI prints its DESIGN §7 subset. */
export const RepairOutcome = z.object({
  repair_id: z.string(),
  run_id: z.string(),
  skill: z.string(),
  eligibility: Eligibility,
  /** Replayed proposals only, best first. */
  proposals: z.array(RepairProposal),
  final_state: z.enum(['success', 'fallback']),
  /** Why the loop ended where it did. */
  reason: z.string(),
  attempts: z.number().int(),
});
export type RepairOutcome = z.infer<typeof RepairOutcome>;

const Id = z.string().min(1).max(128);
const HunkIndexes = z.array(z.number().int().min(0).max(10_000)).max(10_000);
/** A full new text for one patched file (the user edited the proposed side). */
const EditedFile = z
  .object({ path: z.string().min(1).max(4096), content: z.string().max(2_000_000) })
  .strict();
const Selection = {
  proposal_id: Id,
  /** Hunk indexes to keep; all when omitted. */
  accepted_hunks: HunkIndexes.optional(),
  /** Files whose proposed side the user edited: this text replaces the hunks of that file. */
  edited: z.array(EditedFile).max(3).optional(),
};

/** `repair.assess`: whether a finished run can be repaired, and what repairs of it did so far. */
export const RepairAssessment = z.object({
  run_id: z.string(),
  eligibility: Eligibility,
  /** Transitions of every repair of this run since the engine started, in order (empty before a repair). */
  transitions: z.array(RepairTransition),
});
export type RepairAssessment = z.infer<typeof RepairAssessment>;

export const repairRequests = {
  /** Judge a finished run (routing spec §11) without repairing it: what "Repair…" offers, and why or why not. */
  'repair.assess': {
    input: z.object({ run_id: Id }).strict(),
    output: RepairAssessment,
  },
  /** Start repairing a failed run; transitions and proposals arrive as events. */
  'repair.start': {
    input: z.object({ run_id: Id }).strict(),
    output: z.object({ repair_id: z.string() }),
  },
  /** Stored proposals of one repair, or of one skill (id or name), newest first. */
  'repair.proposals': {
    input: z.object({ repair_id: Id.optional(), skill: z.string().min(1).max(4096).optional() }).strict(),
    output: z.object({ proposals: z.array(RepairProposal) }),
  },
  /** A new proposal from a subset of hunks and / or edited texts, re-validated and re-replayed. */
  'repair.revise': {
    input: z.object(Selection).strict(),
    output: RepairProposal,
  },
  /** Apply the accepted hunks (and edits) as a new revision, atomically. */
  'repair.apply': {
    input: z.object(Selection).strict(),
    output: RepairRevision,
  },
  /** Reject a proposal; the reason, rejected hunks and the user's edits go into the next attempt. */
  'repair.reject': {
    input: z
      .object({
        proposal_id: Id,
        reason: z.string().max(2000).optional(),
        rejected_hunks: HunkIndexes.optional(),
        /** The user's own text of files they edited before rejecting: the next attempt sees it. */
        edited: z.array(EditedFile).max(3).optional(),
      })
      .strict(),
    output: RepairProposal,
  },
  /**
   * A proposal that makes a skill's SKILL.md load (one of FRONTMATTER_FIX_CODES) (frontmatter never closed, below other content,
   * missing its opening `---`, or missing): reviewed and applied as any proposal; nothing runs.
   */
  'repair.fixFrontmatter': {
    input: z.object({ skill: z.string().min(1).max(4096) }).strict(),
    output: RepairProposal,
  },
  /** Every revision of a skill (id or name), newest first. */
  'repair.history': {
    input: z.object({ skill: z.string().min(1).max(4096) }).strict(),
    output: z.object({ revisions: z.array(RepairRevision) }),
  },
  /** Undo one revision: every file it changed goes back byte for byte. */
  'repair.undo': {
    input: z.object({ revision: Id }).strict(),
    output: RepairRevision,
  },
} as const;

export const repairEvents = {
  /** The repair state machine moved (routing spec §12). */
  'repair.transition': RepairTransition,
  /** A replayed proposal is ready for review. */
  'repair.proposed': RepairProposal,
  /** A proposal was applied as a new revision. */
  'repair.applied': RepairRevision,
  /** A revision was undone. */
  'repair.undone': RepairRevision,
} as const;
