// What the scripted model server sends, byte for byte in OpenAI's shapes: the SSE chunks of
// a streamed chat completion, a non-streamed completion, and deterministic embeddings.

/** One tool call the scripted model makes. */
export interface ScriptedToolCall {
  /** Default `call_<request>_<n>`. */
  id?: string;
  name: string;
  /** JSON text (sent as is, even malformed) or an object (stringified). Streamed in 3 pieces. */
  arguments: string | Record<string, unknown>;
  /** Stream `name: ""` first and the name with the second piece of arguments, as some vLLM models do. */
  nameLate?: true;
  /** Send `arguments` as the JSON object itself, in one piece, not as its text (some servers do). */
  objectArguments?: true;
  /** Stream the name in two pieces, the second with the first piece of arguments (some servers split it). */
  nameSplit?: true;
}

/** One scripted answer to a `/v1/chat/completions` request. */
export interface ScriptedReply {
  /** The answer; an array gives the exact pieces it streams in (default: word by word). */
  text?: string | string[];
  toolCalls?: ScriptedToolCall[];
  /** Default `tool_calls` when there are tool calls, else `stop`; null: no chunk carries one (`[DONE]` still ends the stream). */
  finishReason?: 'stop' | 'length' | 'tool_calls' | 'content_filter' | null;
  /** No usage chunk even when asked for one (many local servers send none). */
  noUsage?: true;
  /** The usage chunk has no `choices` field at all (OpenAI sends `choices: []`). */
  usageWithoutChoices?: true;
  /** Default: about one token per 4 characters of the request's messages and of the answer. */
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Milliseconds before each streamed chunk (before the body when not streamed). */
  delayMs?: number;
  /** Destroy the socket after this many chunks past the role chunk: a stream dropped mid-way. */
  dropAfter?: number;
  /**
   * Pause after this many chunks past the role chunk until the test calls the server's
   * `release()` (or POSTs `/__script/release`): a half-streamed answer stays on screen for as
   * long as the test looks at it, however slow the machine.
   */
  holdAfter?: number;
  /**
   * After this many chunks past the role chunk, an error event (`data: {"error": {…}}`, as
   * OpenAI and vLLM send when a stream fails on the server) and the end of the stream. `type`
   * null leaves it out and `code` is sent as given (OpenRouter sends `code: 429` and `metadata`);
   * `onChunk` puts the error on a chunk with `finish_reason: "error"`, as OpenRouter does.
   */
  errorAfter?: {
    chunks: number;
    message: string;
    type?: string | null;
    code?: string | number | null;
    metadata?: Record<string, unknown>;
    onChunk?: true;
  };
  /**
   * After this many chunks past the role chunk, one `data:` line that is no chunk (not JSON, or
   * JSON of another shape), as some servers and proxies send; the stream then carries on.
   */
  strayAfter?: { chunks: number; data: string };
  /** Keep the connection open after `[DONE]` instead of ending the response, as some proxies do. */
  openAfterDone?: true;
  /** Answer with one JSON completion even when asked to stream, as some proxies and old servers do. */
  ignoreStream?: true;
  /** The non-streamed `content` as a list of text parts (`[{ type: 'text', text }]`), as some servers send it. */
  contentParts?: true;
  /** The model refuses: `refusal` carries this (streamed in pieces), `content` stays empty. */
  refusal?: string;
  /**
   * A second choice (index 1) beside the first, as a server that ignores `n` may send; streamed
   * right after the first choice's role chunk.
   */
  secondChoice?: { text?: string; toolCalls?: ScriptedToolCall[] };
  /** Keep-alive comments (`: ping`) before the first chunk, as OpenRouter sends while a model works. */
  keepAlive?: { everyMs: number; count: number };
  /** Thinking streamed before the text, as DeepSeek (`reasoning_content`) or OpenRouter (`reasoning`) send it. */
  reasoning?: { text: string; field?: 'reasoning_content' | 'reasoning' };
  /** Answer 200 with this text as an `application/json` body instead of a completion (a gateway's error, a wrong URL). */
  body?: string;
  /** The content type `body` is sent with (default application/json). */
  bodyType?: string;
  /**
   * Answer with this HTTP status and OpenAI's error JSON instead; `retryAfter` is sent as the
   * Retry-After header.
   */
  error?: {
    status: number;
    message: string;
    type?: string;
    code?: string | null;
    retryAfter?: string;
    /** Send this as a text/html body instead of the JSON (a proxy's error page). */
    html?: string;
  };
}

/** An OpenAI chat message as requests carry it. */
export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content?: string | null | Array<{ type: string; text?: string }>;
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  /** An assistant's thinking sent back (DeepSeek's field). */
  reasoning_content?: string;
}

