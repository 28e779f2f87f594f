import { randomBytes } from 'node:crypto';
import type {
  RepairOutcome,
  RepairProposal,
  RepairState,
  RepairTransition,
  RunResult,
} from '../../../shared/contract';
import type { FileChange } from './diffs';
import { assessEligibility } from './eligibility';
import { gatherEvidence } from './evidence';
import {
  budgetOf,
  checkBudget,
  checkContent,
  checkValidator,
  REPAIR_BUDGET,
  type RefusalCode,
} from './guards';
import { plan, STOPPED, type Base } from './plan';
import { toProposal } from './proposal';
import type { Complete, PriorAttempt } from './prompt';
import { replayChanges, type Replay } from './replay';
import { readSnapshot, type SkillSnapshot } from './snapshot';

export interface RepairLoopDeps {
  /** Re-runs the failing case against a patched scratch copy (the executor). */
  replay: Replay;
  /** The model (issue 8); without it only the deterministic fixers propose. */
  complete?: Complete;
  /** Every state-machine transition (routing spec §12), for events and the run timeline. */
  onTransition?: (t: RepairTransition) => void;
  now?: () => Date;
  /** Where scratch copies go (default: the OS temp dir). */
  scratchRoot?: string;
}

export interface RepairRequest {
  /** The failed run. */
  run: RunResult;
  /** The skill folder that ran. */
  skillDir: string;
  task?: string;
  /** The run's `INPUT_JSON` object. */
  input?: Record<string, unknown>;
  /** Rejected or refused earlier proposals for this failure (their reason goes into the prompt). */
  prior?: PriorAttempt[];
  priorFailures?: number;
  /** Fixers whose earlier proposal for this failure the user rejected: not proposed again. */
  skipFixers?: string[];
  /** The skill is bundled (read-only): applying will make a managed copy. */
  bundled?: boolean;
  repairId?: string;
  /** Stops the repair between steps, and the model call or replay under way (the CLI's Ctrl-C). */
  signal?: AbortSignal;
}

/**
 * Routing spec §13 early stop: a patch that breaks a safety rule (leaves the skill's files,
 * renames it, touches permissions or execution policy, adds an executable) ends the repair.
 * A patch that merely does not apply, is too big or fails the validator lets the model try
 * once more, told why.
 */
const SAFETY: ReadonlySet<RefusalCode> = new Set<RefusalCode>([
  'path',
  'outside',
  'link',
  'delete',
  'rename',
  'executable',
  'name',
  'policy',
]);
const safetyStop = (reason: string) => `stopped: ${reason} (a safety rule ends the repair)`;

/** Folds one attempt's changes (against the patched state) into changes against the original. */
function compose(original: SkillSnapshot, cumulative: FileChange[], attempt: FileChange[]): FileChange[] {
  const byPath = new Map(cumulative.map((c) => [c.path, c]));
  for (const c of attempt) {
    const before = byPath.get(c.path)?.before ?? original.texts.get(c.path) ?? null;
    byPath.set(c.path, { path: c.path, before, after: c.after });
  }
  return [...byPath.values()].filter((c) => c.before !== c.after);
}

/** The texts of the skill with changes applied (planning works on the patched state). */
function patchedSnapshot(skill: SkillSnapshot, changes: FileChange[]): SkillSnapshot {
  const texts = new Map(skill.texts);
  const listing = new Set(skill.listing);
  for (const c of changes) {
    texts.set(c.path, c.after);
    listing.add(c.path);
  }
  return { ...skill, texts, listing: [...listing].sort() };
}

/**
 * The repair loop (routing spec §12): failure_detected → eligibility → planning → patching →
 * retry → evaluation → planning | success | fallback, at most `REPAIR_BUDGET.attempts`
 * attempts. Nothing in the skill folder is written: patches live in scratch copies, and
 * only replayed proposals come back.
 */
