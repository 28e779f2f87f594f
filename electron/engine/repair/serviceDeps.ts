import type { RunRecord, RunResult } from '../../../shared/contract';
import type { EngineEvents } from '../events';
import type { SkillCatalog } from '../skills';
import type { Complete } from './prompt';

/**
 * The result a repair works on: when a fallback (another skill, or plain chat) answered, the
 * failure of the skill that was asked for; otherwise the run's own result.
 */
export function failedAttemptOf(result: RunResult): RunResult {
  const failed = result.primary_failure;
  if (!failed) return result;
  const { primary_failure: _answered, ...rest } = result;
  return { ...rest, ...failed, files: [], fallback_used: false };
}

/** The executor's side of a repair (issue 7): find a finished run, and re-run it against another folder. */
export interface RunSource {
  get(runId: string): RunRecord | undefined | Promise<RunRecord | undefined>;
  /** The same task, input, entrypoint and sandbox as `record`, with `SKILL_PATH` = `skillDir`. */
  replay(record: RunRecord, skillDir: string): Promise<RunResult>;
}

export interface RepairServiceDeps {
  home: string;
  catalog?: SkillCatalog;
  events?: EngineEvents;
  /** Re-scan the skills after an apply or undo (the facade's `reloadSkills`). */
  reload?: () => Promise<unknown>;
  /** The executor; without it `start` and `revise` answer `unavailable`. */
  runs?: RunSource;
  /** The model (issue 8); without it only the deterministic fixers propose. */
  complete?: Complete;
  now?: () => Date;
  scratchRoot?: string;
}
