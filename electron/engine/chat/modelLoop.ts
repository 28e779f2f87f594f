import {
  JSONParseError,
  jsonSchema,
  streamText,
  tool,
  ToolChoiceViolationError,
  TypeValidationError,
  type LanguageModel,
  type ModelMessage,
  type ToolSet,
} from 'ai';
import { z } from 'zod';
import { MODEL_SETTINGS_DEFAULTS, type ChatStep, type ChatUsage } from '../../../shared/contract';
import { readModelEnv } from '../llm/config';
import { failsAgainAtOnce, type ModelErrorInfo } from '../llm/errors';
import { withStreamActivity } from '../llm/streamActivity';
import { addReported } from '../llm/tokenCount';
import { toolSchemas, type ToolOutput } from '../execution/tools';
import { answerNow, emptyAnswer } from './prompts';
import { offeredToolName } from './toolNames';

/** A configured chat model. */
export interface ModelHandle {
  model: LanguageModel;
  /** `provider/model`, shown on model steps. */
  id: string;
  /** This endpoint's errors in plain words, its key removed; `kind` and `status` as ModelErrorInfo has them. */
  describeError?: (error: unknown) => Partial<ModelErrorInfo> & { message: string };
  /** How long it may stay silent (Settings → Model, or the environment); default modelStallMs(). */
  stallMs?: number;
}

/** The model to use now, or why there is none ("No model configured: …"). */
export type ModelChoice = ModelHandle | { error: string };

/** Why `signal` stopped a run, when a declared timeout (not the user) stopped it. */
export const timeoutOf = (signal: AbortSignal | undefined): string | undefined => {
  const reason: unknown = signal?.aborted ? signal.reason : undefined;
  return reason instanceof DOMException && reason.name === 'TimeoutError' ? reason.message : undefined;
};

/** issue 8: tool-call rounds are bounded. */
export const MAX_TOOL_ROUNDS = 8;
/**
 * How long keep-alive comments alone hold a stream open, in stall limits: a proxy that pings
 * while its model works (OpenRouter) is waited for, one that pings for ever is not.
 */
export const KEEP_ALIVE_LIMIT = 5;
/** The same call (tool and arguments) made this often in one loop ends it: the model is going round. */
export const REPEAT_LIMIT = 3;

/**
 * How long a model may stay silent (no byte of its stream) before the turn stops waiting, for a
 * handle that does not say (ModelService.stallMs does, from the setting): the HTTP client's own
 * limits are five minutes, and a server that took the request and went quiet held a chat for ten
 * (the skill, then the fallback asking it again). A local model loading its weights sends nothing
 * for a while, so the default is generous; `SKILLDECK_MODEL_STALL_SECONDS` sets it.
 */
export function modelStallMs(env: NodeJS.ProcessEnv = process.env): number {
  return (readModelEnv(env).stallSeconds ?? MODEL_SETTINGS_DEFAULTS.stallSeconds) * 1000;
}

export interface LoopOptions {
  handle: ModelHandle;
  system: string;
  messages: ModelMessage[];
  /**
   * Run one tool call; never throws (errors come back as data for the model). `input` is the
   * parsed arguments, or a string: their text as the model sent it (see toolArguments).
   */
  callTool?: (name: string, input: unknown, stepId: string) => Promise<ToolOutput>;
  signal?: AbortSignal;
  onDelta(text: string): void;
  onStep(step: ChatStep): void;
  /** Prefix for step ids, unique within the turn. */
  stepPrefix: string;
  /** The tools the model is offered (default: all four). */
  tools?: readonly string[];
  /** How long the model may stay silent (default: the handle's, else modelStallMs()). */
  stallMs?: number;
}

export interface LoopResult {
  text: string;
  usage: ChatUsage;
  status: 'success' | 'error' | 'cancelled';
  error?: string;
  /** The model went silent for stallMs: asking it again at once would wait as long. */
  stalled?: true;
  /** The endpoint refused the key, is rate-limiting, or could not be reached: asking it again at once fails the same way. */
  refused?: true;
  /** The answer stopped before its end (finish reason `length` or `content-filter`): the note `text` ends with. */
  cut?: { finish: string; note: string };
}

/** What an answer that stopped before its end says where it stops, by the SDK's finish reason. */
const CUT_NOTES: Record<string, string> = {
  length: "The answer was cut off at the model's output limit.",
  'content-filter': "The provider's content filter stopped the answer here.",
};

/**
 * The model's view of the four skill tools. Arguments are validated by the executor's zod
 * schemas, not by the SDK, so a call that fails the schema comes back to the model as a
 * tool result saying how to fix it (DESIGN §4) instead of ending the turn.
 */
