import dns from 'node:dns/promises';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Where the proxy sends an allowed host's traffic (tests map `allowed.test` to a local server). */
export type ResolveHost = (
  host: string,
  port: number,
) => { host: string; port: number } | Promise<{ host: string; port: number }>;

/** One refused request: a host off the list, or a listed name that resolved to this machine or the link. */
export interface ProxyRefusal {
  host: string;
  reason: 'not_allowed' | 'local_address';
  /** The address a listed name resolved to (for `local_address`). */
  address?: string;
}

export interface AllowListProxyOptions {
  /** Hosts the run may reach: `example.com`, `*.example.com` (subdomains only). */
  allow: string[];
  /** Listen on a unix socket in a fresh per-run folder (bwrap) or on a loopback TCP port (sandbox-exec). */
  listen: 'unix' | 'tcp';
  /**
   * Overrides name resolution (tests). By default the proxy resolves each name once and
   * connects to that address, refusing loopback and link-local answers.
   */
  resolveHost?: ResolveHost;
  /** The DNS lookup behind the default resolution (tests stand in a rebinding answer). */
  lookup?: (host: string) => Promise<string>;
  /** Names pinned in the hosts file (tests stand in their own). */
  hostsFile?: () => Set<string>;
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

/** True when `host` is on `allow` (case-insensitive; `*.example.com` matches its subdomains). */
export function hostAllowed(host: string, allow: string[]): boolean {
  const h = normalizeHost(host);
  return allow.some((entry) => {
    const e = normalizeHost(entry);
    if (e.startsWith('*.')) return h.endsWith(e.slice(1)) && h.length > e.length - 1;
    return h === e;
  });
}

function normalizeHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[(.*)\]$/, '$1');
}

/** `host:port` of a CONNECT target; IPv6 in brackets. */
function splitAuthority(authority: string, defaultPort: number): { host: string; port: number } {
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(authority) ?? /^([^:]+)(?::(\d+))?$/.exec(authority);
  if (!m) return { host: authority, port: defaultPort };
  return { host: m[1], port: m[2] ? Number(m[2]) : defaultPort };
}

/**
 * This machine and the link (cloud metadata at 169.254.169.254): a listed name that
 * resolves here (DNS rebinding) would reach the user's local services from the sandbox.
 */
const LOCAL = new net.BlockList();
LOCAL.addSubnet('127.0.0.0', 8, 'ipv4');
LOCAL.addSubnet('0.0.0.0', 8, 'ipv4');
LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LOCAL.addAddress('::1', 'ipv6');
LOCAL.addAddress('::', 'ipv6');
LOCAL.addSubnet('fe80::', 10, 'ipv6');

/** Names the machine's owner pinned in /etc/hosts (read per proxy start: a run is short). */
function staticHosts(): Set<string> {
  const names = new Set<string>();
  try {
    for (const line of fs.readFileSync('/etc/hosts', 'utf8').split('\n')) {
      const fields = line.replace(/#.*/, '').trim().split(/\s+/);
      for (const name of fields.slice(1)) if (name) names.add(name.toLowerCase());
    }
  } catch {
    // No hosts file: nothing pinned.
  }
  return names;
}

function isLocal(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return LOCAL.check(mapped[1], 'ipv4');
  return LOCAL.check(address, net.isIPv6(address) ? 'ipv6' : 'ipv4');
}

type Decision = { ok: true; host: string; port: number } | { ok: false; refusal: ProxyRefusal };

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
      : `SkillDeck sandbox: ${refusal.host} resolves to ${refusal.address}, on this machine or its link, which the allow-list never reaches\n`;
  };
  const decide = async (host: string, port: number): Promise<Decision> => {
    if (!hostAllowed(host, opts.allow)) return { ok: false, refusal: { host, reason: 'not_allowed' } };
    if (opts.resolveHost) return { ok: true, ...(await opts.resolveHost(host, port)) };
    // Resolved once here and connected by address, so a second DNS answer cannot swap it.
    let address = host;
    if (!net.isIP(host)) {
      try {
        address = opts.lookup ? await opts.lookup(host) : (await dns.lookup(host)).address;
      } catch {
        return { ok: true, host, port }; // let the connect report the DNS failure
      }
    }
    // Listed literally as an address or `localhost`, or pinned in /etc/hosts by the machine's
    // owner (a test server, a dev box): not a remote DNS answer, so not rebinding.
    const literal =
      opts.allow.some((e) => normalizeHost(e) === host) &&
      (net.isIP(host) !== 0 || host === 'localhost' || (opts.hostsFile ?? staticHosts)().has(host));
    if (isLocal(address) && !literal)
      return { ok: false, refusal: { host, reason: 'local_address', address } };
    return { ok: true, host: address, port };
  };

  const server = http.createServer(async (req, res) => {
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
    const to = await decide(host, Number(target.port || 80));
    if (!to.ok) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end(refuse(to.refusal));
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const upstream = http.request(
      { host: to.host, port: to.port, method: req.method, path: target.pathname + target.search, headers },
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
  });

  server.on('connect', async (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const { host: rawHost, port } = splitAuthority(req.url ?? '', 443);
    const host = normalizeHost(rawHost);
    const to = await decide(host, port);
    if (!to.ok) {
      const body = refuse(to.refusal);
      client.end(
        `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      return;
    }
    const upstream = net.connect(to.port, to.host, () => {
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
  });
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
