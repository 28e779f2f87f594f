import type { Eligibility, RunResult } from '../../../shared/contract';
import type { FileChange } from './diffs';
import type { Evidence } from './evidence';
import { fixMissingArgument } from './fixArgument';
import { fixPrerequisite } from './fixPrerequisite';
import { fixReferencePath } from './fixReference';
import type { SkillSnapshot } from './snapshot';

/** What a replay must show for a proposal to have done its job. */
export type Expectation =
  | { kind: 'pass' }
  /** The executor now refuses up front, naming these missing prerequisites (DESIGN §3 `unavailable`). */
  | { kind: 'unavailable'; names: string[] };

/** A proposal before guards and replay: whole-file changes plus the structured record. */
export interface DraftProposal {
  source: 'fixer' | 'model' | 'user';
  /** The deterministic fixer that made it. */
  fixer?: string;
  error_signature: string;
  root_cause: string;
  expected_effect: string;
  changes: FileChange[];
  expect: Expectation;
}

/** Everything a fixer may look at. */
export interface FixContext {
  run: RunResult;
  skill: SkillSnapshot;
  evidence: Evidence;
  eligibility: Eligibility;
  /** The run's `INPUT_JSON` object (task and fields), when known. */
  input: Record<string, unknown>;
}

/**
 * Deterministic proposals where the cause is plain (DESIGN §5): a referenced file that does
 * not exist and has a close match, an argument the script's usage text names, a prerequisite
 * the error names. Empty when none applies: the model is asked then.
 */
export function proposeFixes(ctx: FixContext): DraftProposal[] {
  const out: DraftProposal[] = [];
  const push = (d: DraftProposal | null) => {
    if (d && d.changes.length > 0) out.push(d);
  };
  switch (ctx.eligibility.category) {
    case 'reference_path':
      push(fixReferencePath(ctx));
      break;
    case 'missing_argument':
      push(fixMissingArgument(ctx));
      break;
    case 'undeclared_prerequisite':
      push(fixPrerequisite(ctx));
      break;
    default:
      break;
  }
  return out;
}

/** Line ending of a text (`\r\n` when any line has one), so edits keep the file's style. */
export const eolOf = (text: string) => (text.includes('\r\n') ? '\r\n' : '\n');
