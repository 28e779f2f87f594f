import { unreadySkill, type ChatStep, type ChatTurn, type RouteCandidate } from '../../../../shared/contract';
import type { Tone } from '../../ui/Badge';

/** The routing chip on an answer: the skill that answered and its score, or plain chat. */
export interface RouteChip {
  label: string;
  /** The routed primary's score; null for plain chat. */
  score: number | null;
  /** The answering skill is not the router's primary: the fallback chain took over. */
  fallback: boolean;
  /** How the primary was recalled (`forced` for `$name`). */
  source: string | null;
  /** The router chose no skill; the model ran this one from those it was offered. */
  byModel: boolean;
}

export function routeChip(turn: ChatTurn): RouteChip {
  const { plan, candidates } = turn.route;
  const primary = candidates.find((c) => c.id === plan.primary_id);
  const skill = turn.skill ?? plan.primary;
  if (!skill) return { label: 'plain chat', score: null, fallback: false, source: null, byModel: false };
  const answered = candidates.find((c) => c.name === skill);
  return {
    label: skill,
    score: (answered ?? primary)?.score ?? null,
    fallback: plan.primary !== null && skill !== plan.primary,
    source: (answered ?? primary)?.source ?? null,
    byModel: plan.primary === null,
  };
}

/** The "no model configured" case: plain chat, or a skill that follows instructions. */
export function needsModel(turn: Pick<ChatTurn, 'status' | 'error'>): boolean {
  if (turn.status === 'no_model') return true;
  // Older saved turns ended an instruction skill without a model as a plain `failure`.
  return turn.status === 'failure' && /no model (is )?configured|needs a model/i.test(turn.error ?? '');
}

export interface TurnNotice {
  tone: 'red' | 'amber' | 'neutral';
  title: string;
  /** What to do next, in one sentence. */
  hint: string;
  retry: boolean;
  /** Offer "Open model settings": the model is missing or did not answer. */
  modelSettings?: boolean;
  /** The skill the message was for, which cannot run on this machine: what it lacks, how to install it. */
  unready?: RouteCandidate;
}

const NO_MODEL_NOTICE: TurnNotice = {
  tone: 'amber',
  title: 'No model is configured',
  hint: 'Open Settings → Model to add one, or name a script skill with $skill-name: those run without a model.',
  retry: true,
  modelSettings: true,
};

/** The model itself failed (an HTTP error, a refused connection): the skill is not at fault. */
export function modelFailed(turn: Pick<ChatTurn, 'steps'>): boolean {
  return turn.steps.some((step) => step.kind === 'model' && step.status === 'error');
}

/**
 * When the model's server said it may be asked again (a 429's Retry-After), in ms since the
 * epoch; null when it said nothing. Retry waits for it: asked sooner, the server refuses again.
 * Only the model that said so is held: after a switch to another one (`current`, as model
 * steps name it: `provider/model`, or `provider/` when the server's first model is used),
 * Retry asks the new one at once.
 */
export function retryAt(turn: Pick<ChatTurn, 'steps'>, current?: string | null): number | null {
  const sameModel = (name: string) =>
    !current || (current.endsWith('/') ? name.startsWith(current) : name === current);
  const times = turn.steps
    .filter((s) => s.kind === 'model' && s.status === 'error' && s.retry_at && sameModel(s.name))
    .map((s) => Date.parse(s.retry_at ?? ''))
    .filter(Number.isFinite);
  return times.length > 0 ? Math.max(...times) : null;
}

