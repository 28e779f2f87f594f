import { timingSafeEqual } from 'node:crypto';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Split `host:port` (or `[::1]:port`) into its parts; null when malformed or without a port
 * (the host never listens on port 80, the only one a browser leaves out).
 */
function splitHost(value: string): { host: string; port: string } | null {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+):(\d{1,5})$/i.exec(value.trim());
  return match ? { host: match[1].toLowerCase(), port: match[2] } : null;
}

/**
 * DNS rebinding defence: a page on evil.example that resolves to 127.0.0.1 still sends
 * `Host: evil.example`, so only loopback names on our own port are served.
 */
export function isAllowedHost(hostHeader: string | undefined, port: number): boolean {
  if (!hostHeader) return false;
  const parts = splitHost(hostHeader);
  return !!parts && LOOPBACK_HOSTS.has(parts.host) && parts.port === String(port);
}

/** A WebSocket from a browser always carries Origin; only our own loopback origin may connect. */
export function isAllowedOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true; // non-browser clients (CLI tools, tests) send none
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return url.protocol === 'http:' && isAllowedHost(url.host, port);
}

/** Constant-time token comparison. */
export function tokenMatches(given: string | null, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
