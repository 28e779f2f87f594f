import type { ChatUsage } from '../../../shared/contract';

/**
 * No model reads or writes this many tokens in one call: a larger count is a server's garbage,
 * and summed into a turn or a route's metrics it would outweigh every real one.
 */
const MOST_TOKENS = 1e9;

/**
 * A token count a server reported, as a whole number, or undefined when it sent none or one no
 * call could have (negative, not finite, astronomical). Fractions are rounded: a proxy that
 * scales counts sends them, and the contract's counts are whole numbers (a turn with 1.5 fails
 * its own schema when read back).
 */
export function tokenCount(reported: number | undefined): number | undefined {
  if (typeof reported !== 'number' || !Number.isFinite(reported)) return undefined;
  if (reported < 0 || reported > MOST_TOKENS) return undefined;
  return Math.round(reported);
}

/**
 * Adds one model step's usage, as the AI SDK reports it, to `total`. A server that sent none (no
 * usage chunk, despite include_usage) left it unknown, not 0; so did one that sent a count no call
 * could have: either way `reported` turns false.
 */
export function addReported(
  total: ChatUsage,
  step: { inputTokens?: number | undefined; outputTokens?: number | undefined },
): void {
  const input = tokenCount(step.inputTokens);
  const output = tokenCount(step.outputTokens);
  total.input_tokens += input ?? 0;
  total.output_tokens += output ?? 0;
  const garbled = (sent: number | undefined, count: number | undefined) =>
    sent !== undefined && count === undefined;
  if (
    (input === undefined && output === undefined) ||
    garbled(step.inputTokens, input) ||
    garbled(step.outputTokens, output)
  )
    total.reported = false;
}
