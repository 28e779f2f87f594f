import type { ModelMessage } from 'ai';
import type {
  ActivationPlan,
  ApprovalRequest,
  ApprovalResolution,
  ChatStep,
  ChatTurn,
  ChatTurnStatus,
  RunResult,
  RunTransition,
} from '../../../shared/contract';
import { unreadySkill } from '../../../shared/contract';
import type { EngineEvents } from '../events';
import type { ChatHooks } from '../execution/attempt';
import { emptyAttempt } from '../execution/scriptAttempt';
import type { ExecutionService } from '../execution/service';
import type { ChoosableSkill } from '../routing';
import { toolArguments, toolSchemas, unnamedCall, type ToolOutput } from '../execution/tools';
import { UNNAMED_TOOL } from '../llm/unnamedToolCalls';
import { ranIn, statusOf } from './instruction';
import { offeredSkill, offeringSystem, offerRefusal, skillOffer } from './offer';
import { fallbackNote, FALLBACK_SYSTEM, NO_MODEL_ANSWER, PLAIN_SYSTEM } from './prompts';
import { runModelLoop, type ModelChoice } from './modelLoop';
import { unreadyAnswer, unreadyNote } from './unready';

export interface TurnDeps {
  events: EngineEvents;
  execution: ExecutionService;
  model(): Promise<ModelChoice>;
  /** The skills a model may choose on its own (routable, enabled, not explicit-only). */
  choosable?(): ChoosableSkill[];
  /**
   * Models (by id) that refused tools this session: plain chat asks them plainly at once
   * instead of offering skills, failing, and asking again on every message.
   */
  toolless?: Set<string>;
}

/** What a skill the model ran through `run_skill` hands back to it, at most. */
const OFFERED_OUTPUT_CHARS = 8000;

/** A running script's card shows the end of its stdout, refreshed at most this often. */
const LIVE_OUTPUT_MS = 200;
const LIVE_OUTPUT_CHARS = 4000;

/**
 * One chat turn (issue 8 item 2): with a plan, the executor's fallback machine runs it
 * (instruction skills through the model and the four tools; script and direct skills
 * directly); without one, plain chat. Every step is published as it happens. Never throws.
 */
