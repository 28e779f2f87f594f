import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './fixtures';
import { hashEmbedding, requestText, startModelServer, type ModelServer } from './modelServer';

// The wire format itself, read raw: what any OpenAI client (not only the AI SDK) would see.
let server: ModelServer;
const root = tempDir();

beforeAll(async () => {
  server = await startModelServer({
    models: ['m1', 'm2'],
    rules: [
      { when: { lastRole: 'tool' }, reply: { text: 'Done with the tool.' } },
      { when: { contains: 'invoice' }, reply: { text: 'Invoices!' } },
    ],
  });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const post = (pathname: string, body: unknown, base = server.url) =>
  fetch(`${base}${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** The parsed `data:` payloads of an SSE body, `[DONE]` kept as a string. */
async function sse(response: Response): Promise<unknown[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => {
      expect(frame.startsWith('data: ')).toBe(true);
      const data = frame.slice('data: '.length);
      return data === '[DONE]' ? data : (JSON.parse(data) as unknown);
    });
}

/** A response body, typed by the test that reads it. */
const json = async <T>(response: Response | Promise<Response>) => (await (await response).json()) as T;
type Completion = { choices: Array<{ message: { content: string | null } }> };
type Embeddings = { data: Array<{ embedding: number[] }> };

const chat = (content: string, extra: object = {}) => ({
  model: 'm1',
  messages: [{ role: 'user', content }],
  ...extra,
});

describe('chat completions', () => {
  it('streams role, content, tool calls in pieces, finish, usage and [DONE] as OpenAI does', async () => {
    server.enqueue({
      text: 'Reading.',
      toolCalls: [
        { name: 'read_skill_file', arguments: { path: 'SKILL.md' } },
        { id: 'call_x', name: 'list_skill_files', arguments: '{}' },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 4 },
    });
    const response = await post(
      '/v1/chat/completions',
      chat('go', { stream: true, stream_options: { include_usage: true } }),
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const frames = await sse(response);
    type Chunk = {
      choices: Array<{ delta: Record<string, unknown>; finish_reason: string | null }>;
      usage: unknown;
    };
    const chunks = frames.slice(0, -1) as Chunk[];
    expect(frames.at(-1)).toBe('[DONE]');
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '', refusal: null });
    expect(chunks[1].choices[0].delta).toEqual({ content: 'Reading.' });
    const calls = chunks.flatMap(
      (c) => (c.choices[0]?.delta.tool_calls as Array<Record<string, never>>) ?? [],
    );
    expect(calls[0]).toEqual({
      index: 0,
      id: `call_${server.chatRequests().length - 1}_0`,
      type: 'function',
      function: { name: 'read_skill_file', arguments: '' },
    });
    const args = (index: number) =>
      calls.filter((c) => c.index === index).map((c) => (c.function as { arguments: string }).arguments);
    expect(args(0).length).toBeGreaterThan(2);
    expect(args(0).join('')).toBe('{"path":"SKILL.md"}');
    expect(calls.find((c) => c.index === 1 && c.id)).toMatchObject({ id: 'call_x' });
    expect(chunks.at(-2)!.choices[0]).toMatchObject({ delta: {}, finish_reason: 'tool_calls' });
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 },
    });
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
  });

  it('answers without streaming, picks replies by rule, and says when nothing is scripted', async () => {
    const plain = await json<Completion>(post('/v1/chat/completions', chat('my invoice')));
    expect(plain).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { role: 'assistant', content: 'Invoices!' }, finish_reason: 'stop' }],
      usage: { total_tokens: expect.any(Number) },
    });
    const afterTool = chat('x', {
      messages: [
        { role: 'user', content: 'x' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 't', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c', content: '{}' },
      ],
    });
    expect((await json<Completion>(post('/v1/chat/completions', afterTool))).choices[0].message.content).toBe(
      'Done with the tool.',
    );
    expect(requestText(server.chatRequests().at(-1)!)).toBe('[user] x\n[assistant] t({})\n[tool] {}');
    const none = await post('/v1/chat/completions', chat('unrelated'));
    expect(none.status).toBe(500);
    expect((await json<{ error: { message: string } }>(none)).error.message).toMatch(
      /no reply for chat request #\d+/,
    );
  });

  it('sends scripted HTTP errors as OpenAI error JSON, and uses the handler first', async () => {
    server.enqueue({ error: { status: 503, message: 'Overloaded.' } });
    const failed = await post('/v1/chat/completions', chat('x'));
    expect(failed.status).toBe(503);
    expect(await failed.json()).toEqual({
      error: { message: 'Overloaded.', type: 'server_error', param: null, code: null },
    });
    server.setHandler((request, index) => ({ text: `#${index} ${request.messages.length}` }));
    const handled = await json<Completion>(post('/v1/chat/completions', chat('x')));
    expect(handled.choices[0].message.content).toBe(`#${server.chatRequests().length - 1} 1`);
    server.setHandler(null);
  });

  it('holds a stream after holdAfter chunks until released, and keeps a release made early', async () => {
    server.enqueue({ text: ['one ', 'two ', 'three'], holdAfter: 1 });
    const response = await post('/v1/chat/completions', chat('x', { stream: true }));
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = '';
    while (!seen.includes('"one "')) seen += (await reader.read()).value;
    // Nothing more comes until the release, however long the test looks.
    const next = reader.read();
    expect(await Promise.race([next.then(() => 'more'), sleep(300).then(() => 'held')])).toBe('held');
    await post('/__script/release', {});
    for (let part = await next; !part.done; part = await reader.read()) seen += part.value;
    expect(seen).toContain('"three"');
    expect(seen.trimEnd().endsWith('data: [DONE]')).toBe(true);

    server.release();
    server.enqueue({ text: ['early ', 'release'], holdAfter: 1 });
    const early = await sse(await post('/v1/chat/completions', chat('x', { stream: true })));
    expect(early.at(-1)).toBe('[DONE]');
  });
});

