import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { MAX_MESSAGE_BYTES, WireRequest, type WireMessage } from '../../shared/rpc';
import type { RpcServer } from '../rpc/server';
import { isAllowedHost, isAllowedOrigin, tokenMatches } from './guard';
import { serveStatic } from './static';

export interface HostOptions {
  rpc: RpcServer;
  /** The built renderer (`dist/renderer`). */
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Fixed token for tests; random otherwise. */
  token?: string;
  /** One more Origin allowed to connect (the Vite dev server in `npm run dev:web`). */
  devOrigin?: string;
}

export interface Host {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

function refuse(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** Browser mode (`skilldeck serve`): the renderer over HTTP and the contract over WebSocket, loopback only. */
export async function startHost(options: HostOptions): Promise<Host> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const rendererDir = path.resolve(options.rendererDir);
  let port = 0;

  const server = http.createServer((req, res) => {
    if (!isAllowedHost(req.headers.host, port)) {
      res
        .writeHead(403, { 'Content-Type': 'text/plain' })
        .end('Forbidden: SkillDeck only answers on 127.0.0.1.');
      return;
    }
    void serveStatic(rendererDir, req, res);
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/rpc') return refuse(socket, 404, 'Not Found');
    if (!isAllowedHost(req.headers.host, port)) return refuse(socket, 403, 'Forbidden');
    const origin = req.headers.origin;
    const devOriginOk = !!options.devOrigin && origin === options.devOrigin;
    if (!devOriginOk && !isAllowedOrigin(origin, port)) return refuse(socket, 403, 'Forbidden');
    if (!tokenMatches(url.searchParams.get('token'), token)) return refuse(socket, 401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  const send = (ws: WebSocket, message: WireMessage) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };

  wss.on('connection', (ws) => {
    // DESIGN §4: a lost connection is a deny (after the reload grace), so each socket counts.
    ws.once('close', options.rpc.attachAnswerer());
    // ws closes the socket itself (1009 for an oversized frame); without a listener the
    // 'error' event would crash the whole host.
    ws.on('error', () => undefined);
    ws.on('message', (data: RawData, isBinary: boolean) => {
      void onMessage(ws, data, isBinary);
    });
  });

  async function onMessage(ws: WebSocket, data: RawData, isBinary: boolean): Promise<void> {
    const invalid = (message: string, id: number | string | null = null) =>
      send(ws, { type: 'response', id, ok: false, error: { code: 'invalid_message', message } });
    if (isBinary) return invalid('Binary messages are not accepted; send JSON text.');
    let json: unknown;
    try {
      json = JSON.parse(data.toString());
    } catch {
      return invalid('Message is not valid JSON.');
    }
    const parsed = WireRequest.safeParse(json);
    if (!parsed.success) {
      const id = (json as { id?: unknown })?.id;
      return invalid(
        'Message must be {"type":"request","id":number|string,"method":string,"input":object}.',
        typeof id === 'number' || typeof id === 'string' ? id : null,
      );
    }
    const response = await options.rpc.handle(parsed.data.method, parsed.data.input);
    send(ws, { type: 'response', id: parsed.data.id, ...response });
  }

  const unsubscribe = options.rpc.subscribe((name, payload) => {
    for (const client of wss.clients) send(client, { type: 'event', name, payload });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    async close() {
      unsubscribe();
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
