import type { ChatStep, ChatTurn } from '../../../../shared/contract';

/**
 * The open conversation's turns as the window keeps them: recorded turns from `chat.get` plus
 * the live one, updated in place from `chat.turnStarted` / `chat.delta` / `chat.step` /
 * `chat.turnFinished`. Pure functions, so the event ordering rules are tested without a DOM.
 */

/** A started or finished turn replaces the one with its id, or joins the end. */
export function upsertTurn(turns: readonly ChatTurn[], turn: ChatTurn): ChatTurn[] {
  const at = turns.findIndex((t) => t.turn_id === turn.turn_id);
  if (at === -1) return [...turns, turn];
  return turns.map((t, i) => (i === at ? turn : t));
}

/**
 * Streamed text for turns; a delta for a turn the window does not hold (it started before a
 * reload) is dropped: its `chat.turnFinished` carries the whole answer.
 */
export function appendDeltas(turns: readonly ChatTurn[], deltas: ReadonlyMap<string, string>): ChatTurn[] {
  if (deltas.size === 0) return [...turns];
  return turns.map((t) => {
    const text = deltas.get(t.turn_id);
    // A finished turn already has its full answer; a late buffered delta must not double it.
    return text && t.status === 'running' ? { ...t, answer: t.answer + text } : t;
  });
}

/**
 * A running turn whose answer starts over (`chat.delta` with `restart`: a fallback after a failed
 * skill): the text so far belonged to the failed step, so the answer and the steps' places in it
 * go back to the start, as the engine's own turn did. A finished turn is left alone.
 */
export function startedOver(turn: ChatTurn): ChatTurn {
  if (turn.status !== 'running') return turn;
  return { ...turn, answer: '', steps: turn.steps.map((s) => ({ ...s, answer_offset: 0 })) };
}

/** A step added or changed (steps keep their id within a turn, so cards update in place). */
export function upsertStep(turns: readonly ChatTurn[], turnId: string, step: ChatStep): ChatTurn[] {
  return turns.map((t) => {
    if (t.turn_id !== turnId || t.status !== 'running') return t;
    const at = t.steps.findIndex((s) => s.id === step.id);
    const steps = at === -1 ? [...t.steps, step] : t.steps.map((s, i) => (i === at ? step : s));
    return { ...t, steps };
  });
}

/**
 * What `chat.get` returned, plus turns still running that the log does not hold yet (a turn is
 * appended to the log when it finishes, and its events may have arrived while `chat.get` was
 * on its way).
 */
export function mergeLoaded(loaded: readonly ChatTurn[], live: readonly ChatTurn[]): ChatTurn[] {
  const known = new Set(loaded.map((t) => t.turn_id));
  return [...loaded, ...live.filter((t) => t.status === 'running' && !known.has(t.turn_id))];
}

/** The turn under way, if any: what Stop and Esc stop. */
export const runningTurn = (turns: readonly ChatTurn[]): ChatTurn | undefined =>
  turns.findLast((t) => t.status === 'running');
