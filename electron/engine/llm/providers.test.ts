import { generateText, jsonSchema, stepCountIs, streamText, tool, type LanguageModel } from 'ai';
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../testing/modelServer';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { describeModelError } from './errors';
import { fetchModelIds } from './connection';
import { createChatModel } from './providers';

// The real AI SDK providers against the scripted server over loopback HTTP: what the agent
// loop will see, chunk by chunk. Nothing of ours is mocked.
let server: ModelServer;
const KEY = 'sk-test-0123456789abcdef';

beforeAll(async () => {
  server = await startModelServer({ apiKey: KEY });
});
afterAll(() => server.close());
beforeEach(() => server.setHandler(null));

const compatible = (): LanguageModel =>
  createChatModel({ provider: 'openai-compatible', baseURL: server.baseURL, apiKey: KEY }, 'scripted-model');
const context = () => ({ baseURL: server.baseURL, hasKey: true, apiKey: KEY });

/** Every part of a stream, and the error that ended it, if one did (a dropped stream throws). */
async function drain(stream: AsyncIterable<{ type: string }>) {
  const parts: Array<{ type: string; [key: string]: unknown }> = [];
  let thrown: unknown;
  try {
    for await (const part of stream) parts.push(part);
  } catch (error) {
    thrown = error;
  }
  const text = parts.flatMap((p) => (p.type === 'text-delta' ? [p.text as string] : []));
  return { parts, text, thrown, errors: parts.filter((p) => p.type === 'error').map((p) => p.error) };
}

