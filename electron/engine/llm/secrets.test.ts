import { generateText } from 'ai';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { EventName } from '../../../shared/contract';
import { createEngine, type Engine } from '..';
import { startModelServer, type ModelServer } from '../../testing/modelServer';
import { skillMd, tempDir, writeTree } from '../../testing/fixtures';
import { SecretStore, type SecretCipher } from './secrets';

const KEY = 'sk-stored-key-0123456789abcdef';
const root = tempDir();
let server: ModelServer;
const engines: Engine[] = [];

beforeAll(async () => {
  // Echoes the key in an error, as some servers do, to prove it is redacted on the way out.
  server = await startModelServer({
    apiKey: KEY,
    models: ['m'],
    fallback: { error: { status: 500, message: `bad key ${KEY}` } },
  });
  writeTree(root, { 'skills/alpha/SKILL.md': skillMd('alpha', 'Alpha sorts invoices.') });
});
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
});
afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

/** Stands in for Electron's safeStorage (Electron's API, not ours): reversible, and never plain text. */
const fakeKeychain = (state = { available: true }): SecretCipher => ({
  available: () => state.available,
  encrypt: (text) => Buffer.from(`enc:${Buffer.from(text).toString('hex').split('').reverse().join('')}`),
  decrypt: (data) => Buffer.from(data.toString().slice(4).split('').reverse().join(''), 'hex').toString(),
});

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

/** Every file under `dir`, with its text. */
const filesUnder = (dir: string): Array<[string, string]> =>
  fs.readdirSync(dir, { recursive: true, withFileTypes: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return entry.isFile() ? [[file, fs.readFileSync(file, 'utf8')] as [string, string]] : [];
  });

async function open(name: string, cipher?: SecretCipher) {
  const home = path.join(root, name);
  const engine = await createEngine({
    home,
    userHome: path.join(root, 'user'),
    workspace: root,
    skillDirs: [path.join(root, 'skills')],
    noDefaultPaths: true,
    env: {},
    cipher,
  });
  engines.push(engine);
  const events: Array<[EventName, unknown]> = [];
  engine.events.subscribe((event, payload) => events.push([event, payload]));
  return { home, engine, events };
}

it('keeps a stored key out of every status, event, error and file but the 0600 secrets file', async () => {
  const { home, engine, events } = await open('plain');
  engine.models.update({ provider: 'openai-compatible', baseURL: server.baseURL, model: 'm' });
  const stored = engine.models.setKey(KEY);
  expect(stored).toMatchObject({ hasKey: true, keySource: 'stored', keyStorage: 'file', problem: null });
  expect((await engine.models.test()).message).toBe(`Connected to ${server.baseURL}: 1 model, including m.`);
  expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
  const resolved = await engine.models.resolve();
  if (!resolved.ok) throw new Error(resolved.reason);
  const failure = await engine.models.embed(['x']);
  expect(failure.ok).toBe(false);
  const error = await generateText({ model: resolved.model, prompt: 'hi', maxRetries: 0 }).catch(
    (e: unknown) => e,
  );
  expect(resolved.describeError(error).message).toBe(
    `500: the server at ${server.baseURL} failed (bad key ***).`,
  );
  engine.routing.commit('$alpha sort my invoices', 'api');

  const seen = JSON.stringify([engine.models.status(), stored, resolved.description, events]);
  expect(seen).not.toContain(KEY);
  expect(events.map(([name]) => name)).toEqual(
    expect.arrayContaining(['models.changed', 'settings.changed', 'route.recorded']),
  );
  const secrets = path.join(home, 'secrets.json');
  expect(modeOf(secrets)).toBe(0o600);
  for (const [file, text] of filesUnder(home)) if (file !== secrets) expect(text, file).not.toContain(KEY);
  expect(fs.readFileSync(path.join(home, 'settings.json'), 'utf8')).toContain(server.baseURL);
});

it('takes back a secrets file whose mode was widened, before reading it', async () => {
  const { home, engine } = await open('widened');
  engine.models.update({ provider: 'openai-compatible', baseURL: server.baseURL, model: 'm' });
  engine.models.setKey(KEY);
  const secrets = path.join(home, 'secrets.json');
  fs.chmodSync(secrets, 0o644);
  expect(engine.models.status().hasKey).toBe(true);
  expect(modeOf(secrets)).toBe(0o600);
});

it('stores a key only encrypted when a keychain is given, and says so when it cannot open it', async () => {
  const keychain = { available: true };
  const { home, engine } = await open('keychain', fakeKeychain(keychain));
  engine.models.update({ provider: 'openai-compatible', baseURL: server.baseURL, model: 'm' });
  expect(engine.models.setKey(KEY)).toMatchObject({ hasKey: true, keyStorage: 'keychain' });
  for (const [file, text] of filesUnder(home)) expect(text, file).not.toContain(KEY);
  expect((await engine.models.test()).status).toBe('connected');
  engine.models.update({ provider: 'openai', model: 'gpt-4o-mini', baseURL: null });
  engine.models.setKey('sk-openai-key-0123');
  expect(engine.models.status()).toMatchObject({ hasKey: true, problem: null });

  // The CLI reading the desktop app's home, or a keyring gone: the keys are there but locked.
  keychain.available = false;
  const locked = 'A key is stored encrypted by the desktop app’s keychain, which this process cannot open.';
  expect(engine.models.status()).toMatchObject({ hasKey: false, keyStorage: 'file', problem: locked });
  engine.models.update({ provider: 'openai-compatible', baseURL: server.baseURL, model: 'm' });
  expect(engine.models.status()).toMatchObject({ hasKey: false, problem: locked });
  expect(
    new SecretStore(home).get(`model:openai-compatible:${new URL(server.baseURL).origin}`),
  ).toBeUndefined();
  engine.models.update({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
  expect(engine.models.status().problem).toBe('Anthropic needs an API key.');
});

it('keeps one key per provider and host, and clears only the current one', async () => {
  const { engine } = await open('per-host');
  engine.models.update({ provider: 'openai-compatible', baseURL: server.baseURL, model: 'm' });
  engine.models.setKey(KEY);
  engine.models.update({ baseURL: 'http://127.0.0.1:9/v1' });
  expect(engine.models.status().hasKey).toBe(false);
  engine.models.setKey('sk-other-host-key');
  engine.models.update({ baseURL: server.baseURL });
  expect(engine.models.status().hasKey).toBe(true);
  expect(engine.models.clearKey()).toMatchObject({ hasKey: false, keySource: null });
  engine.models.update({ baseURL: 'http://127.0.0.1:9/v1' });
  expect(engine.models.status().hasKey).toBe(true);
});