export async function runRepairLoop(req: RepairRequest, deps: RepairLoopDeps): Promise<RepairOutcome> {
  const now = deps.now ?? (() => new Date());
  const repairId = req.repairId ?? `rep-${randomBytes(6).toString('hex')}`;
  const original = await readSnapshot(req.skillDir);
  const name = original.metadata.name;
  let seq = 0;
  let last = now().getTime();
  let attempt: number | null = null;
  const emit = (state: RepairState, detail: string) => {
    const at = now();
    deps.onTransition?.({
      repair_id: repairId,
      run_id: req.run.run_id,
      seq: seq++,
      state,
      skill: name,
      at: at.toISOString(),
      detail,
      attempt,
      ...(seq > 1 ? { duration_ms: at.getTime() - last } : {}),
    });
    last = at.getTime();
  };
  const finish = (
    state: 'success' | 'fallback',
    reason: string,
    proposals: RepairProposal[],
  ): RepairOutcome => {
    emit(state, reason);
    return {
      repair_id: repairId,
      run_id: req.run.run_id,
      skill: name,
      eligibility,
      proposals,
      final_state: state,
      reason,
      attempts: attempt ?? 0,
    };
  };

  emit(
    'failure_detected',
    `${req.run.status}${req.run.exit_code !== null ? ` (exit ${req.run.exit_code})` : ''}: ${req.run.error ?? 'failed'}`,
  );
  const evidence = gatherEvidence(req.run, original);
  const eligibility = assessEligibility(req.run, original, evidence, {
    priorFailures: req.priorFailures,
    task: req.task,
    input: req.input,
  });
  emit(
    'eligibility',
    `${eligibility.eligible ? 'repairable' : 'not repairable'} (${eligibility.category}, progress ${eligibility.progress.toFixed(2)}): ${eligibility.reason}`,
  );
  if (!eligibility.eligible) return finish('fallback', eligibility.reason, []);

  const first: Base = {
    run: req.run,
    eligibility,
    evidence,
    skill: original,
    changes: [],
    original,
    originalEligibility: eligibility,
  };
  let base = first;
  const prior: PriorAttempt[] = [...(req.prior ?? [])];
  const tried = new Set<string>((req.skipFixers ?? []).map((f) => `${f}:${eligibility.error_signature}`));
  const causes: string[] = [];
  // The last replayed proposal that got further than the original failure: shown even when a later attempt fails.
  let best: RepairProposal | undefined;
  // Why each attempt gave nothing to show (a model error, no diff, a refused diff), for the final reason.
  const fruitless: string[] = [];
  // An attempt that only repeated a replayed diff, for the final reason.
  let repeated: string | undefined;
  const shown = () => (best ? [best] : []);
  for (attempt = 1; attempt <= REPAIR_BUDGET.attempts; attempt++) {
    if (req.signal?.aborted) return finish('fallback', STOPPED, shown());
    emit(
      'planning',
      attempt === 1 ? 'looking for the smallest fix' : `planning again from: ${base.eligibility.reason}`,
    );
    const planned = await plan(base, req, deps, prior, tried);
    if ('unusable' in planned) {
      fruitless.push(planned.unusable);
      emit('evaluation', planned.unusable);
      if (planned.final) return finish('fallback', planned.unusable, shown());
      prior.push({ diff: '(no usable diff)', refusal: planned.unusable });
      continue;
    }
    if ('refused' in planned) {
      emit('patching', `model: ${planned.paths.join(', ')}`);
      emit('evaluation', planned.refused.reason);
      if (SAFETY.has(planned.refused.code))
        return finish('fallback', safetyStop(planned.refused.reason), shown());
      fruitless.push(planned.refused.reason);
      prior.push({ diff: planned.diffText, refusal: planned.refused.reason });
      continue;
    }
    const { draft, diffText } = planned;
    // The same diff again (a model that starts over, or ignores "do not repeat it") would replay
    // to the same end: said as such, and the earlier replay stands.
    const again = prior.findIndex((p) => p.replay !== undefined && p.diff.trim() === diffText.trim());
    if (again >= 0) {
      repeated = `attempt ${attempt}: the same diff as attempt ${again - (req.prior?.length ?? 0) + 1}, which was replayed already`;
      emit('evaluation', repeated);
      prior.push({ diff: diffText, refusal: 'It is the same diff as before; its replay is above.' });
      continue;
    }
    // A diff against the skill as it was starts over from the original failure.
    if (planned.fresh) {
      base = first;
      causes.length = 0;
    }
    emit(
      'patching',
      `${draft.fixer ? `fixer ${draft.fixer}` : draft.source}: ${draft.changes.map((c) => c.path).join(', ')}`,
    );
    const refusal =
      checkContent(base.skill, draft.changes) ?? checkBudget(budgetOf(base.skill, draft.changes));
    if (refusal && SAFETY.has(refusal.code)) {
      emit('evaluation', refusal.reason);
      return finish('fallback', safetyStop(refusal.reason), shown());
    }
    const cumulative = compose(original, base.changes, draft.changes);
    const replayed = refusal
      ? { refused: refusal.reason }
      : await (async () => {
          emit('retry', 'replaying the failing run on a patched copy of the skill');
          return replayChanges({
            skill: original,
            changes: cumulative,
            before: base.eligibility,
            expect: draft.expect,
            replay: deps.replay,
            scratchRoot: deps.scratchRoot,
            precheck: async (dir) => (await checkValidator(original.dir, dir))?.reason ?? null,
          });
        })();
    // A replay the user stopped proves nothing either way.
    if (req.signal?.aborted) return finish('fallback', STOPPED, shown());
    if ('refused' in replayed) {
      emit('evaluation', replayed.refused);
      fruitless.push(replayed.refused);
      prior.push({ diff: diffText, refusal: replayed.refused });
      continue;
    }
    const { result } = replayed;
    emit('evaluation', result.summary);
    causes.push(draft.root_cause);
    const proposal = () =>
      toProposal(
        req,
        repairId,
        original,
        eligibility,
        draft,
        cumulative,
        causes,
        attempt ?? 1,
        result,
        now(),
      );
    if (result.verdict === 'passes' || result.met_expectation)
      return finish('success', `proposal ready for review: ${result.summary}`, [proposal()]);
    if (!result.improved)
      return finish('fallback', `no improvement, stopping early: ${result.summary}`, shown());
    best = proposal();
    if (attempt === REPAIR_BUDGET.attempts)
      return finish(
        'fallback',
        `repair budget spent (${REPAIR_BUDGET.attempts} attempts); the last proposal is shown: ${result.summary}`,
        shown(),
      );
    prior.push({ diff: diffText, replay: result.summary });
    base = {
      run: replayed.run,
      eligibility: replayed.eligibility ?? base.eligibility,
      evidence: gatherEvidence(replayed.run, replayed.patched),
      skill: patchedSnapshot(original, cumulative),
      changes: cumulative,
      original,
      originalEligibility: eligibility,
    };
  }
  attempt = REPAIR_BUDGET.attempts;
  return finish(
    'fallback',
    best
      ? `repair budget spent (${REPAIR_BUDGET.attempts} attempts); the best proposal so far is shown${repeated ? ` (${repeated})` : ''}`
      : `repair budget spent (${REPAIR_BUDGET.attempts} attempts) without a usable proposal${whyEach(fruitless)}`,
    shown(),
  );
}

/**
 * What each fruitless attempt ran into, for the final reason: "attempt 1: Refused: 4 files …;
 * attempt 2: no usable diff". Only the last one was said, so an over-budget patch the model was
 * then asked to shrink vanished behind the prose that followed it.
 */
function whyEach(reasons: readonly string[]): string {
  if (reasons.length === 0) return '';
  if (new Set(reasons).size === 1)
    return `; ${reasons.length === 1 ? 'the attempt' : 'each attempt'}: ${reasons[0]}`;
  return `: ${reasons.map((r, i) => `attempt ${i + 1}: ${r.replace(/\.$/, '')}`).join('; ')}.`;
}