/** The body of a `/v1/chat/completions` request, as received. */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  tools?: Array<{ type: 'function'; function: { name: string; description?: string; parameters?: unknown } }>;
  [field: string]: unknown;
}

/** A message's text, whether `content` is a string or a list of parts. */
export function messageText(message: ChatMessage): string {
  if (typeof message.content === 'string') return message.content;
  return (message.content ?? []).map((part) => part.text ?? '').join('');
}

/**
 * Everything a request told the model, as one string: each message's role and text, tool
 * calls and tool results. For assertions like "the first request holds skill A's body and
 * no other skill's".
 */
export function requestText(request: ChatRequest): string {
  return request.messages
    .map((message) => {
      const calls = (message.tool_calls ?? []).map((c) => `${c.function.name}(${c.function.arguments})`);
      return [`[${message.role}]`, messageText(message), ...calls].filter(Boolean).join(' ');
    })
    .join('\n');
}

export const openAiError = (status: number, message: string, type?: string, code?: string | null) => ({
  error: {
    message,
    type:
      type ??
      (status === 401 ? 'invalid_request_error' : status >= 500 ? 'server_error' : 'invalid_request_error'),
    param: null,
    code: code ?? (status === 401 ? 'invalid_api_key' : null),
  },
});

const tokens = (text: string) => Math.ceil(text.length / 4);

/** Word-sized pieces that keep their whitespace, so joining them gives the text back. */
export const textPieces = (text: string | string[] | undefined): string[] =>
  Array.isArray(text) ? text : (text?.match(/\s*\S+\s*/g) ?? (text ? [text] : []));

function splitInThree(text: string): string[] {
  if (text.length < 3) return [text];
  const third = Math.ceil(text.length / 3);
  return [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)];
}

interface ResolvedCall {
  id: string;
  name: string;
  arguments: string;
  nameLate?: true;
  nameSplit?: true;
  /** What goes on the wire as `arguments` when it is not the text (objectArguments). */
  wire?: Record<string, unknown>;
}

const resolveCalls = (reply: ScriptedReply, index: number): ResolvedCall[] =>
  (reply.toolCalls ?? []).map((call, n) => ({
    id: call.id ?? `call_${index}_${n}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    ...(call.nameLate && { nameLate: call.nameLate }),
    ...(call.nameSplit && { nameSplit: call.nameSplit }),
    ...(call.objectArguments && typeof call.arguments === 'object' && { wire: call.arguments }),
  }));

function usageOf(reply: ScriptedReply, request: ChatRequest, calls: ResolvedCall[]) {
  const answer = textPieces(reply.text).join('') + calls.map((c) => c.name + c.arguments).join('');
  const usage = reply.usage ?? {
    prompt_tokens: tokens(JSON.stringify(request.messages ?? [])),
    completion_tokens: tokens(answer),
  };
  return { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
}

const finishOf = (reply: ScriptedReply, calls: ResolvedCall[]) =>
  reply.finishReason === undefined ? (calls.length > 0 ? 'tool_calls' : 'stop') : reply.finishReason;

/** The `data:` payloads of a streamed completion, in order, `[DONE]` last. */
export function streamChunks(reply: ScriptedReply, request: ChatRequest, index: number): string[] {
  const calls = resolveCalls(reply, index);
  const withUsage = request.stream_options?.include_usage === true;
  const base = {
    id: `chatcmpl-scripted-${index}`,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    system_fingerprint: 'fp_scripted',
  };
  // OpenAI sends `usage: null` on every chunk but the last when usage was asked for.
  const chunk = (delta: object, finishReason: string | null = null) =>
    JSON.stringify({
      ...base,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(withUsage && { usage: null }),
    });
  const chunks = [chunk({ role: 'assistant', content: '', refusal: null })];
  if (reply.secondChoice) chunks.push(...secondChoiceChunks(reply.secondChoice, index, base));
  if (reply.reasoning) {
    const { text, field = 'reasoning_content' } = reply.reasoning;
    for (const piece of textPieces(text)) chunks.push(chunk({ [field]: piece }));
  }
  for (const piece of textPieces(reply.text)) chunks.push(chunk({ content: piece }));
  for (const piece of textPieces(reply.refusal)) chunks.push(chunk({ refusal: piece }));
  calls.forEach((call, n) => {
    if (call.wire) {
      const whole = {
        index: n,
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.wire },
      };
      return void chunks.push(chunk({ tool_calls: [whole] }));
    }
    chunks.push(
      chunk({
        tool_calls: [
          {
            index: n,
            id: call.id,
            type: 'function',
            function: {
              name: call.nameLate
                ? ''
                : call.nameSplit
                  ? call.name.slice(0, call.name.length >> 1)
                  : call.name,
              arguments: '',
            },
          },
        ],
      }),
    );
    for (const [p, piece] of splitInThree(call.arguments).entries()) {
      const name =
        call.nameLate && p === 1
          ? { name: call.name }
          : call.nameSplit && p === 0
            ? { name: call.name.slice(call.name.length >> 1) }
            : {};
      chunks.push(chunk({ tool_calls: [{ index: n, function: { ...name, arguments: piece } }] }));
    }
  });
  chunks.push(chunk({}, finishOf(reply, calls)));
  if (reply.strayAfter) chunks.splice(1 + reply.strayAfter.chunks, 0, reply.strayAfter.data);
  const usage = usageOf(reply, request, calls);
  if (withUsage && !reply.noUsage)
    chunks.push(
      JSON.stringify(reply.usageWithoutChoices ? { ...base, usage } : { ...base, choices: [], usage }),
    );
  chunks.push('[DONE]');
  return chunks;
}

/** The chunks of choice 1 (secondChoice): its text, its calls whole, its finish. */
function secondChoiceChunks(second: NonNullable<ScriptedReply['secondChoice']>, index: number, base: object) {
  const calls = resolveCalls({ toolCalls: second.toolCalls }, index).map((call, n) => ({
    index: n,
    id: `${call.id}_b`,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  const of = (delta: object, finish: string | null = null) =>
    JSON.stringify({ ...base, choices: [{ index: 1, delta, logprobs: null, finish_reason: finish }] });
  return [
    of({ role: 'assistant', content: second.text ?? '' }),
    ...(calls.length > 0 ? [of({ tool_calls: calls })] : []),
    of({}, calls.length > 0 ? 'tool_calls' : 'stop'),
  ];
}

/** A non-streamed `chat.completion` body. */
export function completionBody(reply: ScriptedReply, request: ChatRequest, index: number) {
  const calls = resolveCalls(reply, index);
  const text = textPieces(reply.text).join('');
  return {
    id: `chatcmpl-scripted-${index}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    system_fingerprint: 'fp_scripted',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.contentParts
            ? [{ type: 'text', text }]
            : text || (calls.length > 0 || reply.refusal ? null : ''),
          refusal: reply.refusal ?? null,
          ...(calls.length > 0 && {
            tool_calls: calls.map((call) => ({
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: call.wire ?? call.arguments },
            })),
          }),
        },
        logprobs: null,
        finish_reason: finishOf(reply, calls),
      },
    ],
    usage: usageOf(reply, request, calls),
  };
}

