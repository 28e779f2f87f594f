import dnsCallback, { type LookupAddress, type LookupOptions } from 'node:dns';
import dns from 'node:dns/promises';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';

// The allow-list proxy's decisions, apart from its sockets (proxy.ts): which host a run may
// reach and where its traffic really goes.

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

/** What a run may reach, and how names are resolved. */
export interface HostRules {
  /** Hosts the run may reach: `example.com`, `*.example.com` (subdomains only). */
  allow: string[];
  /**
   * Overrides name resolution (tests). By default the proxy resolves each name once and
   * connects to that address, refusing loopback and link-local answers.
   */
  resolveHost?: ResolveHost;
  /** The DNS lookup behind the default resolution (tests stand in a rebinding answer). */
  lookup?: (host: string) => Promise<string>;
  /** Names pinned in the hosts file (tests stand in their own). */
  hostsFile?: () => Set<string>;
}

/** Where to connect, or why not. */
export type HostDecision = { ok: true; host: string; port: number } | { ok: false; refusal: ProxyRefusal };

/** True when `host` is on `allow` (case-insensitive; `*.example.com` matches its subdomains). */
export function hostAllowed(host: string, allow: string[]): boolean {
  const h = normalizeHost(host);
  return allow.some((entry) => {
    const e = normalizeHost(entry);
    if (e.startsWith('*.')) return h.endsWith(e.slice(1)) && h.length > e.length - 1;
    return h === e;
  });
}

/** Lower case, no trailing dot, IPv6 without brackets: the form hosts are compared in. */
export function normalizeHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[(.*)\]$/, '$1');
}

/** `host:port` of a CONNECT target; IPv6 in brackets. */
export function splitAuthority(authority: string, defaultPort: number): { host: string; port: number } {
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

/** The local network: private, shared (carrier NAT) and unique-local addresses (RFC 1918, 6598, 4193). */
const PRIVATE = new net.BlockList();
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');

/** An address on the local network (not this machine: see isLocal), IPv4-mapped IPv6 included. */
export function isPrivate(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1], 'ipv4');
  const family = net.isIP(address);
  return family !== 0 && PRIVATE.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * Whether an allow-list entry names this machine or its local network: `localhost` and its
 * subdomains, an address there, or a name the machine's owner pinned in /etc/hosts (which the
 * proxy lets reach local addresses). What listens there (a model server without a key, a
 * database that trusts local connections) is the user's, not the internet's.
 */
export function namesLocalHost(entry: string, hostsFile: () => Set<string> = staticHosts): boolean {
  const host = normalizeHost(entry).replace(/^\*\./, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (net.isIP(host) !== 0) return isLocal(host) || isPrivate(host);
  return hostsFile().has(host);
}

/** Names the machine's owner pinned in /etc/hosts (read per proxy start: a run is short). */
export function staticHosts(file = '/etc/hosts'): Set<string> {
  const names = new Set<string>();
  try {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      const fields = line.replace(/#.*/, '').trim().split(/\s+/);
      for (const name of fields.slice(1)) if (name) names.add(name.toLowerCase());
    }
  } catch {
    // No hosts file: nothing pinned.
  }
  return names;
}

/**
 * This machine's own addresses (192.0.2.2 on its LAN): a name that resolves to one reaches every
 * service listening on 0.0.0.0 here, like 127.0.0.1 does.
 */
function ownAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(os.networkInterfaces()))
    for (const a of list ?? []) out.add(a.address.toLowerCase().replace(/%.*$/, ''));
  return out;
}

/** An address on this machine or its link, IPv4-mapped IPv6 included. */
export function isLocal(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const plain = mapped ? mapped[1] : address.toLowerCase();
  if (ownAddresses().has(plain)) return true;
  if (mapped) return LOCAL.check(mapped[1], 'ipv4');
  return LOCAL.check(address, net.isIPv6(address) ? 'ipv6' : 'ipv4');
}

/**
 * dns.lookup for the proxy's own connections, refusing a local answer: when the proxy's first
 * lookup failed it connects by name, and a second answer must not swap in this machine.
 */
export function safeLookup(
  hostname: string,
  options: LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  dnsCallback.lookup(hostname, { ...options, all: false }, (err, address, family) => {
    if (err) return callback(err, '', 0);
    if (isLocal(address) || isPrivate(address)) {
      const refused: NodeJS.ErrnoException = new Error(
        `${hostname} resolves to ${address}, an address on this machine or its local network`,
      );
      refused.code = 'ELOCAL';
      return callback(refused, '', 0);
    }
    if (options.all) return callback(null, [{ address, family }]);
    callback(null, address, family);
  });
}

/**
 * Where a request for `host:port` (normalized) goes: refused when off the list; otherwise
 * resolved once and connected by address, so a second DNS answer cannot swap it, and
 * refused when a name resolves to this machine, its link or its local network (DNS rebinding).
 */
export async function decideHost(host: string, port: number, rules: HostRules): Promise<HostDecision> {
  if (!hostAllowed(host, rules.allow)) return { ok: false, refusal: { host, reason: 'not_allowed' } };
  if (rules.resolveHost) return { ok: true, ...(await rules.resolveHost(host, port)) };
  let address = host;
  if (!net.isIP(host)) {
    try {
      address = rules.lookup ? await rules.lookup(host) : (await dns.lookup(host)).address;
    } catch {
      return { ok: true, host, port }; // let the connect report the DNS failure
    }
  }
  // Listed literally as an address or `localhost`, or pinned in /etc/hosts by the machine's
  // owner (a test server, a dev box): not a remote DNS answer, so not rebinding.
  const literal =
    rules.allow.some((e) => normalizeHost(e) === host) &&
    (net.isIP(host) !== 0 || host === 'localhost' || (rules.hostsFile ?? staticHosts)().has(host));
  if ((isLocal(address) || isPrivate(address)) && !literal)
    return { ok: false, refusal: { host, reason: 'local_address', address } };
  return { ok: true, host: address, port };
}
