import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../testing/fixtures';
import {
  namesLocalHost,
  decideHost,
  hostAllowed,
  isLocal,
  safeLookup,
  normalizeHost,
  splitAuthority,
  staticHosts,
  type HostRules,
} from './hosts';

// The allow-list proxy's rules, one input at a time (proxy.test.ts drives them through real
// sockets): which host a sandboxed run may reach, and where its traffic really goes.
describe('hostAllowed', () => {
  it('matches hosts exactly, case-insensitively, and *.domain for subdomains only', () => {
    expect(hostAllowed('API.example.com.', ['api.example.com'])).toBe(true);
    expect(hostAllowed('api.example.com', [' API.Example.COM. '])).toBe(true);
    expect(hostAllowed('a.b.example.com', ['*.example.com'])).toBe(true);
    expect(hostAllowed('x.example.com', ['*.EXAMPLE.com'])).toBe(true);
    expect(hostAllowed('example.com', ['*.example.com'])).toBe(false);
    expect(hostAllowed('.example.com', ['*.example.com'])).toBe(false);
    expect(hostAllowed('evilexample.com', ['*.example.com'])).toBe(false);
    expect(hostAllowed('example.com.evil.test', ['example.com'])).toBe(false);
    expect(hostAllowed('api.example.com', ['example.com'])).toBe(false);
    expect(hostAllowed('127.0.0.1', ['example.com'])).toBe(false);
    expect(hostAllowed('[::1]', ['::1'])).toBe(true);
    expect(hostAllowed('::1', ['[::1]'])).toBe(true);
  });

  it('refuses everything for an empty list, and checks every entry of a longer one', () => {
    expect(hostAllowed('example.com', [])).toBe(false);
    expect(hostAllowed('b.test', ['a.test', 'b.test'])).toBe(true);
    expect(hostAllowed('c.test', ['a.test', 'b.test'])).toBe(false);
  });
});

describe('normalizeHost', () => {
  it('trims, lowercases, drops one trailing dot and IPv6 brackets', () => {
    expect(normalizeHost('  Example.COM.  ')).toBe('example.com');
    expect(normalizeHost('example.com..')).toBe('example.com.');
    expect(normalizeHost('[FE80::1]')).toBe('fe80::1');
    expect(normalizeHost('x[::1]')).toBe('x[::1]');
    expect(normalizeHost('[::1]x')).toBe('[::1]x');
  });
});

describe('splitAuthority', () => {
  it('reads host and port, IPv6 in brackets, with the default port when none is given', () => {
    expect(splitAuthority('example.com:8443', 443)).toEqual({ host: 'example.com', port: 8443 });
    expect(splitAuthority('example.com', 443)).toEqual({ host: 'example.com', port: 443 });
    expect(splitAuthority('[::1]:8080', 443)).toEqual({ host: '::1', port: 8080 });
    expect(splitAuthority('[::1]', 443)).toEqual({ host: '::1', port: 443 });
  });

  it('keeps an unreadable authority whole, so the allow-list refuses it by name', () => {
    expect(splitAuthority('a:b:c', 443)).toEqual({ host: 'a:b:c', port: 443 });
    expect(splitAuthority('example.com:', 443)).toEqual({ host: 'example.com:', port: 443 });
    expect(splitAuthority('x[::1]:80', 443)).toEqual({ host: 'x[::1]:80', port: 443 });
    expect(splitAuthority('[::1]:80x', 443)).toEqual({ host: '[::1]:80x', port: 443 });
    expect(splitAuthority('', 443)).toEqual({ host: '', port: 443 });
  });
});

describe('isLocal', () => {
  it('takes this machine and the link, IPv4-mapped IPv6 included', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.255.254',
      '0.0.0.0',
      '0.1.2.3',
      '169.254.169.254',
      '::1',
      '::',
      'fe80::1',
      'febf::1',
      '::ffff:127.0.0.1',
      '::FFFF:169.254.169.254',
    ])
      expect(isLocal(address), address).toBe(true);
  });

  it('takes this machine’s own addresses on its networks, which reach what listens on 0.0.0.0', () => {
    const own = Object.values(os.networkInterfaces())
      .flat()
      .filter((a) => a !== undefined && !a.internal)
      .map((a) => a!.address);
    for (const address of own) expect(isLocal(address), address).toBe(true);
  });

  it('leaves remote and private-network addresses alone', () => {
    for (const address of [
      '93.184.216.34',
      '128.0.0.1',
      '1.0.0.0',
      '169.253.255.255',
      '169.255.0.1',
      '10.0.0.1',
      '::2',
      'fec0::1',
      '2001:db8::1',
      '::ffff:93.184.216.34',
    ])
      expect(isLocal(address), address).toBe(false);
  });
});

