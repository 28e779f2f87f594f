import { rewriteSseLines } from './sseLines';

interface Chunk {
  choices?: Array<{
    finish_reason?: unknown;
    delta?: { tool_calls?: Array<{ function?: { arguments?: unknown } }> };
  }>;
  error?: unknown;
  [field: string]: unknown;
}

/** A choice index other than 0 outside a string (a string's quotes come escaped): another choice, maybe. */
const OTHER_CHOICE = /(?<!\\)"index"\s*:\s*[1-9]/;

/**
 * An OpenAI-style event stream in the shape the AI SDK reads, from servers that shape it their
 * own way (a scripted grader, gateways, small local servers); each of these failed a turn whose
 * answer had arrived whole:
 * - a chunk without `choices` (the usage chunk, for some) gets `choices: []`: the SDK dropped it
 *   as malformed, and the turn reported 0 tokens;
 * - tool-call `arguments` sent as the JSON value instead of its text are sent as the text: the
 *   SDK dropped the chunk, and with it the call;
 * - only the first choice is kept (the first `index` seen): a server that ignores `n` and sends
 *   more had their texts run together into one answer and every choice's tool calls run;
 * - a stream that ends with `[DONE]` although no chunk said why it finished gets a finish chunk
 *   just before it (`tool_calls` when it called tools, else `stop`): the SDK called that stream
 *   broken ("ended without a finish reason"). `[DONE]` is the server saying it is complete; a
 *   stream that just stops, with neither, still counts as broken off.
 * Every other line passes as it came, byte for byte, up to `[DONE]`, where the stream ends. A
 * server's error event also goes, whole, to `onErrorEvent` (see errorEventListener).
 */
export function completeChunks(
  body: ReadableStream<Uint8Array>,
  onErrorEvent?: (event: object) => void,
): ReadableStream<Uint8Array> {
  let finished = false;
  let calledTools = false;
  let last: Chunk = {};
  let kept: unknown;
  // What a body without a single event said (a web server's greeting labelled text/plain), to say.
  let events = false;
  let stray = '';
  const rewrite = (line: string): string[] => {
    if (!line.startsWith('data:')) {
      if (!events && stray.length < 300 && !/^(?::|event:|id:|retry:)/.test(line)) stray += ` ${line.trim()}`;
      return [line];
    }
    events = true;
    const data = line.slice(5).trim();
    if (data === '[DONE]') {
      if (finished) return [line];
      finished = true;
      const { id, created, model } = last;
      const reason = calledTools ? 'tool_calls' : 'stop';
      const chunk = { id, object: 'chat.completion.chunk', created, model };
      const choices = [{ index: 0, delta: {}, finish_reason: reason }];
      // An event of its own: the blank line ends it before [DONE].
      return [`data: ${JSON.stringify({ ...chunk, choices })}`, '', line];
    }
    // Parse only what may need a change or says something: a long text delta passes unread.
    const telling =
      ['"tool_calls"', '"finish_reason"', '"error"'].some((key) => data.includes(key)) ||
      OTHER_CHOICE.test(data);
    if (data.includes('"choices"') && !telling) return [line];
    let chunk: Chunk;
    try {
      chunk = JSON.parse(data) as Chunk;
    } catch {
      return [line];
    }
    if (!chunk || typeof chunk !== 'object' || Array.isArray(chunk)) return [line];
    // A server's error event ends the answer as it is: no finish is made up after it.
    if (chunk.error != null) {
      finished = true;
      if (typeof chunk.error === 'object') onErrorEvent?.(chunk.error);
      return [line];
    }
    last = chunk;
    let changed = false;
    if (!Array.isArray(chunk.choices)) {
      chunk.choices = [];
      changed = true;
    }
    const choiceIndex = (choice: unknown) => (choice as { index?: unknown } | null)?.index ?? 0;
    kept ??= chunk.choices.length > 0 ? choiceIndex(chunk.choices[0]) : undefined;
    const others = chunk.choices.filter((choice) => choiceIndex(choice) !== kept);
    if (others.length > 0) {
      chunk.choices = chunk.choices.filter((choice) => choiceIndex(choice) === kept);
      changed = true;
    }
    for (const choice of chunk.choices) {
      if (choice?.finish_reason != null) finished = true;
      const deltas = choice?.delta?.tool_calls;
      if (!Array.isArray(deltas) || deltas.length === 0) continue;
      calledTools = true;
      for (const delta of deltas) {
        const args = delta?.function?.arguments;
        if (args === undefined || args === null || typeof args === 'string') continue;
        delta.function!.arguments = JSON.stringify(args);
        changed = true;
      }
    }
    return [changed ? `data: ${JSON.stringify(chunk)}` : line];
  };
  // Not one event in the whole body: an error event saying what came, where the SDK said only
  // that the stream had no finish reason.
  const flush = () => {
    if (events || !stray.trim()) return [];
    const message = notACompletionBody(stray);
    return [`data: ${JSON.stringify({ error: { message } })}`, ''];
  };
  // `[DONE]` ends the stream (OpenAI's protocol): a proxy that keeps the connection open after it
  // held a whole answer until the stall limit, then called it broken off.
  return rewriteSseLines(body, rewrite, flush, (line) => /^data:\s*\[DONE\]\s*$/.test(line));
}

/**
 * A 200 body that holds no completion, in a sentence: the error it carries in its own words (an
 * `{"error": …}` body, as gateways send under any content type), else its start.
 */
export function notACompletionBody(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const said = typeof body?.error === 'string' ? body.error : (body?.error?.message ?? body?.message);
    if (body?.error && typeof said === 'string' && said.trim())
      return `it answered 200 with an error: ${said.trim().slice(0, 500)}`;
  } catch {
    // Not JSON at all: said below.
  }
  const snippet = text.replace(/\s+/g, ' ').trim().slice(0, 300) || '(nothing)';
  return `it answered 200 with a body that is no chat completion: ${snippet}`;
}
