import type { ModelMessage } from 'ai';
import type { ChatStep, ChatTurn } from '../../../shared/contract';

// What plain chat tells the model, and what a turn answers when there is no model to ask.

/** The conversation so far as model messages (finished turns with an answer; the last 20). */
export function historyOf(turns: ChatTurn[]): ModelMessage[] {
  return turns
    .filter((t) => t.answer.trim())
    .slice(-20)
    .flatMap((t): ModelMessage[] => [
      { role: 'user', content: t.message },
      { role: 'assistant', content: t.answer },
    ]);
}

/** Plain chat (no skill matched, or the generic fallback): a short system prompt, no catalog of skills. */
export const PLAIN_SYSTEM =
  'You are SkillDeck’s assistant. No skill was chosen for this message, so answer it directly and concisely. Answer in the user’s language.';

/** The generic fallback after the chosen skill could not run: what happened goes below it. */
export const FALLBACK_SYSTEM =
  'You are SkillDeck’s assistant. Answer the message directly and concisely, in the user’s language.';

export const NO_MODEL_ANSWER =
  'No skill matched this message, and answering without a skill needs a model. Open Settings → Model to configure one (OpenAI, Anthropic, or any OpenAI-compatible server such as Ollama or LM Studio; from a terminal, set OPENAI_BASE_URL, OPENAI_API_KEY and SKILLDECK_MODEL), or name a skill with `$skill-name`.';

/**
 * DESIGN §4: a deny carries "an optional reason the model sees" — the generic fallback too. What
 * the fallback hears when the user denied the chosen skill, or undefined when nothing was denied.
 */
export function deniedNote(skill: string | null, steps: ChatStep[]): string | undefined {
  const denied = steps.filter((s) => s.kind === 'approval' && s.status === 'denied');
  if (denied.length === 0) return undefined;
  const reasons = [...new Set(denied.map((s) => s.error).filter((r): r is string => !!r))];
  return `The skill ${skill} was chosen for this message, but the user denied running it${reasons.length ? ` (their reason: ${reasons.join('; ')})` : ''}. It did not run: do not act as if it had. Answer as well as you can without it, and say in a sentence that it did not run.`;
}
