import type { ChatStep, ChatStepStatus, RunResult, RunSandbox, SkillDetail } from '../../../shared/contract';
import {
  attemptSkill,
  type AttemptEnv,
  type AttemptRequest,
  type AttemptResult,
  type InstructionRunner,
} from '../execution/attempt';
import { secondsText } from '../execution/classify';
import { MAX_TIMEOUT_MS } from '../execution/policy';
import { emptyAttempt } from '../execution/scriptAttempt';
import { listRunFiles, runDirs } from '../execution/workdir';
import { callTool, stoppedNote, type ToolOutput } from '../execution/tools';
import type { ChoosableSkill } from '../routing';
import type { SkillCatalog } from '../skills';
import { runModelLoop, timeoutOf, type ModelChoice, type ModelHandle } from './modelLoop';

/** The skill body as the model sees it: `{baseDir}` is the skill root, which tools address as `.`. */
export function skillSystemPrompt(skill: SkillDetail): string {
  const body = skill.body.replace(/\{baseDir\}/g, '.').trim();
  return [
    `You are carrying out the skill "${skill.name}" for the user. Follow its instructions below.`,
    "Use the tools to list and read the skill's files (paths relative to the skill folder) and to run its scripts;",
    'read reference files only when you need them. Scripts run in a sandbox and may need the user’s approval:',
    'if a call is denied or blocked, say so plainly and continue without it. Answer in the user’s language.',
    '',
    `<skill name="${skill.name}">`,
    body,
    '</skill>',
  ].join('\n');
}

/** How much of the failed tool calls an instruction run keeps as its stderr. */
const MAX_TOOL_ERRORS_CHARS = 16_000;

/** A tool result's status as a chat step shows it. */
export const statusOf = (out: ToolOutput): ChatStepStatus => {
  const s = out.status;
  if (s === 'success' || s === undefined) return 'success';
  if (s === 'denied' || s === 'blocked' || s === 'timeout' || s === 'cancelled' || s === 'refused') return s;
  return s === 'failure' ? 'failure' : 'error';
};

/**
 * A run card's sandbox: the tier a command of the run ran in, and none for a run that executed
 * nothing (a skill the model followed without running a script, a template filled, a denied
 * run), whose `none` a badge would read as "ran without a sandbox".
 */
export const ranIn = (
  run: Pick<RunResult, 'command' | 'sandbox' | 'scripts' | 'status' | 'error'> &
    Partial<Pick<RunResult, 'violations' | 'duration_ms'>>,
): { sandbox?: RunSandbox; error?: string; duration_ms?: number } => {
  // A stop the script went on after is said on the card (the run's own error, when set, wins).
  const stopped = stoppedNote(run);
  const ran = run.command.length > 0 || (run.scripts?.length ?? 0) > 0;
  return {
    ...(ran ? { sandbox: run.sandbox } : {}),
    ...(stopped ? { error: stopped } : {}),
    ...(run.duration_ms !== undefined ? { duration_ms: run.duration_ms } : {}),
  };
};

const preview = (out: ToolOutput): string => {
  if (typeof out.output === 'string') return out.output.slice(0, 4000);
  if (typeof out.content === 'string') return out.content.slice(0, 4000);
  return JSON.stringify(out).slice(0, 4000);
};

export interface InstructionDeps {
  catalog: SkillCatalog;
  /** The configured chat model, resolved at call time (settings can change). */
  model(): Promise<ModelChoice>;
  /** The skills a model may pick on its own (RoutingService.choosable); run_skill reaches no other. */
  choosable?(): ChoosableSkill[];
}

/**
 * Instruction skills through the model (DESIGN §4): the body as context, the four tools,
 * delegation with `run_skill` (depth ≤ 2, no cycles). Wired into the executor so a routed
 * chat turn, `run.start` and `skilldeck run` all go through the same path.
 */
