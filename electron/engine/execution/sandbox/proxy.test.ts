import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAllowListProxy, type AllowListProxy } from './proxy';

/** Sends raw bytes to the proxy and reads until it closes the connection or `until` matches. */
function talk(connect: net.NetConnectOpts, send: string, until?: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(connect);
    let got = '';
    sock.on('data', (d) => {
      got += d;
      if (until?.test(got)) {
        sock.destroy();
        resolve(got);
      }
    });
    sock.on('end', () => resolve(got));
    sock.on('error', reject);
    sock.write(send);
  });
}

describe('allow-list proxy', () => {
  let upstream: http.Server;
  let port: number;
  let proxy: AllowListProxy;
  const refused: string[] = [];

  beforeAll(async () => {
    upstream = http.createServer((req, res) => res.end(`upstream saw ${req.headers.host} ${req.url}`));
    await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
    port = (upstream.address() as net.AddressInfo).port;
    proxy = await startAllowListProxy({
      allow: ['allowed.test', '*.wild.test'],
      listen: 'unix',
      resolveHost: (_host, p) => ({ host: '127.0.0.1', port: p }),
      onRefused: (h) => refused.push(h),
    });
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise<void>((done) => upstream.close(() => done()));
  });

  const via = (send: string, until?: RegExp) => talk({ path: proxy.socketPath! }, send, until);

  it('listens on a unix socket in a private per-run folder', () => {
    expect(proxy.socketPath).toMatch(/skilldeck-proxy-.*\/proxy\.sock$/);
    expect(fs.statSync(proxy.dir!).mode & 0o777).toBe(0o700);
  });

  it('forwards an absolute-URI request to an allowed host', async () => {
    const reply = await via(
      `GET http://allowed.test:${port}/x?y=1 HTTP/1.1\r\nHost: allowed.test:${port}\r\nConnection: close\r\n\r\n`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 200/);
    expect(reply).toContain(`upstream saw allowed.test:${port} /x?y=1`);
  });

  it('tunnels CONNECT to an allowed host (a subdomain of a wildcard too)', async () => {
    for (const host of ['allowed.test', 'api.wild.test']) {
      const reply = await via(
        `CONNECT ${host}:${port} HTTP/1.1\r\nHost: ${host}:${port}\r\n\r\nGET /t HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
        /upstream saw/,
      );
      expect(reply).toMatch(/^HTTP\/1\.1 200 Connection Established/);
      expect(reply).toContain(`upstream saw ${host} /t`);
    }
  });

  it('answers 403 to any other host, both ways, and logs it', async () => {
    const get = await via(
      `GET http://denied.test:${port}/ HTTP/1.1\r\nHost: denied.test\r\nConnection: close\r\n\r\n`,
    );
    expect(get).toMatch(/^HTTP\/1\.1 403/);
    expect(get).toContain(
      "denied.test is not in this skill's network allow-list (allowed.test, *.wild.test)",
    );
    const connect = await via(`CONNECT wild.test:443 HTTP/1.1\r\nHost: wild.test:443\r\n\r\n`);
    expect(connect).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    const ip = await via(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`);
    expect(ip).toMatch(/^HTTP\/1\.1 403/);
    expect(proxy.refusedHosts).toEqual(['denied.test', 'wild.test', '127.0.0.1']);
    expect(refused).toEqual(proxy.refusedHosts);
  });

  it('answers 400 to a CONNECT port out of range, and keeps serving (a script cannot crash the engine)', async () => {
    for (const target of ['allowed.test:99999', 'allowed.test:65536', 'allowed.test:0']) {
      const reply = await via(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
      expect(reply, target).toMatch(/^HTTP\/1\.1 400/);
      expect(reply, target).toContain('SkillDeck sandbox: port');
    }
    const after = await via(
      `GET http://allowed.test:${port}/still HTTP/1.1\r\nHost: allowed.test\r\nConnection: close\r\n\r\n`,
    );
    expect(after).toContain('upstream saw allowed.test /still');
  });

  it('by default refuses a listed name that resolves to this machine, unless listed literally', async () => {
    const guarded = await startAllowListProxy({
      allow: ['rebind.test', '127.0.0.1'],
      listen: 'unix',
      lookup: async () => '127.0.0.1',
    });
    const talkTo = (send: string) => talk({ path: guarded.socketPath! }, send);
    const rebound = await talkTo(
      `GET http://rebind.test:${port}/ HTTP/1.1\r\nHost: rebind.test\r\nConnection: close\r\n\r\n`,
    );
    expect(rebound).toMatch(/^HTTP\/1\.1 403/);
    expect(rebound).toContain('rebind.test resolves to 127.0.0.1, on this machine or its local network');
    const literal = await talkTo(
      `GET http://127.0.0.1:${port}/ok HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    expect(literal).toContain(`upstream saw 127.0.0.1 /ok`);
    expect(guarded.refusals).toEqual([
      { host: 'rebind.test', reason: 'local_address', address: '127.0.0.1' },
    ]);
    await guarded.close();
  });

  it('lets a listed name through to this machine when the hosts file pins it (not a DNS answer)', async () => {
    const pinned = await startAllowListProxy({
      allow: ['pinned.test'],
      listen: 'unix',
      lookup: async () => '127.0.0.1',
      hostsFile: () => new Set(['pinned.test']),
    });
    const reply = await talk(
      { path: pinned.socketPath! },
      `GET http://pinned.test:${port}/ok HTTP/1.1\r\nHost: pinned.test\r\nConnection: close\r\n\r\n`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 200/);
    expect(reply).toContain('upstream saw pinned.test /ok');
    expect(pinned.refusals).toEqual([]);
    await pinned.close();
  });

  it('on TCP, listens on loopback only; close() cuts open tunnels and removes its folder', async () => {
    const tcp = await startAllowListProxy({
      allow: ['allowed.test'],
      listen: 'tcp',
      resolveHost: (_h, p) => ({ host: '127.0.0.1', port: p }),
    });
    expect(tcp.port).toBeGreaterThan(0);
    expect(tcp.dir).toBeNull();
    const sock = net.connect({ host: '127.0.0.1', port: tcp.port! });
    await new Promise((done) => sock.once('connect', done));
    sock.write(`CONNECT allowed.test:${port} HTTP/1.1\r\n\r\n`);
    await new Promise((done) => sock.once('data', done));
    const closed = new Promise((done) => sock.once('close', done));
    await tcp.close();
    await closed;

    const unix = await startAllowListProxy({ allow: [], listen: 'unix' });
    await unix.close();
    expect(fs.existsSync(unix.dir!)).toBe(false);
  });
});