describe('staticHosts', () => {
  const dir = tempDir('skilldeck-hosts-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads every name after the address, lowercased, and skips comments', () => {
    const file = path.join(dir, 'hosts');
    fs.writeFileSync(
      file,
      [
        '127.0.0.1\tlocalhost',
        '# 10.0.0.9 commented.test',
        '10.0.0.2   Dev.Box   dev # the dev box, not-a-name',
        '  192.168.1.5 printer  ',
        '',
        '::1 ip6-localhost',
      ].join('\n'),
    );
    expect([...staticHosts(file)].sort()).toEqual([
      'dev',
      'dev.box',
      'ip6-localhost',
      'localhost',
      'printer',
    ]);
  });

  it('pins nothing when the file is missing', () => {
    expect(staticHosts(path.join(dir, 'missing')).size).toBe(0);
  });
});

describe('decideHost', () => {
  const rules = (over: Partial<HostRules> = {}): HostRules => ({
    allow: ['api.example.com', '*.cdn.test', 'rebind.test', 'localhost', '127.0.0.1', 'pinned.test'],
    lookup: async () => '93.184.216.34',
    hostsFile: () => new Set(['pinned.test']),
    ...over,
  });

  it('refuses a host off the list before resolving anything', async () => {
    let looked = 0;
    const decision = await decideHost('evil.test', 443, rules({ lookup: async () => `${++looked}.0.0.0` }));
    expect(decision).toEqual({ ok: false, refusal: { host: 'evil.test', reason: 'not_allowed' } });
    expect(looked).toBe(0);
  });

  it('connects to the address the name resolved to, once, not to the name', async () => {
    const asked: string[] = [];
    const lookup = async (host: string) => {
      asked.push(host);
      return '93.184.216.34';
    };
    expect(await decideHost('api.example.com', 8443, rules({ lookup }))).toEqual({
      ok: true,
      host: '93.184.216.34',
      port: 8443,
    });
    expect(await decideHost('a.cdn.test', 443, rules({ lookup }))).toEqual({
      ok: true,
      host: '93.184.216.34',
      port: 443,
    });
    expect(asked).toEqual(['api.example.com', 'a.cdn.test']);
  });

  it('refuses a listed name that resolves to this machine or the link (DNS rebinding)', async () => {
    for (const address of ['127.0.0.1', '169.254.169.254', '::1', '::ffff:127.0.0.1']) {
      expect(await decideHost('rebind.test', 80, rules({ lookup: async () => address }))).toEqual({
        ok: false,
        refusal: { host: 'rebind.test', reason: 'local_address', address },
      });
    }
  });

  // Found probing: a listed name whose DNS answer was a private address (a router's admin page,
  // a NAS, an intranet service) was connected to, where the approval showed only the name.
  it('refuses a listed name that resolves to the local network (DNS rebinding into the LAN)', async () => {
    for (const address of [
      '10.0.0.5',
      '172.16.4.4',
      '192.168.1.1',
      '100.64.0.1',
      'fd00::5',
      '::ffff:192.168.1.1',
    ]) {
      expect(await decideHost('rebind.test', 80, rules({ lookup: async () => address }))).toEqual({
        ok: false,
        refusal: { host: 'rebind.test', reason: 'local_address', address },
      });
    }
  });

  it('lets a listed private address or a pinned name reach the local network', async () => {
    const lan = rules({
      allow: ['192.168.1.20', 'nas.test'],
      hostsFile: () => new Set(['nas.test']),
      lookup: async () => '192.168.1.20',
    });
    expect(await decideHost('192.168.1.20', 80, lan)).toEqual({ ok: true, host: '192.168.1.20', port: 80 });
    expect(await decideHost('nas.test', 80, lan)).toEqual({ ok: true, host: '192.168.1.20', port: 80 });
  });

  it('lets a literally listed address, localhost or a name pinned in the hosts file reach this machine', async () => {
    const local = rules({ lookup: async () => '127.0.0.1' });
    expect(await decideHost('127.0.0.1', 8080, local)).toEqual({ ok: true, host: '127.0.0.1', port: 8080 });
    expect(await decideHost('localhost', 8080, local)).toEqual({ ok: true, host: '127.0.0.1', port: 8080 });
    expect(await decideHost('pinned.test', 8080, local)).toEqual({ ok: true, host: '127.0.0.1', port: 8080 });
  });

  it('does not take a wildcard entry, or a pin for a name off the list, as a literal listing', async () => {
    const local = rules({
      allow: ['*.cdn.test', 'api.example.com'],
      lookup: async () => '127.0.0.1',
      hostsFile: () => new Set(['a.cdn.test', 'other.test']),
    });
    expect(await decideHost('a.cdn.test', 80, local)).toMatchObject({ ok: false });
    expect(await decideHost('other.test', 80, local)).toMatchObject({
      ok: false,
      refusal: { reason: 'not_allowed' },
    });
    const unpinned = rules({ lookup: async () => '127.0.0.1', hostsFile: () => new Set() });
    expect(await decideHost('pinned.test', 80, unpinned)).toMatchObject({ ok: false });
  });

  it('never looks up a literal address, and refuses a listed-by-name local one only by name', async () => {
    const lookup = async () => {
      throw new Error('looked up');
    };
    expect(await decideHost('127.0.0.1', 80, rules({ lookup }))).toEqual({
      ok: true,
      host: '127.0.0.1',
      port: 80,
    });
    expect(await decideHost('169.254.169.254', 80, rules({ allow: ['*.254'], lookup }))).toEqual({
      ok: false,
      refusal: { host: '169.254.169.254', reason: 'local_address', address: '169.254.169.254' },
    });
  });

  it('passes a name DNS cannot resolve through, for the connect to report', async () => {
    const lookup = async () => {
      throw new Error('ENOTFOUND');
    };
    expect(await decideHost('api.example.com', 443, rules({ lookup }))).toEqual({
      ok: true,
      host: 'api.example.com',
      port: 443,
    });
  });

  it('hands an allowed host to resolveHost when given, and only an allowed one', async () => {
    const resolveHost = (host: string, port: number) => ({ host: `resolved-${host}`, port: port + 1 });
    expect(await decideHost('api.example.com', 443, rules({ resolveHost }))).toEqual({
      ok: true,
      host: 'resolved-api.example.com',
      port: 444,
    });
    expect(await decideHost('evil.test', 443, rules({ resolveHost }))).toMatchObject({ ok: false });
  });
});

