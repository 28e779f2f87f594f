import type { Eligibility, RunResult } from '../../../shared/contract';
import { renderDiff, type FileChange } from './diffs';
import type { Evidence } from './evidence';
import { proposeFixes, type DraftProposal } from './fixers';
import { resolvePatch, type Refusal } from './guards';
import type { RepairLoopDeps, RepairRequest } from './loop';
import { buildRepairPrompt, parseModelAnswer, peekInputFiles, type PriorAttempt } from './prompt';
import type { SkillSnapshot } from './snapshot';

/** The state of the skill the next attempt plans against (original + accepted attempts so far). */
export interface Base {
  run: RunResult;
  eligibility: Eligibility;
  evidence: Evidence;
  skill: SkillSnapshot;
  /** Changes relative to the original skill. */
  changes: FileChange[];
  /** The skill as it was before any attempt (the same as `skill` on the first attempt). */
  original: SkillSnapshot;
  /** The failure the skill itself had (the same as `eligibility` on the first attempt). */
  originalEligibility: Eligibility;
}

/**
 * Model errors a second attempt would meet again: no connection, no such host or model, a refused
 * key, a rate limit or a server that asked to wait (the next attempt comes at once, and a 429
 * or a 503 with Retry-After asks to wait).
 */
const UNREACHABLE =
  /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ECONNRESET|Cannot connect|Could not reach|answer in time|nothing more in time|sent nothing|fetch failed|\b(?:401|403|404|429)\b|rate-limiting|asks to wait|is overloaded|unauthori[sz]ed|invalid api key|incorrect api key|model\b.*\b(?:not found|does not exist)/i;

/** Why a repair ended early when its signal fired (Ctrl-C, or a SIGTERM from `timeout`). */
export const STOPPED = 'stopped before the repair finished: the command was interrupted';

export type Planned =
  /** `fresh`: the draft's changes are against the original skill, not the last attempt's state. */
  | { draft: DraftProposal; diffText: string; fresh?: boolean }
  /** A model diff the guards refused before anything was written. */
  | { refused: Refusal; diffText: string; paths: string[] }
  | { unusable: string; final: boolean };

/** A deterministic fixer's proposal when one applies and was not tried yet, else the model's. */
export async function plan(
  base: Base,
  req: RepairRequest,
  deps: RepairLoopDeps,
  prior: PriorAttempt[],
  tried: Set<string>,
): Promise<Planned> {
  const ctx = {
    run: base.run,
    skill: base.skill,
    evidence: base.evidence,
    eligibility: base.eligibility,
    input: req.input ?? {},
  };
  for (const draft of proposeFixes(ctx)) {
    const key = `${draft.fixer}:${base.eligibility.error_signature}`;
    if (tried.has(key)) continue;
    tried.add(key);
    return { draft, diffText: renderDiff(draft.changes) };
  }
  if (!deps.complete)
    return {
      unusable: 'No deterministic fix applies and no model is configured to propose one.',
      final: true,
    };
  let answer: string;
  try {
    answer = await deps.complete(
      buildRepairPrompt({
        ...ctx,
        task: req.task,
        input: req.input,
        prior,
        inputPeeks: await peekInputFiles(base.run, req.input),
      }),
      req.signal,
    );
  } catch (e) {
    if (req.signal?.aborted) return { unusable: STOPPED, final: true };
    const message = e instanceof Error ? e.message : String(e);
    // A model that cannot be reached or refuses the key fails the next attempt the same way.
    return { unusable: `The model call failed: ${message}`, final: UNREACHABLE.test(message) };
  }
  // A whole-file answer is read against the files as they are now; bare hunks may be for either.
  const parsed = parseModelAnswer(answer, base.skill.texts, base.original.texts);
  if (!parsed.ok) return { unusable: parsed.reason, final: false };
  let resolved = resolvePatch(base.skill, parsed.files);
  let diffText = parsed.diff;
  // Fenced diffs that do not apply one after another are the same diff twice, or a revision
  // ("Actually, better: …"): the last one stands alone when it covers every file, so no file's
  // change is dropped unseen.
  const lastCovers = (last: { files: { path: string }[] }) =>
    parsed.files.every((f) => last.files.some((l) => l.path === f.path));
  if (!resolved.ok && resolved.code === 'apply' && parsed.lastBlock && lastCovers(parsed.lastBlock)) {
    const last = resolvePatch(base.skill, parsed.lastBlock.files);
    if (last.ok) [resolved, diffText] = [last, parsed.lastBlock.diff];
  }
  // A later attempt's diff written against the skill as it was, not as the last attempt left it
  // (the model started over, as a script of answers written against the skill's files does): an
  // alternative to the earlier attempts, replayed on its own rather than refused as not applying.
  let fresh = false;
  if (!resolved.ok && resolved.code === 'apply' && base.changes.length > 0) {
    const againstOriginal = resolvePatch(base.original, parsed.files);
    if (againstOriginal.ok) [resolved, fresh] = [againstOriginal, true];
  }
  if (!resolved.ok) return { refused: resolved, diffText, paths: parsed.files.map((f) => f.path) };
  // A diff against the skill as it was answers the skill's own failure, not the one an earlier
  // attempt's patch ended in (which the user never had).
  const answers = fresh ? base.originalEligibility : base.eligibility;
  return {
    ...(fresh ? { fresh } : {}),
    draft: {
      source: 'model',
      error_signature: answers.error_signature,
      // A bare diff still gets a record: the failure it answers, and what a fix must do.
      root_cause: parsed.root_cause ?? `${answers.reason} (the model did not state a cause)`,
      expected_effect:
        parsed.expected_effect ??
        `The failing request (${answers.error_signature}) runs to success after the patch.`,
      changes: resolved.changes,
      expect: { kind: 'pass' },
    },
    diffText,
  };
}