/** The engine's words that the notice's title already says, before the reason. */
const MODEL_FAILED_LEAD = /^(?:The model did not answer|The model's response broke off): /;

/**
 * The engine's error as the notice shows it: nothing after a stop or for a skill that cannot run
 * here (the notice says what it lacks), and without a lead the title already says.
 */
export function noticeError(turn: ChatTurn, notice: TurnNotice): string {
  if (!turn.error || turn.error === 'Stopped.' || notice.unready) return '';
  if (!modelFailed(turn)) return turn.error;
  const reason = turn.error.replace(MODEL_FAILED_LEAD, '');
  return reason.charAt(0).toUpperCase() + reason.slice(1);
}

/**
 * Whether a step's error is already in the notice under the answer: then its row does not say it
 * again (a 429 read twice, once small and red, once in the notice).
 */
export function saidInNotice(step: ChatStep, shown: string): boolean {
  const error = step.error?.replace(/[.\s]+$/, '');
  return !!error && shown.toLowerCase().includes(error.toLowerCase());
}

/** What an unfinished or failed turn tells the user, and whether Retry is offered. */
export function turnNotice(turn: ChatTurn): TurnNotice | null {
  switch (turn.status) {
    case 'running':
    case 'success':
      return null;
    case 'no_model': {
      if (turn.skill) return { ...NO_MODEL_NOTICE, title: 'This skill needs a model' };
      const unready = unreadySkill(turn.route);
      return unready
        ? {
            ...NO_MODEL_NOTICE,
            title: `${unready.name} can’t run on this machine`,
            unready,
            hint: 'Install what it needs, then Retry. With a model configured, chat would answer without it.',
          }
        : NO_MODEL_NOTICE;
    }
    case 'cancelled':
      return {
        tone: 'neutral',
        title: 'Stopped',
        hint: 'What streamed is kept. Retry to run it again.',
        retry: true,
      };
    case 'denied':
      return {
        tone: 'amber',
        title: 'A step was denied',
        hint: 'Nothing that needed approval ran. Retry to be asked again.',
        retry: true,
      };
    case 'blocked':
      return {
        tone: 'red',
        title: 'The sandbox blocked the run',
        hint: 'Open the run to see what it tried and allow that path or host for this skill, then retry.',
        retry: true,
      };
    case 'timeout':
      return {
        tone: 'red',
        title: 'The run took too long',
        hint: 'Retry, or raise the skill’s timeout in its skill.yaml if it needs more time.',
        retry: true,
      };
    case 'failure':
    case 'error':
      if (needsModel(turn)) return { ...NO_MODEL_NOTICE, title: 'This skill needs a model' };
      if (modelFailed(turn)) {
        const notAtFault = turn.skill ? 'The skill is not at fault. ' : '';
        if (retryAt(turn) !== null)
          return {
            tone: 'amber',
            title: 'The model’s server asked to wait',
            hint: `${notAtFault}Retry opens when the wait is over. If this keeps happening, check the plan or limits of your provider.`,
            retry: true,
            modelSettings: true,
          };
        return {
          tone: 'red',
          title: turn.answer.trim() ? 'The model’s answer broke off' : 'The model did not answer',
          hint: `${notAtFault}Retry, or check the provider, key and model in Settings → Model.`,
          retry: true,
          modelSettings: true,
        };
      }
      return {
        tone: 'red',
        title: turn.status === 'error' ? 'The answer broke off' : 'The skill failed',
        hint: 'Retry, or edit your message and send it again. The run shows the full output.',
        retry: true,
      };
  }
}

/**
 * The steps a turn shows. A lone successful model call is plain chat's only step and says nothing
 * the chip does not.
 */
export function visibleSteps(steps: readonly ChatStep[]): ChatStep[] {
  return steps.filter(
    (s) => s.kind !== 'model' || steps.length > 1 || (s.status !== 'success' && s.status !== 'running'),
  );
}

/** A stretch of an answer: text the model streamed, or the steps taken between two stretches of text. */
export type AnswerPart =
  { kind: 'text'; key: string; text: string } | { kind: 'steps'; key: string; steps: ChatStep[] };

/**
 * The answer and its steps in the order they streamed, as Claude Code and Cline show a turn: each
 * step sits where the answer stood when it began (`answer_offset`), so text the model wrote before
 * a tool call reads above that call's card. A card the engine adds when its run ended carries
 * its run's offset, so steps go by offset, ties in the order they came. Steps without an offset
 * (turns saved before it was recorded) come first, as they were shown then. Keys stay the same as
 * the turn grows, so a part already on screen is not rendered anew.
 */
export function answerParts(answer: string, steps: readonly ChatStep[]): AnswerPart[] {
  const parts: AnswerPart[] = [];
  let at = 0;
  const ordered = visibleSteps(steps).sort((a, b) => (a.answer_offset ?? 0) - (b.answer_offset ?? 0));
  const textUpTo = (end: number) => {
    const text = answer.slice(at, end);
    if (text.trim()) parts.push({ kind: 'text', key: `text:${at}`, text });
    at = end;
  };
  for (const step of ordered) {
    // Clamped: the window may not hold all the text the engine had when the step began.
    textUpTo(Math.min(Math.max(step.answer_offset ?? 0, at), answer.length));
    const last = parts.at(-1);
    if (last?.kind === 'steps') last.steps.push(step);
    else parts.push({ kind: 'steps', key: `steps:${step.id}`, steps: [step] });
  }
  textUpTo(answer.length);
  return parts;
}

export const STEP_TONE: Record<ChatStep['status'], Tone> = {
  running: 'blue',
  waiting: 'amber',
  success: 'green',
  allowed: 'green',
  failure: 'red',
  error: 'red',
  denied: 'red',
  blocked: 'red',
  timeout: 'red',
  refused: 'red',
  cancelled: 'neutral',
};

/** A tool call's arguments on one line for the card header; the card shows them in full. */
export function argumentsSummary(input: unknown): string {
  if (input === undefined || input === null) return '';
  if (typeof input !== 'object') return String(input);
  const entries = Object.entries(input as Record<string, unknown>);
  if (entries.length === 0) return '';
  const text = entries
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
  return text.length > 90 ? `${text.slice(0, 89)}…` : text;
}
