import { rewriteSseLines } from './sseLines';

/**
 * The name a streamed tool call gets when the model never named it. The AI SDK's tool-call
 * tracker (provider-utils `StreamingToolCallTracker`) skips a first delta whose `function.name`
 * is blank and then fails the whole stream on the call's next delta ("Expected 'function.name'
 * to be a string."), so the model's text was lost and the turn fell back. Named this way, the
 * call reaches the tools, which answer it like an unknown tool and the model can correct it.
 * A valid OpenAI function name, since it goes back to the endpoint in the history.
 */
export const UNNAMED_TOOL = 'unnamed_tool';

interface ToolCallDelta {
  index?: unknown;
  id?: string;
  type?: string;
  function?: { name?: unknown; arguments?: unknown };
}

interface Choice {
  index?: number;
  delta?: { tool_calls?: ToolCallDelta[] };
  finish_reason?: string | null;
}

interface Chunk {
  choices?: Choice[];
  [field: string]: unknown;
}

interface Held {
  choice: number;
  index: number;
  id?: string;
  /** The name as far as it came ('' while none). */
  name: string;
  arguments: string;
}

const named = (name: unknown): name is string => typeof name === 'string' && name.trim() !== '';

/**
 * The name so far and one more piece of it: a piece that repeats the name (or starts with it)
 * replaces it, as servers that send the name in every delta do; any other piece continues it,
 * as servers that split the name over deltas do.
 */
const grown = (name: string, piece: string) => (piece.startsWith(name) ? piece : name + piece);

/**
 * An OpenAI-style event stream in which every tool call has its whole name in its first delta,
 * as the AI SDK needs. A call's deltas are held back until one comes without a name (the name is
 * then whole) or its choice finishes: some vLLM models send the name after an empty one, and
 * some servers split it over deltas ('run_skill', then '_script'), which the SDK read as two
 * calls, 'run_skill' and '_script'. The call then goes on as one delta carrying all that was
 * held; a call still unnamed when its choice finishes or the stream ends is sent as
 * `UNNAMED_TOOL`. Every other line passes as it came, byte for byte.
 */
export function nameToolCalls(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const namedCalls = new Set<string>();
  const held = new Map<string, Held>();
  let last: Chunk = {};

  /** A chunk carrying the held calls of `choice` (all when undefined), named UNNAMED_TOOL. */
  const release = (choice?: number): string[] => {
    const calls = [...held.entries()].filter(([, h]) => choice === undefined || h.choice === choice);
    if (calls.length === 0) return [];
    for (const [key] of calls) held.delete(key);
    const byChoice = new Map<number, ToolCallDelta[]>();
    for (const [, h] of calls)
      byChoice.set(h.choice, [
        ...(byChoice.get(h.choice) ?? []),
        {
          index: h.index,
          id: h.id,
          type: 'function',
          function: { name: h.name || UNNAMED_TOOL, arguments: h.arguments },
        },
      ]);
    const { choices: _choices, usage: _usage, ...head } = last;
    const choices = [...byChoice].map(([index, tool_calls]) => ({
      index,
      delta: { tool_calls },
      finish_reason: null,
    }));
    // An event of its own: the blank line ends it before the line that follows.
    return [`data: ${JSON.stringify({ ...head, choices })}`, ''];
  };

  /** The lines to send for one line received. */
  const rewrite = (line: string): string[] => {
    if (!line.startsWith('data:')) return [line];
    const data = line.slice(5).trim();
    if (data === '[DONE]') return [...release(), line];
    if (!data.includes('"tool_calls"') && held.size === 0) return [line];
    let chunk: Chunk;
    try {
      chunk = JSON.parse(data) as Chunk;
    } catch {
      return [line];
    }
    if (!chunk || typeof chunk !== 'object' || !Array.isArray(chunk.choices)) return [line];
    last = chunk;
    let changed = false;
    const before: string[] = [];
    for (const choice of chunk.choices) {
      const at = typeof choice?.index === 'number' ? choice.index : 0;
      const deltas = choice?.delta?.tool_calls;
      if (Array.isArray(deltas)) {
        const kept = deltas.flatMap((delta): ToolCallDelta[] => {
          if (typeof delta?.index !== 'number') return [delta];
          const key = `${at}:${delta.index}`;
          if (namedCalls.has(key)) return [delta];
          changed = true;
          const args = typeof delta.function?.arguments === 'string' ? delta.function.arguments : '';
          const piece = named(delta.function?.name) ? delta.function.name : '';
          const waiting = held.get(key) ?? { choice: at, index: delta.index, name: '', arguments: '' };
          if (waiting.name && !piece) {
            // A delta without a name: the name came whole before it.
            held.delete(key);
            namedCalls.add(key);
            const { name } = waiting;
            const id = waiting.id ?? delta.id;
            const whole = {
              index: delta.index,
              id,
              type: 'function',
              function: { name, arguments: waiting.arguments + args },
            };
            return [whole];
          }
          held.set(key, {
            ...waiting,
            id: waiting.id ?? delta.id,
            name: piece ? grown(waiting.name, piece) : waiting.name,
            arguments: waiting.arguments + args,
          });
          return [];
        });
        if (kept.length > 0) choice.delta!.tool_calls = kept;
        else delete choice.delta!.tool_calls;
      }
      if (choice?.finish_reason != null) before.push(...release(at));
    }
    return [...before, changed ? `data: ${JSON.stringify(chunk)}` : line];
  };

  return rewriteSseLines(body, rewrite, () => release());
}
