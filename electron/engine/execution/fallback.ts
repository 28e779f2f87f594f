import type { FallbackStep, RunState, RunStatus } from '../../../shared/contract';
import type { AttemptResult } from './attempt';

export interface SkillStep {
  id: string;
  name: string;
}

/** What the machine drives: the attempts, the optional generic chat, and the timeline. */
export interface MachineIO {
  /** `status`: how a failed attempt ended, on failure states. */
  emit(state: RunState, skill: string | null, detail: string, status?: RunStatus): void;
  attempt(step: SkillStep): Promise<AttemptResult>;
  /**
   * Plain chat without a skill (the chat provides it; `skilldeck run` has none), told how the
   * last skill tried failed, so it does not answer as if that skill had done the job.
   */
  generic?: (failed?: FailedSkill) => Promise<AttemptResult>;
  cancelled(): boolean;
}

/** The skill the generic fallback answers after, and how it ended. */
export interface FailedSkill {
  skill: string;
  status: RunStatus;
  error: string | null;
}

export interface MachineResult {
  result: AttemptResult;
  /** The skill whose result this is (null: generic chat, or nothing ran). */
  skill: SkillStep | null;
  fallbackUsed: boolean;
  /** Every skill that succeeded, in plan order (a plan may select several). */
  successes: { skill: SkillStep; result: AttemptResult }[];
  /** When a fallback produced the result: the plan's first failure, which a repair works on. */
  primaryFailure?: { skill: SkillStep; result: AttemptResult };
  /** Every skill of the plan's groups that ran, in plan order, whatever its outcome. */
  ran: { skill: SkillStep; result: AttemptResult }[];
}

/** routing spec §10 / §18 `max_retry_per_path = 1`. */
const MAX_RETRIES = 1;
/** routing spec §10: two failures on one path ban it for the rest of the turn. */
const BAN_AFTER = 2;

/** Failures per skill id over one turn; shared by every plan the turn executes. */
export type TurnFailures = Map<string, number>;

async function runPath(step: SkillStep, io: MachineIO, failures: TurnFailures): Promise<AttemptResult> {
  io.emit('selected', step.name, `running ${step.name}`);
  for (let attempt = 0; ; attempt++) {
    const result = await io.attempt(step);
    if (result.outcome === 'success') {
      io.emit(
        'success',
        step.name,
        result.files.length
          ? `done; ${result.files.length} ${result.files.length === 1 ? 'file' : 'files'} in its output folder`
          : 'done',
      );
      return result;
    }
    const count = (failures.get(step.id) ?? 0) + 1;
    failures.set(step.id, count);
    const retry =
      result.outcome === 'retryable' && attempt < MAX_RETRIES && count < BAN_AFTER && !io.cancelled();
    if (retry) {
      io.emit('retryable_failure', step.name, `${result.error ?? 'failed'} — retrying once`, result.status);
      continue;
    }
    io.emit(
      result.outcome === 'retryable' ? 'retryable_failure' : 'fatal_failure',
      step.name,
      result.error ?? result.status,
      result.status,
    );
    return result;
  }
}

const banned = (step: SkillStep, failures: TurnFailures) => (failures.get(step.id) ?? 0) >= BAN_AFTER;

/**
 * The fallback state machine (routing spec §10): selected → running → success |
 * retryable_failure (one retry) | fatal_failure → fallback (next skill → generic chat →
 * ask the user) → success | exit. Groups run in order; the skills of one group run
 * together (the plan keeps them ≤ 2 and `parallel_safe`).
 */
export async function executePlan(
  groups: SkillStep[][],
  fallbackChain: FallbackStep[],
  io: MachineIO,
  failures: TurnFailures = new Map(),
): Promise<MachineResult> {
  const successes: MachineResult['successes'] = [];
  const ran: MachineResult['ran'] = [];
  let primaryFailure: { skill: SkillStep; result: AttemptResult } | undefined;
  for (const group of groups) {
    const runnable = group.filter((s) => !banned(s, failures));
    const results = await Promise.all(runnable.map((s) => runPath(s, io, failures)));
    results.forEach((result, i) => {
      ran.push({ skill: runnable[i], result });
      if (result.outcome === 'success') successes.push({ skill: runnable[i], result });
      else primaryFailure ??= { skill: runnable[i], result };
    });
    if (io.cancelled()) break;
  }
  const first = groups[0]?.[0];
  const primaryOk = first !== undefined && successes.some((s) => s.skill.id === first.id);
  if (primaryOk) {
    const main = successes.find((s) => s.skill.id === first.id)!;
    return { result: main.result, skill: main.skill, fallbackUsed: false, successes, ran };
  }
  let last = primaryFailure;
  let askUser = false;
  if (!io.cancelled() && last?.result.status !== 'cancelled') {
    const tried = new Set(groups.flat().map((s) => s.id));
    for (const step of fallbackChain) {
      if (io.cancelled()) break;
      if (step.type === 'skill') {
        if (tried.has(step.id) || banned(step, failures)) continue;
        tried.add(step.id);
        io.emit('fallback', step.name, `trying the next best skill, ${step.name}`);
        const result = await runPath(step, io, failures);
        if (result.outcome === 'success')
          return {
            result,
            skill: step,
            fallbackUsed: true,
            successes: [...successes, { skill: step, result }],
            primaryFailure,
            ran,
          };
        last = { skill: step, result };
      } else if (step.type === 'generic_chat' && io.generic) {
        io.emit('fallback', null, 'answering without a skill');
        const failed = last && {
          skill: last.skill.name,
          status: last.result.status,
          error: last.result.error,
        };
        const result = await io.generic(failed);
        if (result.outcome === 'success')
          return { result, skill: null, fallbackUsed: true, successes, primaryFailure, ran };
      } else if (step.type === 'ask_user') {
        askUser = true;
        break;
      }
    }
  }
  if (!last) throw new Error('executePlan: a plan with no skill to run');
  const why = last.result.error ?? last.result.status;
  io.emit(
    'exit',
    last.skill.name,
    askUser ? `no skill could do it (${why}): ask the user for more to go on` : why,
  );
  return { result: last.result, skill: last.skill, fallbackUsed: false, successes, ran };
}