function modelTools(only?: readonly string[]): ToolSet {
  const tools: ToolSet = {};
  for (const [name, spec] of Object.entries(toolSchemas)) {
    if (only && !only.includes(name)) continue;
    // Without zod's `$schema` draft URI: some OpenAI-compatible servers refuse it in parameters.
    const { $schema: _draft, ...parameters } = z.toJSONSchema(spec.schema);
    tools[name] = tool({
      description: spec.description,
      inputSchema: jsonSchema(parameters as Parameters<typeof jsonSchema>[0], {
        validate: (value) => ({ success: true, value }),
      }),
    });
  }
  return tools;
}

/** Arguments whose text is no JSON: with finish reason `length`, the output limit cut them. */
const cutOff = (args: unknown): args is string => {
  if (typeof args !== 'string') return false;
  try {
    JSON.parse(args);
    return false;
  } catch {
    return true;
  }
};

/**
 * A call the model's output limit cut off mid-arguments, answered without running it: its
 * arguments are no JSON, and the schema error they got said only 'Unterminated string', which
 * did not tell the model that it ran out of room.
 */
function cutCall(name: string, args: string, id: string, o: LoopOptions): ToolOutput {
  const error = `The call was cut off at the model's output limit before its arguments ended (${args.length} characters came), so it was not run. Send it again with shorter arguments, or answer without it.`;
  o.onStep({ id, kind: 'tool', name, status: 'error', input: args, error });
  return { status: 'error', error };
}

const fallbackMessage = (error: unknown): string => {
  const e = error as { message?: string; statusCode?: number };
  const status = e?.statusCode ? `HTTP ${e.statusCode}: ` : '';
  return `${status}${e?.message ?? String(error)}`.slice(0, 2000);
};

/**
 * One model exchange with up to `MAX_TOOL_ROUNDS` tool rounds (issue 8 item 2): stream the
 * text, run the tool calls through `callTool`, feed the results back, until the model
 * answers without a tool call. A broken stream ends the loop with a clear error and keeps
 * what streamed.
 */