export async function runTurn(
  turn: ChatTurn,
  history: ModelMessage[],
  deps: TurnDeps,
  signal: AbortSignal,
): Promise<ChatTurn> {
  const { events } = deps;
  const ids = { conversation_id: turn.conversation_id, turn_id: turn.turn_id };
  // A turn whose skill is driven by the model: a script's stdout is a tool result, not the answer.
  let modelDriven = false;
  const upsert = (update: ChatStep) => {
    if (update.kind === 'model') modelDriven = true;
    const at = turn.steps.findIndex((s) => s.id === update.id);
    // A new step sits where the answer stands now, unless it says where (a card added once its run ended).
    const offset = at === -1 ? (update.answer_offset ?? turn.answer.length) : turn.steps[at].answer_offset;
    const step = { ...update, answer_offset: offset };
    if (at === -1) turn.steps.push(step);
    else turn.steps[at] = step;
    events.emit('chat.step', { ...ids, step });
  };
  // Set when a fallback starts the answer over: its first text says so to the window and the CLI.
  let restarting = false;
  const delta = (text: string) => {
    turn.answer += text;
    events.emit('chat.delta', { ...ids, text, ...(restarting ? { restart: true } : {}) });
    restarting = false;
  };
  // Set when the model went silent or its endpoint refused or was unreachable: a fallback asking
  // it again at once would wait as long, or fail the same way (a 429 asks to wait).
  let modelDown: string | undefined;
  const hooks: ChatHooks = {
    history,
    stepPrefix: '',
    onStep: upsert,
    onDelta: delta,
    addUsage: (u) => {
      turn.usage.input_tokens += u.input_tokens;
      turn.usage.output_tokens += u.output_tokens;
      if (u.reported === false) turn.usage.reported = false;
    },
    onModelDown: (error) => (modelDown = error),
  };
  /**
   * A run mirrored on the turn as it goes: its card (the sandbox once known, the end of a
   * script's stdout), its approvals as steps, Stop cancelling it. Resolves with its result.
   */
  const follow = async (
    run: { run_id: string; done: Promise<RunResult> },
    runStep: ChatStep,
    onFallback?: () => void,
  ): Promise<RunResult> => {
    upsert(runStep);
    const onAbort = () => deps.execution.cancel(run.run_id);
    signal.addEventListener('abort', onAbort, { once: true });
    // An answerer that replies while the request is being announced (the CLI's --approve)
    // settles it before this listener hears of the request: such answers wait here for it.
    const early = new Map<string, ApprovalResolution>();
    let live = '';
    let liveTimer: ReturnType<typeof setTimeout> | undefined;
    const card = () => turn.steps.find((s) => s.id === runStep.id) ?? runStep;
    // A denial's reason is its error; an allowed step has none (`--approve` is no error).
    const answered = (r: ApprovalResolution): Partial<ChatStep> =>
      r.decision === 'deny'
        ? { status: 'denied', ...(r.reason && { error: r.reason }) }
        : { status: 'allowed' };
    const stop = events.subscribe((name, payload) => {
      if (name === 'approval.requested' && (payload as ApprovalRequest).run_id === run.run_id) {
        const r = payload as ApprovalRequest;
        const resolution = early.get(r.id);
        upsert({
          id: `approval:${r.id}`,
          kind: 'approval',
          name: r.skill,
          status: 'waiting',
          approval_id: r.id,
          sandbox: r.sandbox,
          output: r.command_line,
          ...(resolution ? answered(resolution) : {}),
        });
      } else if (name === 'approval.resolved' && (payload as ApprovalResolution).run_id === run.run_id) {
        const r = payload as ApprovalResolution;
        const prior = turn.steps.find((s) => s.id === `approval:${r.id}`);
        if (prior) upsert({ ...prior, ...answered(r) });
        else early.set(r.id, r);
      } else if (name === 'run.transition' && (payload as RunTransition).run_id === run.run_id) {
        const t = payload as RunTransition;
        if (t.state === 'fallback') onFallback?.();
        if (t.state === 'running' && t.sandbox)
          upsert({ ...card(), name: t.skill ?? runStep.name, sandbox: t.sandbox });
      } else if (name === 'run.output') {
        const o = payload as { run_id: string; stream: string; chunk: string };
        // A script's stdout shows live on its card and becomes the answer once it succeeded (a failed
        // one's must not read as a fallback's answer); instruction skills stream through the hooks.
        if (o.run_id === run.run_id && o.stream === 'stdout' && !modelDriven) {
          live = (live + o.chunk).slice(-LIVE_OUTPUT_CHARS);
          liveTimer ??= setTimeout(() => {
            liveTimer = undefined;
            if (card().status === 'running') upsert({ ...card(), output: live });
          }, LIVE_OUTPUT_MS);
        }
      }
    });
    try {
      return await run.done;
    } finally {
      stop();
      clearTimeout(liveTimer);
      signal.removeEventListener('abort', onAbort);
    }
  };

  // The skills plain chat may offer (chat/offer.ts): the closest below T, a small catalog whole.
  const offer = skillOffer(turn.route, deps.choosable?.() ?? []);
  const offered = [...offer.closest, ...offer.others];
  let delegated = 0;
  let toolCalls = 0;
  /** The last skill the model ran that answered: its answer stands if the model fails to relay it. */
  let offeredAnswer = '';
  const runOffered = async (name: string, input: unknown, stepId: string): Promise<ToolOutput> => {
    toolCalls++;
    const step: ChatStep = { id: stepId, kind: 'tool', name, status: 'running', input };
    upsert(step);
    const done = (out: ToolOutput): ToolOutput => {
      upsert({
        ...step,
        status: statusOf(out),
        output: JSON.stringify(out).slice(0, 4000),
        ...(typeof out.error === 'string' ? { error: out.error } : {}),
      });
      return out;
    };
    // Plain chat offers run_skill alone: any other name is a malformed call, answered and shown (DESIGN §4).
    if (name === UNNAMED_TOOL) return done({ status: 'error', error: unnamedCall(['run_skill']) });
    if (name !== 'run_skill')
      return done({ status: 'error', error: `Unknown tool "${name}". Available here: run_skill.` });
    const given = toolArguments('run_skill', input);
    if ('error' in given) return done({ status: 'error', error: given.error });
    const parsed = toolSchemas.run_skill.schema.safeParse(given.value);
    const pick = parsed.success ? offeredSkill(offer, parsed.data.skill) : undefined;
    if (!parsed.success || !pick)
      return done({ status: 'error', error: offerRefusal(offer, parsed.data?.skill) });
    const plan: ActivationPlan = {
      ...turn.route.plan,
      skills: [pick.name],
      skill_ids: [pick.id],
      primary: pick.name,
      primary_id: pick.id,
      parallel_groups: [[pick.name]],
      fallback_chain: [],
      routing_reason: `${pick.name} chosen by the model from the skills the router offered.`,
      parameters: { task: parsed.data.task || turn.message },
    };
    // The skill's own model steps show on the turn; its answer goes back to the model, which
    // answers the user from it (so it is not said twice).
    let spoken = '';
    const run = deps.execution.startPlan(plan, {
      task: parsed.data.task || turn.message,
      routeId: turn.route.route_id,
      chat: { ...hooks, stepPrefix: `d${delegated++}:`, onDelta: (text) => (spoken += text) },
    });
    const card: ChatStep = {
      id: `run:${run.run_id}`,
      kind: 'run',
      name: pick.name,
      status: 'running',
      run_id: run.run_id,
    };
    const result = await follow(run, card);
    upsert({
      ...(turn.steps.find((x) => x.id === card.id) ?? card),
      status: result.status,
      ...ranIn(result),
      output: result.output.slice(0, 4000),
      ...(result.error ? { error: result.error } : {}),
    });
    if (result.status === 'success') {
      turn.skill = result.skill;
      turn.skill_id = result.skill_id;
      offeredAnswer = spoken || result.output;
    }
    return done({
      skill: pick.name,
      status: result.status,
      output: (spoken || result.output).slice(0, OFFERED_OUTPUT_CHARS),
      error: result.error,
    });
  };
  // A skill that fits but cannot run here: plain chat says so instead of "no skill matched".
  const unready = unreadySkill(turn.route);
  const plain = async (withSkills = false, note?: string) => {
    const handle = await deps.model();
    if ('error' in handle || modelDown)
      return {
        ...emptyAttempt('none', 0),
        status: 'failure' as const,
        outcome: 'fatal' as const,
        error: 'error' in handle ? NO_MODEL_ANSWER : (modelDown ?? null),
      };
    const tools = withSkills && offered.length > 0 && !deps.toolless?.has(handle.id);
    const result = await runModelLoop({
      handle,
      system: [
        tools ? offeringSystem(offer) : note ? FALLBACK_SYSTEM : PLAIN_SYSTEM,
        ...(note ? [note] : []),
        ...(unready ? [unreadyNote(unready)] : []),
      ].join('\n\n'),
      messages: [...history, { role: 'user', content: turn.message }],
      signal,
      stepPrefix: 'plain:',
      onDelta: delta,
      onStep: upsert,
      ...(tools ? { tools: ['run_skill'], callTool: runOffered } : {}),
    });
    hooks.addUsage(result.usage);
    // A model served without tool support (some local ones) refuses the offer: ask it plainly.
    // One that called tools took the offer, whatever ended it ("Stopped after 8 tool rounds").
    if (
      tools &&
      result.status === 'error' &&
      !result.text &&
      toolCalls === 0 &&
      /\btools?\b/i.test(result.error ?? '')
    ) {
      deps.toolless?.add(handle.id);
      return plain(false);
    }
    const attempt = { ...emptyAttempt('none', 0), output: result.text };
    if (result.status === 'success') return attempt;
    return {
      ...attempt,
      status: result.status === 'cancelled' ? ('cancelled' as const) : ('failure' as const),
      outcome: 'fatal' as const,
      error: result.error ?? null,
    };
  };

  const plan = turn.route.plan;
  if (!plan.primary_id) {
    if ('error' in (await deps.model()))
      return finish(turn, 'no_model', unready ? unreadyAnswer(unready) : NO_MODEL_ANSWER, true);
    const result = await plain(true);
    if (result.status === 'failure' && offeredAnswer.trim() && !turn.answer.trim()) {
      delta(offeredAnswer);
      return finish(turn, 'success');
    }
    return finish(
      turn,
      result.status === 'success' ? 'success' : result.status === 'cancelled' ? 'cancelled' : 'error',
      result.error ?? undefined,
    );
  }

  const run = deps.execution.startPlan(
    plan,
    { task: turn.message, routeId: turn.route.route_id, chat: hooks },
    undefined,
    (failed) => plain(false, fallbackNote(plan.primary, turn.steps, failed)),
  );
  const runStep: ChatStep = {
    id: `run:${run.run_id}`,
    kind: 'run',
    name: plan.primary ?? 'skill',
    status: 'running',
    run_id: run.run_id,
  };
  const current = () => turn.steps.find((s) => s.id === runStep.id) ?? runStep;
  // A fallback answers afresh: what the failed skill's model streamed before it failed stays on
  // that skill's card (its output), not glued in front of the answer that follows.
  const startOver = () => {
    if (!turn.answer) return;
    turn.answer = '';
    for (const step of turn.steps) step.answer_offset = 0;
    restarting = true;
  };
  const result = await follow(run, runStep, startOver);
  // An instruction skill that could not start for want of a model says so as a status.
  if (
    result.status === 'failure' &&
    !modelDriven &&
    /a model/.test(result.error ?? '') &&
    'error' in (await deps.model())
  ) {
    upsert({
      ...current(),
      name: result.skill,
      status: 'failure',
      ...(result.error ? { error: result.error } : {}),
    });
    turn.skill = result.skill;
    return finish(turn, 'no_model', result.error ?? NO_MODEL_ANSWER, true);
  }
  // Script and direct skills: their output is the answer (a model-driven one streamed it). With
  // several skills in the plan, an instruction skill beside it may have streamed first.
  const said = (text: string) => turn.answer.includes(text.trim());
  if (result.output.trim() && !said(result.output))
    delta(turn.answer.trim() ? `\n\n${result.output}` : result.output);
  const failed = result.primary_failure;
  // The skill that answered: a fallback skill, none when plain chat did, else the one that ran.
  turn.skill = failed?.skill_id === result.skill_id ? null : result.skill;
  // The run card shows the skill asked for: when a fallback answered, how that skill failed
  // (the card offers its repair); the fallback's own steps are beside it.
  const shown = failed ?? result;
  // The cards below are added now but stand for skills that ran beside this card's, before what
  // they produced joined the answer: they go where this card is, not after that text.
  const beside = { answer_offset: current().answer_offset ?? 0 };
  upsert({
    ...current(),
    name: shown.skill,
    status: shown.status,
    ...ranIn(shown),
    output: shown.output.slice(0, 4000),
    ...(shown.error ? { error: shown.error } : {}),
  });
  if (failed && turn.skill)
    upsert({
      ...beside,
      id: `run:${run.run_id}:fallback`,
      kind: 'run',
      name: result.skill,
      status: result.status,
      ...ranIn(result),
      output: result.output.slice(0, 4000),
      ...(result.error ? { error: result.error } : {}),
    });
  // The plan's other skills each get their card, and what they produced joins the answer.
  for (const other of result.also_ran ?? []) {
    upsert({
      ...beside,
      id: `run:${run.run_id}:${other.skill_id}`,
      kind: 'run',
      name: other.skill,
      status: other.status,
      ...ranIn(other),
      output: other.output.slice(0, 4000),
      ...(other.error ? { error: other.error } : {}),
    });
    if (other.status === 'success' && other.output.trim() && !said(other.output))
      delta(turn.answer.trim() ? `\n\n${other.output}` : other.output);
  }
  return finish(turn, result.status, result.error ?? undefined);
}

function finish(turn: ChatTurn, status: ChatTurnStatus, error?: string, asAnswer = false): ChatTurn {
  turn.status = status;
  if (error && status !== 'success') turn.error = error;
  if (asAnswer && error && !turn.answer) turn.answer = error;
  turn.finished_at = new Date().toISOString();
  return turn;
}