describe('models and embeddings', () => {
  it('lists its models', async () => {
    const listed = await json<{ data: Array<{ id: string }> }>(fetch(`${server.baseURL}/models`));
    expect(listed.data.map((m) => m.id)).toEqual(['m1', 'm2']);
  });

  it('embeds deterministically, in float or base64', async () => {
    const input = ['sort invoices', 'invoices by month'];
    const floats = await json<Embeddings>(post('/v1/embeddings', { model: 'e', input }));
    expect(floats.data[1].embedding).toEqual(hashEmbedding('invoices by month'));
    const encoded = await json<{ data: Array<{ embedding: string }> }>(
      post('/v1/embeddings', { model: 'e', input, encoding_format: 'base64' }),
    );
    const bytes = Buffer.from(encoded.data[0].embedding, 'base64');
    const decoded = Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4));
    decoded.forEach((value, i) => expect(value).toBeCloseTo(floats.data[0].embedding[i], 6));
    // CJK is one token per character: 发票 shares both characters with 开发票.
    const cos = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i], 0);
    expect(cos(hashEmbedding('开发票'), hashEmbedding('发票'))).toBeGreaterThan(0.8);
  });
});

it('runs as a process from a JSON script, records requests, and takes more replies over HTTP', async () => {
  const script = path.join(root, 'script.json');
  const record = path.join(root, 'requests.jsonl');
  fs.writeFileSync(
    script,
    JSON.stringify({ apiKey: 'k', replies: [{ text: 'first' }], fallback: { text: 'again' } }),
  );
  const child = spawn(
    process.execPath,
    [path.join(__dirname, '../../scripts/model-server.mjs'), '--record', record, script],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  try {
    const [line] = await new Promise<string[]>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', (l) => resolve([l]));
      child.once('exit', (code) => reject(new Error(`model server exited with ${code}`)));
    });
    const { baseURL, url } = JSON.parse(line) as { baseURL: string; url: string };
    const ask = () =>
      fetch(`${baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body: JSON.stringify(chat('hi')),
      }).then((r) => json<Completion>(r));
    expect((await ask()).choices[0].message.content).toBe('first');
    expect((await ask()).choices[0].message.content).toBe('again');
    await post('/__script/replies', [{ text: 'queued later' }], url);
    expect((await ask()).choices[0].message.content).toBe('queued later');
    const unauthorized = await fetch(`${baseURL}/models`);
    expect(unauthorized.status).toBe(401);
    const recorded = fs
      .readFileSync(record, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(recorded.map((r) => r.path)).toEqual([...Array(3).fill('/v1/chat/completions'), '/v1/models']);
    expect(await json<unknown[]>(fetch(`${url}/__script/requests`))).toHaveLength(4);
  } finally {
    child.kill('SIGTERM');
  }
});
