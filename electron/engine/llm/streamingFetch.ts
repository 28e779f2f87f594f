import { htmlPage, overloaded, rateLimitHeaders } from './errors';
import { errorEventListener, tapped } from './streamActivity';
import { completeChunks, notACompletionBody } from './streamShapes';
import { nameToolCalls } from './unnamedToolCalls';

/**
 * `fetch` for OpenAI-style chat endpoints that accepts a server which ignores `stream: true` and
 * answers with one JSON completion (some proxies, gateways and older local servers do). The AI
 * SDK reads only an event stream there and failed with "Response stream ended without a finish
 * reason"; the completion is replayed as the two chunks a streaming server would have sent.
 * A 200 whose JSON is no completion (a gateway's error, a wrong URL) is an error that says what
 * came, where the SDK said only that the stream had no finish reason. An error status passes
 * untouched. Any other body is read as a stream (some servers label theirs text/plain) in the
 * shape the SDK expects (see completeChunks), and tool calls that come without a name are
 * named, so the SDK does not drop the reply over them.
 */
export const streamingFetch: typeof fetch = async (input, init) => {
  const onErrorEvent = errorEventListener();
  const normalized = (r: Response) => normalize(r, onErrorEvent);
  const response = tapped(await fetch(input, init));
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || !asksToStream(init?.body)) return response;
  // A web page where the API was expected (a base URL without /v1 reaching a web UI, a login
  // portal): said as a page; the SDK read it as a stream and said it had no finish reason.
  if (type.includes('text/html')) {
    const text = await response.text();
    const refusal = notACompletion(text);
    if (refusal) throw new Error(refusal);
    return normalized(new Response(text, { status: response.status, headers: response.headers }));
  }
  if (!type.includes('application/json')) return normalized(response);
  const text = await response.text();
  const chunks = chunksOf(text);
  const headers = new Headers(response.headers);
  if (!chunks) {
    // A rate limit sent as a 200 (some gateways): the 429 it is, so it is said and waited for as one.
    const limited = rateLimitHeaders(jsonOf(text));
    if (limited) {
      for (const [name, value] of Object.entries(limited)) if (!headers.has(name)) headers.set(name, value);
      return new Response(text, { status: 429, statusText: 'Too Many Requests', headers });
    }
    // Likewise an overloaded server's error as a 200: the 529 Anthropic sends for it.
    if (overloaded(jsonOf(text)))
      return new Response(text, { status: 529, statusText: 'Overloaded', headers });
    const refusal = notACompletion(text);
    if (refusal) throw new Error(refusal);
    // An event stream labelled as JSON: read as the stream it is.
    return normalized(new Response(text, { status: response.status, headers }));
  }
  headers.set('content-type', 'text/event-stream');
  headers.delete('content-length');
  const sse = [...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n'].join('');
  return normalized(new Response(sse, { status: response.status, headers }));
};

/** What a 200 body that is neither a completion nor an event stream said, in a sentence; null for a stream. */
function notACompletion(text: string): string | null {
  if (/^\s*(data|event|id|retry)?:/m.test(text)) return null;
  const page = htmlPage(text);
  if (page)
    return `it answered 200 with ${page}, not a chat completion: check the base URL (it usually ends in /v1)`;
  return notACompletionBody(text);
}

/** The same response, its chunks in the SDK's shape and its tool calls all named. */
function normalize(response: Response, onErrorEvent?: (event: object) => void): Response {
  if (!response.body) return response;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(nameToolCalls(completeChunks(response.body, onErrorEvent)), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function asksToStream(body: unknown): boolean {
  if (typeof body !== 'string') return false;
  try {
    return (JSON.parse(body) as { stream?: unknown }).stream === true;
  } catch {
    return false;
  }
}

interface Completion {
  id?: string;
  created?: number;
  model?: string;
  usage?: unknown;
  choices?: {
    message?: {
      content?: string | Array<{ type?: string; text?: unknown }> | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      refusal?: string | null;
      tool_calls?: { id?: string; type?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
  }[];
}

/** The stream chunks of a chat completion, or null when the body is no completion. */
function chunksOf(text: string): object[] | null {
  let body: Completion;
  try {
    body = JSON.parse(text) as Completion;
  } catch {
    return null;
  }
  const choice = body?.choices?.[0];
  if (!choice?.message || typeof choice.message !== 'object') return null;
  const { reasoning_content, reasoning, refusal, tool_calls } = choice.message;
  // Content as a list of parts (some servers send it so): its text parts, in order.
  const content = Array.isArray(choice.message.content)
    ? choice.message.content
        .map((part) => ((part?.type ?? 'text') === 'text' && typeof part?.text === 'string' ? part.text : ''))
        .join('')
    : choice.message.content;
  const thought = reasoning_content || reasoning;
  const head = {
    id: body.id ?? 'chatcmpl',
    object: 'chat.completion.chunk',
    created: body.created,
    model: body.model,
  };
  const delta = {
    role: 'assistant',
    ...(typeof content === 'string' && content ? { content } : {}),
    ...(typeof thought === 'string' && thought ? { reasoning_content: thought } : {}),
    // A refusal streams as `refusal`, which the SDK shows as the answer's text.
    ...(typeof refusal === 'string' && refusal ? { refusal } : {}),
    ...(Array.isArray(tool_calls) && tool_calls.length > 0
      ? { tool_calls: tool_calls.map((call, index) => ({ index, type: 'function', ...call })) }
      : {}),
  };
  return [
    { ...head, choices: [{ index: 0, delta, finish_reason: null }] },
    {
      ...head,
      choices: [
        {
          index: 0,
          delta: {},
          finish_reason:
            choice.finish_reason ??
            (Array.isArray(tool_calls) && tool_calls.length > 0 ? 'tool_calls' : 'stop'),
        },
      ],
      ...(body.usage ? { usage: body.usage } : {}),
    },
  ];
}