export function createInstructionRunner(deps: InstructionDeps): InstructionRunner {
  const runner: InstructionRunner = async (req: AttemptRequest, env: AttemptEnv): Promise<AttemptResult> => {
    const handle = await deps.model();
    if ('error' in handle)
      return {
        ...emptyAttempt('none', 0),
        status: 'failure',
        outcome: 'fatal',
        error: `${req.skill.name} is an instruction skill: a model follows its steps. ${handle.error}`,
      };
    // A timeout the skill declares bounds its whole run: the model's rounds and the scripts it
    // calls (DESIGN §4 policy). Without one the model's own stream limits hold, since a slow local
    // model may take minutes over a long answer.
    const declared = req.skill.metadata.execution.timeoutMs ?? 0;
    const timeoutMs = declared > 0 ? Math.min(declared, MAX_TIMEOUT_MS) : 0;
    const clock = new AbortController();
    const why = `Timed out after ${secondsText(timeoutMs)}, the timeout ${req.skill.name} declares`;
    // The reason travels with the signal, so the steps it stops say timeout, not the user's Stop.
    const stop = () => clock.abort(new DOMException(`${why}.`, 'TimeoutError'));
    const timer = timeoutMs > 0 ? setTimeout(stop, timeoutMs) : undefined;
    const signal = env.signal ? AbortSignal.any([env.signal, clock.signal]) : clock.signal;
    try {
      const result = await follow(req, { ...env, signal }, handle);
      if (!clock.signal.aborted || env.signal?.aborted) return result;
      return {
        ...result,
        status: 'timeout',
        outcome: 'fatal',
        error: `${why}; what the model wrote so far is kept. Raise execution_policy.timeout if the task needs longer.`,
      };
    } finally {
      clearTimeout(timer);
    }
  };

  /** The model follows one instruction skill with its tools, until it answers or fails. */
  const follow = async (
    req: AttemptRequest,
    env: AttemptEnv,
    handle: ModelHandle,
  ): Promise<AttemptResult> => {
    const started = Date.now();
    const chat = env.chat;
    const prefix = `${chat?.stepPrefix ?? ''}${req.skill.name}:`;
    type Delegate = Parameters<typeof callTool>[2]['delegate'];
    /**
     * Runs another skill for the tool call `stepId`. Its answer is the tool result the model
     * reads, so it never streams into the turn's answer (or the run's stdout); its steps nest
     * under the call, so two delegations to one skill keep theirs apart.
     */
    const delegateFor =
      (stepId: string): Delegate =>
      async ({ skill, task, depth, chain }) => {
        const target = deps.catalog
          .list()
          .skills.find((s) => s.name === skill && s.routable && !s.shadowedBy);
        if (!target)
          return {
            ...emptyAttempt('none', 0),
            status: 'failure',
            outcome: 'fatal',
            error: `No usable skill named "${skill}".`,
          };
        const detail = await deps.catalog.get(target.id);
        const nested: AttemptEnv = chat
          ? { ...env, chat: { ...chat, stepPrefix: `${stepId}>`, onDelta: () => undefined } }
          : {
              ...env,
              onOutput: (stream, chunk) => void (stream === 'stderr' && env.onOutput(stream, chunk)),
            };
        return attemptSkill(
          { skill: detail, task, input: { task }, runId: req.runId, depth, chain },
          nested,
          runner,
        );
      };
    // A skill the user keeps for themselves (disable-model-invocation, never auto-select, turned
    // off) is not the model's to run, from plain chat or from inside another skill.
    const refuseDelegation = (name: string): string | undefined => {
      const found = deps.catalog.list().skills.find((s) => s.name === name && s.routable && !s.shadowedBy);
      if (!found || !deps.choosable || deps.choosable().some((c) => c.id === found.id)) return undefined;
      return `Refused: ${name} runs only when the user asks for it by name (it is marked disable-model-invocation, set never to be picked, or turned off); tell the user to run it.`;
    };
    // What the tools reported as failed, one line each: an instruction run's stderr, which a
    // repair reads (a file SKILL.md names that does not exist) like a script's.
    const toolErrors: string[] = [];
    const result = await runModelLoop({
      handle,
      system: skillSystemPrompt(req.skill),
      messages: [...(chat?.history ?? []), { role: 'user', content: req.task }],
      signal: env.signal,
      stepPrefix: prefix,
      onDelta: (text) => (chat ? chat.onDelta(text) : env.onOutput('stdout', text)),
      onStep: (step) => chat?.onStep(step),
      callTool: async (name, input, stepId) => {
        const step: ChatStep = { id: stepId, kind: 'tool', name, status: 'running', input };
        chat?.onStep(step);
        const began = Date.now();
        const out = await callTool(name, input, {
          skill: req.skill,
          task: req.task,
          runId: req.runId,
          depth: req.depth,
          chain: req.chain,
          env,
          refuseDelegation,
          delegate: delegateFor(stepId),
        });
        const timedOut = out.status === 'cancelled' && timeoutOf(env.signal);
        const status = timedOut ? 'timeout' : statusOf(out);
        // A script's run says its own time (as the Runs view shows it); other tools, the call's.
        const took = typeof out.duration_ms === 'number' ? out.duration_ms : Date.now() - began;
        const done: ChatStep = { ...step, status, output: preview(out), duration_ms: took };
        if (timedOut) done.error = timedOut;
        else if (typeof out.error === 'string') done.error = out.error;
        if (status === 'error' || status === 'failure')
          toolErrors.push(
            `${name} ${JSON.stringify(input ?? {}).slice(0, 300)}: ${String(out.error ?? status)}`,
          );
        chat?.onStep(done);
        return out;
      },
    });
    chat?.addUsage(result.usage);
    if (result.stalled || result.refused) chat?.onModelDown?.(result.error ?? 'The model did not answer.');
    const base = {
      ...emptyAttempt('none', Date.now() - started),
      output: result.text,
      stderr: toolErrors.join('\n').slice(0, MAX_TOOL_ERRORS_CHARS),
      // What the scripts the model ran left in the run's folder, as a script run lists its own.
      files: listRunFiles(runDirs(env.home, req.runId)),
    };
    if (result.status === 'success') return base;
    return {
      ...base,
      status: result.status === 'cancelled' ? 'cancelled' : 'failure',
      outcome: 'fatal',
      error: result.error ?? 'the model failed',
    };
  };
  return runner;
}