/** Lower-case words; CJK runs count one token per character, so `发票` shares tokens with `开发票`. */
export function embeddingTokens(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.flatMap((word) =>
    /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(word)
      ? [...word]
      : [word],
  );
}

/** FNV-1a, 32-bit: stable across runs and machines. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

/**
 * A hashed bag of words, L2-normalized: texts sharing words have a cosine similarity
 * above texts sharing none (0 unless two words collide in `dimensions` buckets).
 */
export function hashEmbedding(text: string, dimensions = 64): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const token of embeddingTokens(text)) vector[fnv1a(token) % dimensions] += 1;
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((value) => value / norm);
}

/** How `/v1/embeddings` answers, in shapes other servers send. */
export interface EmbeddingShape {
  /** Milliseconds before the answer. */
  delayMs?: number;
  /** Answer with this HTTP status and OpenAI's error JSON instead. */
  error?: { status: number; message: string };
  /**
   * `empty`: `data: []`; `fewer`: one vector less than texts asked (none for one text);
   * `mixedDimensions`: the n-th vector has `dimensions + n` numbers; `reversed`: the vectors
   * last first, each with its own `index`, as the API allows.
   */
  data?: 'empty' | 'fewer' | 'mixedDimensions' | 'reversed';
}

/** A `/v1/embeddings` body for `input` (a string or a list), in float or base64 encoding. */
export function embeddingsBody(
  input: string | string[],
  model: string,
  dimensions: number,
  base64: boolean,
  shape?: EmbeddingShape['data'],
) {
  const texts = Array.isArray(input) ? input : [input];
  const all = texts.map((text, index) => {
    const vector = hashEmbedding(text, dimensions + (shape === 'mixedDimensions' ? index : 0));
    return {
      object: 'embedding',
      index,
      embedding: base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
    };
  });
  const data =
    shape === 'empty'
      ? []
      : shape === 'fewer'
        ? all.slice(0, -1)
        : shape === 'reversed'
          ? all.reverse()
          : all;
  const promptTokens = texts.reduce((sum, text) => sum + embeddingTokens(text).length, 0);
  return { object: 'list', data, model, usage: { prompt_tokens: promptTokens, total_tokens: promptTokens } };
}
