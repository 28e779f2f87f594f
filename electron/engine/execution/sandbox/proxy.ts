import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  decideHost,
  normalizeHost,
  safeLookup,
  splitAuthority,
  type HostRules,
  type ProxyRefusal,
} from './hosts';

export interface AllowListProxyOptions extends HostRules {
  /** Listen on a unix socket in a fresh per-run folder (bwrap) or on a loopback TCP port (sandbox-exec). */
  listen: 'unix' | 'tcp';
  /** Called for each refused host, as it happens. */
  onRefused?: (host: string) => void;
}

export interface AllowListProxy {
  /** Set for `listen: 'unix'`: the socket, inside `dir`. */
  socketPath: string | null;
  /** The per-run folder holding the socket (bound into the sandbox), or null. */
  dir: string | null;
  /** Set for `listen: 'tcp'`: the loopback port. */
  port: number | null;
  /** Hosts refused so far, in order. */
  refusedHosts: string[];
  /** The same refusals with their reason. */
  refusals: ProxyRefusal[];
  /** Stops listening, cuts every open tunnel, removes the per-run folder. */
  close(): Promise<void>;
}

/**
 * Starts a per-run HTTP proxy (CONNECT for https, absolute-URI requests for http) that
 * forwards only to allow-listed hosts and answers 403 to every other one, logging it
 * (issue 7: "refuses every other host and logs what it refused"). One proxy per run, so
 * concurrent runs with different allow-lists never share a list.
 */
export async function startAllowListProxy(opts: AllowListProxyOptions): Promise<AllowListProxy> {
  const refusedHosts: string[] = [];
  const refusals: ProxyRefusal[] = [];
  const sockets = new Set<net.Socket>();
  const refuse = (refusal: ProxyRefusal): string => {
    refusedHosts.push(refusal.host);
    refusals.push(refusal);
    opts.onRefused?.(refusal.host);
    return refusal.reason === 'not_allowed'
      ? `SkillDeck sandbox: ${refusal.host} is not in this skill's network allow-list (${opts.allow.join(', ')})\n`
      : `SkillDeck sandbox: ${refusal.host} resolves to ${refusal.address}, on this machine or its local network, which the allow-list reaches only when the skill lists that address itself\n`;
  };
  const forward = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('SkillDeck sandbox: absolute URL expected\n');
      return;
    }
    if (target.protocol !== 'http:') {
      res
        .writeHead(400, { 'content-type': 'text/plain' })
        .end('SkillDeck sandbox: only http:// here; use CONNECT\n');
      return;
    }
    const host = normalizeHost(target.hostname);
    const to = await decideHost(host, Number(target.port || 80), opts);
    if (!to.ok) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end(refuse(to.refusal));
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const upstream = http.request(
      {
        host: to.host,
        port: to.port,
        method: req.method,
        path: target.pathname + target.search,
        headers,
        lookup: safeLookup,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`SkillDeck sandbox: ${host}: ${error.message}\n`);
    });
    req.pipe(upstream);
  };
  const server = http.createServer((req, res) => {
    forward(req, res).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(`SkillDeck sandbox: ${error.message}\n`);
    });
  });

  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    // The sandboxed script writes this request: nothing in it may throw into the engine's
    // event loop (a CONNECT to port 99999 crashed the whole CLI as an unhandled rejection).
    tunnel(req, client, head).catch((error: Error) => {
      if (client.writable) client.end(badRequest(error.message));
      client.destroy();
    });
  });
  const tunnel = async (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const { host: rawHost, port } = splitAuthority(req.url ?? '', 443);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      client.end(badRequest(`port ${port} is out of range`));
      return;
    }
    const host = normalizeHost(rawHost);
    const to = await decideHost(host, port, opts);
    if (!to.ok) {
      const body = refuse(to.refusal);
      client.end(
        `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      return;
    }
    const upstream = net.connect({ port: to.port, host: to.host, lookup: safeLookup }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', (error) => {
      if (client.writable)
        client.end(`HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n${error.message}\n`);
      client.destroy();
    });
  };
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  let dir: string | null = null;
  let socketPath: string | null = null;
  if (opts.listen === 'unix') {
    // 0700: only the engine's user (and the sandbox it starts) can reach this proxy.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldeck-proxy-'));
    fs.chmodSync(dir, 0o700);
    socketPath = path.join(dir, 'proxy.sock');
    await listen(server, socketPath);
  } else {
    await listen(server, { host: '127.0.0.1', port: 0 });
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : null;

  return {
    socketPath,
    dir,
    port,
    refusedHosts,
    refusals,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => server.close(() => done()));
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function badRequest(why: string): string {
  const body = `SkillDeck sandbox: ${why}\n`;
  return `HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

function listen(server: http.Server, where: string | net.ListenOptions): Promise<void> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    const ready = () => {
      server.off('error', fail);
      done();
    };
    if (typeof where === 'string') server.listen(where, ready);
    else server.listen(where, ready);
  });
}
