import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient } from '../../shared/api';
import { MAX_MESSAGE_BYTES } from '../../shared/rpc';
import { createWsTransport, type SocketLike, type WsTransport } from '../../shared/wsTransport';
import { createEngine, type Engine } from '../engine';
import { createRpcServer } from '../rpc/server';
import { contractSuite, seedContractSkills, type ContractHarness } from '../testing/contractSuite';
import { tempDir, writeTree } from '../testing/fixtures';
import { startHost, type Host } from './server';

let engine: Engine;
let host: Host;
let harness: ContractHarness;
let transport: WsTransport;
const root = tempDir();
const skillsDir = path.join(root, 'skills');

const wsUrl = (token: string | null, port = host.port) =>
  `ws://127.0.0.1:${port}/rpc${token === null ? '' : `?token=${encodeURIComponent(token)}`}`;

/** Open a raw socket and report how the handshake ended. */
function handshake(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ opened: boolean; status?: number }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers });
    socket.on('open', () => {
      socket.close();
      resolve({ opened: true });
    });
    socket.on('unexpected-response', (_req, res) => resolve({ opened: false, status: res.statusCode }));
    socket.on('error', () => resolve({ opened: false }));
  });
}

function httpGet(pathname: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port: host.port, path: pathname, headers }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
    },
  );
}

beforeAll(async () => {
  seedContractSkills(skillsDir);
  const rendererDir = path.join(root, 'renderer');
  writeTree(rendererDir, { 'index.html': '<!doctype html><title>SkillDeck</title>' });
  writeTree(root, { 'secret.txt': 'do not serve' });
  engine = await createEngine({
    home: path.join(root, 'home'),
    userHome: path.join(root, 'user-home'),
    workspace: path.join(root, 'workspace'),
    skillDirs: [skillsDir],
    noDefaultPaths: true,
    // The runner's OPENAI_* variables must not configure a model under the contract suite.
    env: {},
  });
  host = await startHost({ rpc: createRpcServer(engine, undefined, () => undefined), rendererDir });
  transport = createWsTransport(() => new WebSocket(wsUrl(host.token)) as unknown as SocketLike);
  await transport.ready;
  harness = { client: createClient(transport), transport, skillsDir };
});

afterAll(async () => {
  transport?.close();
  await host?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

contractSuite('WebSocket (browser mode)', () => harness);

describe('browser-mode host refusals', () => {
  it('listens on 127.0.0.1 only and prints a tokened URL', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
  });

  it('refuses a WebSocket without a token or with a wrong one', async () => {
    expect(await handshake(wsUrl(null))).toEqual({ opened: false, status: 401 });
    expect(await handshake(wsUrl(`${host.token}x`))).toEqual({ opened: false, status: 401 });
    expect(await handshake(wsUrl(''))).toEqual({ opened: false, status: 401 });
    expect(await handshake(wsUrl(host.token))).toEqual({ opened: true });
  });

  it('refuses a Host or Origin that is not loopback (DNS rebinding)', async () => {
    const url = wsUrl(host.token);
    expect(await handshake(url, { Host: `evil.example:${host.port}` })).toEqual({
      opened: false,
      status: 403,
    });
    expect(await handshake(url, { Host: '127.0.0.1:1' })).toEqual({ opened: false, status: 403 });
    expect(await handshake(url, { Origin: 'http://evil.example' })).toEqual({ opened: false, status: 403 });
    expect(await handshake(url, { Origin: `http://127.0.0.1.evil.example:${host.port}` })).toEqual({
      opened: false,
      status: 403,
    });
    // A loopback page on another port (another local app, a dev server) is another origin.
    expect(await handshake(url, { Origin: `http://127.0.0.1:${host.port + 1}` })).toEqual({
      opened: false,
      status: 403,
    });
    expect(await handshake(url, { Origin: 'http://localhost' })).toEqual({ opened: false, status: 403 });
    expect(await handshake(url, { Origin: `http://localhost:${host.port}` })).toEqual({ opened: true });
    const page = await httpGet('/', { Host: `rebind.example:${host.port}` });
    expect(page.status).toBe(403);
  });

  it('answers malformed and binary messages with structured errors, and closes on oversized ones', async () => {
    const socket = new WebSocket(wsUrl(host.token));
    await new Promise((resolve) => socket.once('open', resolve));
    const next = () =>
      new Promise<Record<string, unknown>>((resolve) =>
        socket.once('message', (data) => resolve(JSON.parse(String(data)))),
      );
    let reply = next();
    socket.send('{not json');
    expect(await reply).toMatchObject({
      type: 'response',
      id: null,
      ok: false,
      error: { code: 'invalid_message' },
    });
    reply = next();
    socket.send(JSON.stringify({ type: 'request', id: 7, method: 'skills.list', input: {}, extra: 1 }));
    expect(await reply).toMatchObject({ id: 7, ok: false, error: { code: 'invalid_message' } });
    reply = next();
    socket.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await reply).toMatchObject({ ok: false, error: { code: 'invalid_message' } });
    reply = next();
    socket.send(JSON.stringify({ type: 'request', id: 8, method: 'skills.list', input: {} }));
    expect(await reply).toMatchObject({ id: 8, ok: true });

    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send('x'.repeat(MAX_MESSAGE_BYTES + 1));
    expect(await closed).toBe(1009);
    // The engine keeps serving other clients.
    expect((await harness.client.invoke('skills.list', {})).skills.length).toBe(2);
  });

  it('serves the renderer with security headers and nothing outside it', async () => {
    const page = await httpGet('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect((await httpGet('/../secret.txt')).status).toBe(404);
    expect((await httpGet('/%2e%2e/secret.txt')).status).toBe(404);
    expect((await httpGet('/missing.js')).status).toBe(404);
  });
});