describe('safeLookup (the proxy connecting by name after its first lookup failed)', () => {
  it('refuses a name that now resolves to this machine, and passes a remote answer on', async () => {
    const lookup = (name: string) =>
      new Promise<{ err: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
        safeLookup(name, {}, (err, address) => resolve({ err, address })),
      );
    const local = await lookup('localhost');
    expect(local.err?.code).toBe('ELOCAL');
    expect(local.err?.message).toMatch(
      /^localhost resolves to .*, an address on this machine or its local network$/,
    );
  });
});

describe('namesLocalHost', () => {
  const pinned = () => new Set(['devbox.test']);
  it.each([
    'localhost',
    'LOCALHOST.',
    'api.localhost',
    '*.localhost',
    '127.0.0.1',
    '[::1]',
    '10.1.2.3',
    '172.20.0.9',
    '192.168.1.1',
    '100.64.0.1',
    'fd12::1',
    '169.254.169.254',
    'devbox.test',
  ])('%s is this machine or its local network', (entry) => expect(namesLocalHost(entry, pinned)).toBe(true));
  it.each([
    'example.com',
    '*.example.com',
    '93.184.216.34',
    '172.32.0.1',
    '2606:4700::1111',
    'localhost.example.com',
  ])('%s is not', (entry) => expect(namesLocalHost(entry, pinned)).toBe(false));
});
