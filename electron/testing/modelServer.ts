import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  completionBody,
  embeddingsBody,
  type EmbeddingShape,
  messageText,
  openAiError,
  streamChunks,
  type ChatMessage,
  type ChatRequest,
  type ScriptedReply,
} from './modelServerReplies';

export * from './modelServerReplies';

/** A reply picked by what the request holds, for scripts that cannot say a request's order. */
export interface ScriptRule {
  when: {
    /** The last message's text contains this (case-sensitive). */
    contains?: string;
    /** The last message's role, e.g. `tool` after a tool result came back. */
    lastRole?: ChatMessage['role'];
  };
  reply: ScriptedReply;
}

/** Everything a JSON script file (the standalone server) can say. */
export interface ModelScript {
  /** Answers in order, one per chat request. */
  replies?: ScriptedReply[];
  /** Tried in order once `replies` ran out. */
  rules?: ScriptRule[];
  /** The answer when nothing else applies; without it such a request gets a 500 that says so. */
  fallback?: ScriptedReply;
  /** What `/v1/models` lists. Default `["scripted-model"]`; null: no such route (404, like some servers). */
  models?: string[] | null;
  /** When set, every request must carry `Authorization: Bearer <apiKey>` or gets OpenAI's 401. */
  apiKey?: string;
  /** Length of `/v1/embeddings` vectors. Default 64. */
  embeddingDimensions?: number;
  /** How `/v1/embeddings` answers when not as OpenAI does (see EmbeddingShape). */
  embeddings?: EmbeddingShape;
}

/** Picks the reply to chat request number `index` (0-based); wins over replies and rules. */
export type ReplyHandler = (request: ChatRequest, index: number) => ScriptedReply | Promise<ScriptedReply>;

export interface ModelServerOptions extends ModelScript {
  handler?: ReplyHandler;
  /** Called with each request as it is recorded (the standalone server's `--record`). */
  onRequest?: (request: RecordedRequest) => void;
  /** Default 0: a free port. */
  port?: number;
}

/** One request as received, for tests to assert what was sent. */
export interface RecordedRequest {
  method: string;
  /** The path without the query. */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON, or the raw text when it was not JSON. */
  body: unknown;
}

export interface ModelServer {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** `http://127.0.0.1:PORT/v1`: what `OPENAI_BASE_URL` / a provider's base URL should be. */
  readonly baseURL: string;
  /** Every request received, in order (control requests under `/__script/` excluded). */
  readonly requests: RecordedRequest[];
  /** The bodies of the `/v1/chat/completions` requests, in order. */
  chatRequests(): ChatRequest[];
  /** Queue more replies. */
  enqueue(...replies: ScriptedReply[]): void;
  /** Set (or with null, remove) the handler. */
  setHandler(handler: ReplyHandler | null): void;
  /** Lets one stream held by `holdAfter` go on: the one waiting longest, else the next to be held. */
  release(): void;
  close(): Promise<void>;
}

const sendJson = (res: http.ServerResponse, status: number, body: unknown, retryAfter?: string) => {
  res.writeHead(status, {
    'content-type': 'application/json',
    ...(retryAfter ? { 'retry-after': retryAfter } : {}),
  });
  res.end(JSON.stringify(body));
};

async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * An OpenAI-compatible server on 127.0.0.1 that tests script (issue 8): streamed and
 * non-streamed `/v1/chat/completions`, `/v1/models`, `/v1/embeddings`, HTTP errors, slow
 * chunks and streams dropped mid-way. The engine talks to it as to any provider.
 */
