import type { RepairOutcome, RepairProposal, RepairRevision, RunResult } from '../../../shared/contract';

/** The `skilldeck repair --json` shape (DESIGN §7). */
export type RepairReport =
  | {
      eligible: true;
      reason: string;
      proposals: {
        error_signature: string;
        root_cause: string;
        patched_files: string[];
        expected_effect: string;
        diff: string;
        /**
         * The replay on a patched copy. `verdict` is how it was judged (`passes` is what
         * `--apply` takes); a run that ended `success` can still fail it (an instruction
         * skill's model that answered around a file the skill lacks).
         */
        replay: {
          status: RunResult['status'];
          output: string;
          error: string | null;
          verdict: RepairProposal['replay']['verdict'];
          summary: string;
        };
      }[];
      /** The revision written by `--apply`, or null (without `--apply` nothing in the skill changes). */
      applied: RepairRevision | null;
    }
  | {
      eligible: false;
      reason: string;
      run: Pick<RunResult, 'status' | 'output' | 'error' | 'sandbox' | 'duration_ms'>;
    };

/** Turns a repair outcome into the DESIGN §7 `repair --json` output (for the CLI command). */
export function repairReport(
  outcome: RepairOutcome,
  run: RunResult,
  applied: RepairRevision | null,
): RepairReport {
  if (!outcome.eligibility.eligible) {
    const { status, output, error, sandbox, duration_ms } = run;
    return {
      eligible: false,
      reason: outcome.eligibility.reason,
      run: { status, output, error, sandbox, duration_ms },
    };
  }
  return {
    eligible: true,
    reason:
      outcome.final_state === 'success'
        ? outcome.eligibility.reason
        : // Two sentences: the loop's reason starts in lower case, as the timeline shows it.
          `${outcome.eligibility.reason} ${outcome.reason.charAt(0).toUpperCase()}${outcome.reason.slice(1)}`,
    proposals: outcome.proposals.map((p) => ({
      error_signature: p.error_signature,
      root_cause: p.root_cause,
      patched_files: p.patched_files,
      expected_effect: p.expected_effect,
      diff: p.diff,
      replay: {
        status: p.replay.status,
        output: p.replay.output,
        error: p.replay.error,
        verdict: p.replay.verdict,
        summary: p.replay.summary,
      },
    })),
    applied,
  };
}