describe.each([
  ['openai-compatible', () => compatible()],
  [
    'openai (chat completions)',
    () => createChatModel({ provider: 'openai', baseURL: server.baseURL, apiKey: KEY }, 'gpt-4o-mini'),
  ],
])('%s against the scripted server', (_name, model) => {
  it('streams the answer in pieces and reports usage', async () => {
    server.enqueue({ text: 'Invoices sorted by month.', usage: { prompt_tokens: 21, completion_tokens: 6 } });
    const result = streamText({ model: model(), prompt: 'sort my invoices', maxRetries: 0 });
    const { text, thrown } = await drain(result.fullStream);
    expect(thrown).toBeUndefined();
    expect(text).toEqual(['Invoices ', 'sorted ', 'by ', 'month.']);
    expect(await result.text).toBe('Invoices sorted by month.');
    const usage = await result.totalUsage;
    expect({ input: usage.inputTokens, output: usage.outputTokens }).toEqual({ input: 21, output: 6 });
    const sent = server.chatRequests().at(-1)!;
    expect(sent).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('runs a tool-call round trip: arguments arrive assembled, the result goes back', async () => {
    server.enqueue(
      {
        text: 'Let me read it.',
        toolCalls: [{ id: 'call_read', name: 'read_skill_file', arguments: { path: 'references/api.md' } }],
      },
      { text: 'The API takes a date.' },
    );
    const seen: unknown[] = [];
    const result = streamText({
      model: model(),
      prompt: 'what does the API take?',
      maxRetries: 0,
      stopWhen: stepCountIs(4),
      tools: {
        read_skill_file: tool({
          description: 'Read a file of the skill.',
          inputSchema: jsonSchema<{ path: string }>({
            type: 'object',
            properties: { path: { type: 'string' } },
            required: ['path'],
            additionalProperties: false,
          }),
          execute: async (input) => {
            seen.push(input);
            return { text: '# API\nTakes a date.' };
          },
        }),
      },
    });
    const { parts, thrown } = await drain(result.fullStream);
    expect(thrown).toBeUndefined();
    // Streamed in pieces by the server, handed over whole.
    expect(parts.filter((p) => p.type === 'tool-input-delta').length).toBeGreaterThan(1);
    expect(seen).toEqual([{ path: 'references/api.md' }]);
    expect(await result.text).toBe('The API takes a date.');
    const [first, second] = server.chatRequests().slice(-2);
    expect(first.tools?.map((t) => t.function.name)).toEqual(['read_skill_file']);
    expect(second.messages.at(-2)).toMatchObject({
      role: 'assistant',
      tool_calls: [
        { id: 'call_read', function: { name: 'read_skill_file', arguments: '{"path":"references/api.md"}' } },
      ],
    });
    expect(second.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_read' });
    expect(JSON.parse(second.messages.at(-1)!.content as string)).toEqual({ text: '# API\nTakes a date.' });
  });

  it('takes a server that answers one JSON completion though asked to stream: text, tool calls, usage', async () => {
    server.enqueue({
      text: 'Reading it.',
      toolCalls: [{ id: 'call_ls', name: 'list_skill_files', arguments: {} }],
      usage: { prompt_tokens: 9, completion_tokens: 4 },
      ignoreStream: true,
    });
    const result = streamText({
      model: model(),
      prompt: 'list the files',
      maxRetries: 0,
      onError: () => undefined,
    });
    const { parts, thrown, errors } = await drain(result.fullStream);
    expect(thrown).toBeUndefined();
    expect(errors).toEqual([]);
    expect(server.chatRequests().at(-1)).toMatchObject({ stream: true });
    expect(await result.text).toBe('Reading it.');
    expect(parts.find((p) => p.type === 'tool-call')).toMatchObject({
      toolCallId: 'call_ls',
      toolName: 'list_skill_files',
    });
    expect(await result.finishReason).toBe('tool-calls');
    expect((await result.totalUsage).inputTokens).toBe(9);
  });
});

describe('failures', () => {
  it('gives an HTTP error a clear message with the server’s words, the key redacted', async () => {
    server.enqueue({ error: { status: 429, message: 'Rate limit reached for requests.' } });
    const result = streamText({ model: compatible(), prompt: 'hi', maxRetries: 0, onError: () => undefined });
    const { errors } = await drain(result.fullStream);
    const info = describeModelError(errors[0], context());
    expect(info).toMatchObject({ kind: 'http', status: 429 });
    expect(info.message).toBe(
      `429: ${server.baseURL} is rate-limiting requests (Rate limit reached for requests.); wait and retry.`,
    );
    // With Retry-After, it says how long.
    server.enqueue({ error: { status: 429, message: 'Slow down.', retryAfter: '20' } });
    const limited = streamText({
      model: compatible(),
      prompt: 'hi',
      maxRetries: 0,
      onError: () => undefined,
    });
    expect(describeModelError((await drain(limited.fullStream)).errors[0], context()).message).toBe(
      `429: ${server.baseURL} is rate-limiting requests (Slow down.); it asks to wait 20 s before retrying.`,
    );

    // A server that echoes the key in its error: the message never carries it.
    server.enqueue({ error: { status: 401, message: `Incorrect API key provided: ${KEY}.` } });
    await expect(generateText({ model: compatible(), prompt: 'hi', maxRetries: 0 })).rejects.toSatisfy(
      (error) => {
        const refused = describeModelError(error, context());
        expect(refused.kind).toBe('unauthorized');
        expect(refused.message).toBe(
          `401: the key was refused by ${server.baseURL} (Incorrect API key provided: ***.).`,
        );
        return true;
      },
    );
  });

  it('keeps the text streamed before a dropped connection and says the connection dropped', async () => {
    server.enqueue({ text: 'one two three four five', dropAfter: 3, delayMs: 5 });
    const result = streamText({
      model: compatible(),
      prompt: 'count',
      maxRetries: 0,
      onError: () => undefined,
    });
    const { text, thrown, errors } = await drain(result.fullStream);
    expect(text.join('')).toBe('one two three ');
    const info = describeModelError(thrown ?? errors[0], context());
    expect(info.kind).toBe('dropped');
    expect(info.message).toBe(`The connection to ${server.baseURL} dropped mid-answer (other side closed).`);
  });

  it('says a closed port refused the connection, through the SDK’s retries', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const baseURL = `http://127.0.0.1:${port}/v1`;
    const model = createChatModel({ provider: 'openai-compatible', baseURL, apiKey: undefined }, 'm');
    const result = streamText({ model, prompt: 'hi', maxRetries: 1, onError: () => undefined });
    const { errors } = await drain(result.fullStream);
    expect(describeModelError(errors[0], { baseURL, hasKey: false })).toEqual({
      kind: 'unreachable',
      message: `Could not reach ${baseURL}: connection refused.`,
    });
  });

  it('says a server that took the request and then went quiet did not answer in time', async () => {
    // Node's fetch waits minutes by default; the same client with short limits (undici checks them
    // about once a second) shows what it says.
    await fetch(server.url).catch(() => undefined);
    const global = (globalThis as Record<symbol, unknown>)[Symbol.for('undici.globalDispatcher.1')];
    type Dispatcher = new (o: { headersTimeout: number; bodyTimeout: number }) => object;
    const Agent = (global as { constructor: Dispatcher }).constructor;
    const quiet = (limits: { headersTimeout: number; bodyTimeout: number }): LanguageModel => {
      const dispatcher = new Agent(limits);
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: server.baseURL,
        apiKey: KEY,
        fetch: (url, init) => fetch(url, { ...init, dispatcher } as RequestInit),
      }).chatModel('scripted-model');
    };
    for (const [limits, said] of [
      [{ headersTimeout: 200, bodyTimeout: 5000 }, 'sent no answer in time'],
      [{ headersTimeout: 5000, bodyTimeout: 200 }, 'stopped sending mid-answer'],
    ] as const) {
      server.enqueue({ text: 'one two three', delayMs: 2000 });
      const result = streamText({
        model: quiet(limits),
        prompt: 'hi',
        maxRetries: 0,
        onError: () => undefined,
      });
      const { thrown, errors } = await drain(result.fullStream);
      const info = describeModelError(thrown ?? errors[0], context());
      expect(info.kind, said).toBe('timeout');
      expect(info.message).toContain(`${server.baseURL} ${said}`);
    }
  });

  it('stops a slow stream when the caller aborts, keeping what arrived', async () => {
    server.enqueue({ text: 'a b c d e f g h', delayMs: 40 });
    const controller = new AbortController();
    const result = streamText({
      model: compatible(),
      prompt: 'slow',
      maxRetries: 0,
      abortSignal: controller.signal,
    });
    const text: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') text.push(part.text);
      if (text.length === 2) controller.abort();
    }
    expect(text).toEqual(['a ', 'b ']);
  });
});

it('lists Anthropic models with Anthropic’s own auth headers', async () => {
  const open = await startModelServer({ models: ['claude-b', 'claude-a'] });
  try {
    const listed = await fetchModelIds({ provider: 'anthropic', baseURL: open.baseURL, apiKey: 'sk-ant-x' });
    expect(listed).toEqual({ ok: true, ids: ['claude-a', 'claude-b'] });
    expect(open.requests[0].headers).toMatchObject({
      'x-api-key': 'sk-ant-x',
      'anthropic-version': '2023-06-01',
    });
    expect(open.requests[0].headers.authorization).toBeUndefined();
  } finally {
    await open.close();
  }
});