export async function startModelServer(options: ModelServerOptions = {}): Promise<ModelServer> {
  const queue = [...(options.replies ?? [])];
  let handler = options.handler ?? null;
  const requests: RecordedRequest[] = [];
  const chats: ChatRequest[] = [];
  const models = options.models === undefined ? ['scripted-model'] : options.models;
  const dimensions = options.embeddingDimensions ?? 64;
  const sockets = new Set<Socket>();
  // `holdAfter` streams wait here; a release that comes before its stream is kept for it.
  const held: Array<() => void> = [];
  let releases = 0;
  const hold = () => {
    if (releases === 0) return new Promise<void>((resolve) => held.push(resolve));
    releases -= 1;
    return Promise.resolve();
  };
  const release = () => {
    const next = held.shift();
    if (next) next();
    else releases += 1;
  };

  const pick = async (request: ChatRequest, index: number): Promise<ScriptedReply> => {
    if (handler) return handler(request, index);
    const queued = queue.shift();
    if (queued) return queued;
    const last = request.messages.at(-1);
    const rule = options.rules?.find(
      ({ when }) =>
        (when.contains === undefined || (last !== undefined && messageText(last).includes(when.contains))) &&
        (when.lastRole === undefined || last?.role === when.lastRole),
    );
    return (
      rule?.reply ??
      options.fallback ?? {
        error: { status: 500, message: `The scripted model server has no reply for chat request #${index}.` },
      }
    );
  };

  const chat = async (req: http.IncomingMessage, res: http.ServerResponse, body: unknown) => {
    const request = body as ChatRequest;
    if (!request || typeof request !== 'object' || !Array.isArray(request.messages)) {
      return sendJson(res, 400, openAiError(400, "'messages' is a required property"));
    }
    const index = chats.push(request) - 1;
    const reply = await pick(request, index);
    if (reply.error) {
      if (reply.delayMs) await sleep(reply.delayMs);
      const { status, message, type, code, retryAfter, html } = reply.error;
      if (html !== undefined) {
        res.writeHead(status, { 'content-type': 'text/html' });
        return void res.end(html);
      }
      return sendJson(res, status, openAiError(status, message, type, code), retryAfter);
    }
    if (reply.body !== undefined) {
      res.writeHead(200, { 'content-type': reply.bodyType ?? 'application/json' });
      return void res.end(reply.body);
    }
    if (!request.stream || reply.ignoreStream) {
      if (reply.delayMs) await sleep(reply.delayMs);
      if (reply.dropAfter !== undefined) return void req.socket.destroy();
      return sendJson(res, 200, completionBody(reply, request, index));
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    const chunks = streamChunks(reply, request, index);
    for (let n = 0; reply.keepAlive && n < reply.keepAlive.count && !res.destroyed; n++) {
      await sleep(reply.keepAlive.everyMs);
      res.write(': ping\n\n');
    }
    for (const [n, data] of chunks.entries()) {
      if (reply.holdAfter !== undefined && n === reply.holdAfter + 1) await hold();
      if (reply.delayMs) await sleep(reply.delayMs);
      // The client went away (Stop, a timeout): stop writing, as a real server would.
      if (res.destroyed) return;
      if (reply.dropAfter !== undefined && n > reply.dropAfter) return void req.socket.destroy();
      if (reply.errorAfter && n > reply.errorAfter.chunks) {
        const { message, type = 'server_error', code = null, metadata, onChunk } = reply.errorAfter;
        const error = {
          message,
          ...(type === null ? {} : { type }),
          param: null,
          code,
          ...(metadata ? { metadata } : {}),
        };
        const choices = [{ index: 0, delta: { content: '' }, finish_reason: 'error' }];
        const event = onChunk
          ? { id: `chatcmpl-${index}`, object: 'chat.completion.chunk', error, choices }
          : { error };
        res.write(`data: ${JSON.stringify(event)}\n\n`);
        return void res.end();
      }
      // Wait for the bytes to leave, so a drop comes after what was sent, as on a real network.
      await new Promise<void>((resolve) => res.write(`data: ${data}\n\n`, () => resolve()));
    }
    // The socket stays until the client lets it go, or close() destroys it.
    if (!reply.openAfterDone) res.end();
  };

  const control = async (req: http.IncomingMessage, res: http.ServerResponse, pathname: string) => {
    if (req.method === 'GET' && pathname === '/__script/requests') return sendJson(res, 200, requests);
    if (req.method === 'POST' && pathname === '/__script/replies') {
      const body = await readBody(req);
      const replies = (Array.isArray(body) ? body : [body]) as ScriptedReply[];
      queue.push(...replies);
      return sendJson(res, 200, { queued: queue.length });
    }
    if (req.method === 'POST' && pathname === '/__script/release') {
      release();
      return sendJson(res, 200, { held: held.length });
    }
    sendJson(res, 404, openAiError(404, `Unknown control path ${pathname}.`));
  };

  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '');
    if (pathname.startsWith('/__script/')) return void control(req, res, pathname);
    void (async () => {
      const body = await readBody(req);
      const recorded = { method: req.method ?? 'GET', path: pathname, headers: req.headers, body };
      requests.push(recorded);
      options.onRequest?.(recorded);
      if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
        const message = req.headers.authorization
          ? 'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.'
          : "You didn't provide an API key.";
        return sendJson(res, 401, openAiError(401, message));
      }
      // With or without the `/v1` prefix: some users give the server root as base URL.
      const route = pathname.replace(/^\/v1(?=\/)/, '');
      if (req.method === 'POST' && route === '/chat/completions') return chat(req, res, body);
      if (req.method === 'GET' && route === '/models' && models) {
        const data = models.map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'scripted' }));
        return sendJson(res, 200, { object: 'list', data });
      }
      if (req.method === 'POST' && route === '/embeddings') {
        const { input, model, encoding_format } = (body ?? {}) as Record<string, unknown>;
        if (typeof input !== 'string' && !Array.isArray(input)) {
          return sendJson(res, 400, openAiError(400, "'input' is a required property"));
        }
        const shape = options.embeddings ?? {};
        if (shape.delayMs) await sleep(shape.delayMs);
        if (shape.error)
          return sendJson(res, shape.error.status, openAiError(shape.error.status, shape.error.message));
        const encoded = embeddingsBody(
          input as string[],
          String(model),
          dimensions,
          encoding_format === 'base64',
          shape.data,
        );
        return sendJson(res, 200, encoded);
      }
      sendJson(
        res,
        404,
        openAiError(404, `Unknown path ${req.method} ${pathname}.`, 'invalid_request_error'),
      );
    })().catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, openAiError(500, String(error)));
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseURL: `${url}/v1`,
    requests,
    chatRequests: () => [...chats],
    enqueue: (...replies) => void queue.push(...replies),
    setHandler: (next) => void (handler = next),
    release,
    close: () =>
      new Promise<void>((resolve) => {
        for (const resolveHeld of held.splice(0)) resolveHeld();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