export async function runModelLoop(o: LoopOptions): Promise<LoopResult> {
  const messages = [...o.messages];
  const usage: ChatUsage = { input_tokens: 0, output_tokens: 0 };
  let text = '';
  const tools = o.callTool ? modelTools(o.tools) : undefined;
  let refused = false;
  let retryAt: { retry_at?: string } = {}; // when the endpoint said to ask again (its Retry-After)
  /** How often each call (tool and arguments) was made in this loop. */
  const repeats = new Map<string, number>();
  const message = (error: unknown) => {
    const info = o.handle.describeError?.(error);
    if (info && failsAgainAtOnce(info)) refused = true;
    if (info?.retryAfterMs) retryAt = { retry_at: new Date(Date.now() + info.retryAfterMs).toISOString() };
    return (info?.message ?? fallbackMessage(error)).slice(0, 2000);
  };
  for (let round = 0; round <= MAX_TOOL_ROUNDS; round++) {
    const stepId = `${o.stepPrefix}m${round}`;
    // The last round runs no tools, so the model answers with what it has. Their definitions stay, with
    // tool_choice none: some providers refuse a history with tool calls and no tools (Anthropic: 400).
    const offered = tools !== undefined && round < MAX_TOOL_ROUNDS;
    const lastRound = tools !== undefined && !offered;
    const modelStep: ChatStep = { id: stepId, kind: 'model', name: o.handle.id, status: 'running' };
    o.onStep(modelStep);
    const calls: { toolCallId: string; toolName: string; input: unknown; args: unknown }[] = [];
    let roundText = '';
    // The model's thinking this round (DeepSeek's reasoning_content, OpenRouter's reasoning, a
    // <think> block): never the answer, but sent back with the round's calls (below).
    let roundReasoning = '';
    let failure: string | undefined;
    // A `data:` line that is no chunk (garbage, a proxy's ping): fatal only if the stream never finished.
    let stray: string | undefined;
    let finish: string | undefined;
    const stallMs = o.stallMs ?? o.handle.stallMs ?? modelStallMs();
    const stall = new AbortController();
    let silence: ReturnType<typeof setTimeout> | undefined;
    // When the stream last said something (an SDK part) and when its last bytes came (a
    // keep-alive comment too): pings hold the stream open, up to KEEP_ALIVE_LIMIT × the limit.
    let spoke = Date.now();
    let pinged = 0;
    let quiet = { ms: stallMs, pings: false };
    const wait = (ms: number) => {
      clearTimeout(silence);
      silence = setTimeout(() => {
        // As it stood when the wait ran out: the abort ends the stream with parts of its own.
        quiet = { ms: Date.now() - spoke, pings: pinged > spoke };
        stall.abort();
      }, ms);
    };
    const heard = () => {
      spoke = Date.now();
      wait(stallMs);
    };
    const alive = () => {
      pinged = Date.now();
      const left = spoke + stallMs * KEEP_ALIVE_LIMIT - pinged;
      if (left > 0) wait(Math.min(stallMs, left));
    };
    heard();
    // The server's error event as it sent it (the SDK's error part keeps only its message and code).
    let errorEvent: object | undefined;
    const listener = { onBytes: alive, onErrorEvent: (event: object) => (errorEvent = event) };
    try {
      await withStreamActivity(listener, async () => {
        const result = streamText({
          model: o.handle.model,
          system: lastRound ? `${o.system}\n\n${answerNow(MAX_TOOL_ROUNDS)}` : o.system,
          messages,
          ...(tools ? { tools, toolChoice: offered ? undefined : ('none' as const) } : {}),
          abortSignal: o.signal ? AbortSignal.any([o.signal, stall.signal]) : stall.signal,
          // One request per model step: a retry would resend a turn the user sees as failed.
          maxRetries: 0,
          // Errors arrive as stream parts; without this the SDK also prints them, unredacted.
          onError: () => undefined,
        });
        for await (const part of result.fullStream) {
          heard();
          if (part.type === 'text-delta') {
            // Line breaks before any text (after a <think> block, say) are no part of the answer.
            const piece = text ? part.text : part.text.replace(/^[\r\n]+/, '');
            if (!piece) continue;
            roundText += piece;
            text += piece;
            o.onDelta(piece);
          } else if (part.type === 'reasoning-delta') {
            roundReasoning += part.text;
          } else if (part.type === 'tool-call') {
            // A string the SDK parsed is a JSON string: it goes on as the text the model sent, so
            // callTool can tell it from arguments that were no JSON (the SDK passes those as text).
            const parsedString = !('invalid' in part && part.invalid) && typeof part.input === 'string';
            calls.push({
              toolCallId: part.toolCallId,
              // `functions.read_skill_file`, `Read_Skill_File`: the offered tool meant (toolNames.ts).
              toolName: offered ? offeredToolName(part.toolName, Object.keys(tools)) : part.toolName,
              input: part.input,
              args: parsedString ? JSON.stringify(part.input) : part.input,
            });
          } else if (part.type === 'finish-step') {
            // A refusal the server finished with 'stop' is whole: the SDK calls it a content filter too.
            finish =
              part.finishReason === 'content-filter' && part.rawFinishReason === 'stop'
                ? 'stop'
                : part.finishReason;
            addReported(usage, part.usage);
          } else if (part.type === 'error') {
            // The last round's calls, from a server that ignores tool_choice none (Ollama): not run, no failure.
            if (ToolChoiceViolationError.isInstance(part.error)) {
              const withheld = part.error.content.filter((c) => c.type === 'tool-call');
              calls.push(
                ...withheld.map(({ toolCallId, toolName, input }) => ({
                  toolCallId,
                  toolName,
                  input,
                  args: input,
                })),
              );
            } else if (JSONParseError.isInstance(part.error) || TypeValidationError.isInstance(part.error))
              stray ??= message(part.error);
            else failure = message(part.error instanceof Error ? part.error : (errorEvent ?? part.error));
          }
        }
      });
    } catch (error) {
      failure = message(error);
    } finally {
      clearTimeout(silence);
    }
    // Text or calls came and the stream broke off before its finish, which carries the usage.
    if (finish === undefined && (roundText || roundReasoning || calls.length > 0)) usage.reported = false;
    const stalled = stall.signal.aborted && !o.signal?.aborted;
    if (stalled) {
      const seconds = Math.round(quiet.ms / 1000);
      const silent = `sent nothing ${roundText || text ? 'more ' : ''}${quiet.pings ? 'but keep-alive comments ' : ''}for ${seconds} s`;
      o.onStep({ ...modelStep, status: 'timeout', error: `The model ${silent}.` });
      const error = text
        ? `The model's response broke off: it ${silent}. What streamed before the break is kept.`
        : `The model did not answer: it ${silent}.`;
      return { text, usage, status: 'error', error, stalled: true };
    }
    // The provider reports a finish reason only when the server sent one after the stray line.
    if (stray && !failure && (!finish || finish === 'error' || finish === 'other')) failure = stray;
    if (o.signal?.aborted) {
      const timedOut = timeoutOf(o.signal);
      o.onStep({
        ...modelStep,
        ...(timedOut ? { status: 'timeout', error: timedOut } : { status: 'cancelled' }),
      });
      return { text, usage, status: 'cancelled', error: 'Stopped.' };
    }
    if (failure) {
      o.onStep({ ...modelStep, status: 'error', error: failure, ...retryAt });
      const reason = failure.replace(/[.\s]+$/, '');
      // Nothing came: the model did not answer (unreachable, refused); something came: it broke off.
      const error = text
        ? `The model's response broke off: ${reason}. What streamed before the break is kept.`
        : `The model did not answer: ${reason}.`;
      return { text, usage, status: 'error', error, ...(refused ? { refused: true as const } : {}) };
    }
    const ended = (error: string, full = `The model did not answer: ${error}`): LoopResult => {
      o.onStep({ ...modelStep, status: 'error', error });
      return { text, usage, status: 'error', error: full };
    };
    // Tool calls it was not offered (none here, or none left) are never run, and are no answer.
    const callTool = offered ? o.callTool : undefined;
    if (calls.length > 0 && !callTool && !roundText.trim() && tools) {
      const capped = `Stopped after ${MAX_TOOL_ROUNDS} tool rounds without a final answer.`;
      return ended(capped, capped);
    }
    if (calls.length === 0 || !callTool) {
      if (!text.trim())
        return ended(
          calls.length > 0
            ? `it asked for ${[...new Set(calls.map((c) => c.toolName))].join(', ')}, which it was not offered here, instead of answering.`
            : finish === 'content-filter'
              ? "the provider's content filter stopped its answer before any text."
              : // No text and no call (an empty reply): nothing to show as an answer.
                emptyAnswer(finish, roundReasoning),
        );
      const cut = CUT_NOTES[finish ?? ''];
      if (cut) {
        // The answer stops mid-sentence: say so where it stops, not only in a step.
        const note = `${text.endsWith('\n') ? '' : '\n\n'}_(${cut})_`;
        text += note;
        o.onDelta(note);
        o.onStep({ ...modelStep, status: 'success' });
        return { text, usage, status: 'success', cut: { finish: finish ?? '', note } };
      }
      o.onStep({ ...modelStep, status: 'success' });
      return { text, usage, status: 'success' };
    }
    // A model that answers each result with the same call again would run it every round. Counted
    // once a round: the same call made twice in one round has seen no result yet.
    const thisRound = new Set<string>();
    const looping = calls.find((c) => {
      const key = `${c.toolName}\u0000${typeof c.args === 'string' ? c.args : JSON.stringify(c.args)}`;
      if (thisRound.has(key)) return false;
      thisRound.add(key);
      const times = (repeats.get(key) ?? 0) + 1;
      repeats.set(key, times);
      return times >= REPEAT_LIMIT;
    });
    if (looping) {
      const stopped = `Stopped: the model called ${looping.toolName} with the same arguments ${REPEAT_LIMIT} times instead of answering.`;
      return ended(stopped, stopped);
    }
    o.onStep({ ...modelStep, status: 'success' });
    messages.push({
      role: 'assistant',
      content: [
        // DeepSeek's thinking mode answers a tool round sent back without its reasoning_content
        // with a 400, and Qwen3's template reads it; the OpenAI-compatible provider sends it as
        // reasoning_content (as the AI SDK does for its own loop), OpenAI's chat API leaves it out.
        ...(roundReasoning ? [{ type: 'reasoning' as const, text: roundReasoning }] : []),
        ...(roundText ? [{ type: 'text' as const, text: roundText }] : []),
        ...calls.map((c) => ({
          type: 'tool-call' as const,
          toolCallId: c.toolCallId,
          toolName: c.toolName,
          input: c.input ?? {},
        })),
      ],
    });
    const outputs = [];
    for (const [i, c] of calls.entries()) {
      const output =
        finish === 'length' && cutOff(c.args)
          ? cutCall(c.toolName, c.args, `${stepId}t${i}`, o)
          : await callTool(c.toolName, c.args, `${stepId}t${i}`);
      outputs.push({
        type: 'tool-result' as const,
        toolCallId: c.toolCallId,
        toolName: c.toolName,
        output: { type: 'json' as const, value: JSON.parse(JSON.stringify(output)) },
      });
    }
    messages.push({ role: 'tool', content: outputs });
    if (roundText && !text.endsWith('\n')) {
      text += '\n\n';
      o.onDelta('\n\n');
    }
  }
  // Unreachable: the last round offers no tools, so it returns above.
  return { text, usage, status: 'error', error: 'The model loop ended without an answer.' };
}
