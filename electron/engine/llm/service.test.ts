import { streamText } from 'ai';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineEvents } from '../events';
import { SettingsStore } from '../settings';
import { hashEmbedding, startModelServer, type ModelServer } from '../../testing/modelServer';
import { tempDir } from '../../testing/fixtures';
import { SecretStore } from './secrets';
import { ModelService } from './service';

const KEY = 'sk-env-key-abcdef0123456789';
const root = tempDir();
let keyed: ModelServer; // wants KEY, lists three models
let open: ModelServer; // no key, no /v1/models (404), like some local servers
let closedURL: string;

beforeAll(async () => {
  keyed = await startModelServer({
    apiKey: KEY,
    models: ['gamma', 'alpha', 'beta'],
    fallback: { text: 'OK' },
  });
  open = await startModelServer({ models: null, fallback: { text: 'O' } });
  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedURL = `http://127.0.0.1:${(closed.address() as net.AddressInfo).port}/v1`;
  await new Promise((resolve) => closed.close(resolve));
});
afterAll(async () => {
  await Promise.all([keyed.close(), open.close()]);
  fs.rmSync(root, { recursive: true, force: true });
});

let homes = 0;
/** A ModelService over real files in a fresh home, reading only `env`. */
function service(env: NodeJS.ProcessEnv = {}) {
  const home = path.join(root, `home-${(homes += 1)}`);
  const models = new ModelService({
    settings: SettingsStore.at(home),
    secrets: new SecretStore(home),
    events: new EngineEvents(),
    env,
  });
  return { home, models };
}

describe('configuration from settings and the environment', () => {
  it('says plainly that nothing is configured', async () => {
    const { models } = service({ OPENAI_API_KEY: KEY });
    const status = models.status();
    expect(status).toMatchObject({
      source: null,
      effective: null,
      hasKey: false,
      env: { hasKey: true, configures: false },
    });
    expect(status.problem).toBe(
      'No model configured: choose a provider in Settings, or set OPENAI_BASE_URL and SKILLDECK_MODEL.',
    );
    expect(await models.resolve()).toEqual({ ok: false, reason: status.problem });
    expect(await models.test()).toMatchObject({
      ok: false,
      status: 'not_configured',
      message: status.problem,
    });
  });

  it('uses OPENAI_BASE_URL, OPENAI_API_KEY and SKILLDECK_MODEL as they are, storing nothing', async () => {
    const { home, models } = service({
      OPENAI_BASE_URL: `${keyed.baseURL}/`,
      OPENAI_API_KEY: KEY,
      SKILLDECK_MODEL: 'beta',
    });
    const status = models.status();
    expect(status).toMatchObject({
      source: 'env',
      effective: { provider: 'openai-compatible', baseURL: keyed.baseURL, model: 'beta' },
      hasKey: true,
      keySource: 'env',
      keyEnv: 'OPENAI_API_KEY',
      problem: null,
    });
    expect(JSON.stringify(status)).not.toContain(KEY);
    const resolved = await models.resolve();
    if (!resolved.ok) throw new Error(resolved.reason);
    expect(resolved.description).toEqual({
      provider: 'openai-compatible',
      baseURL: keyed.baseURL,
      model: 'beta',
      source: 'env',
      keySource: 'env',
    });
    const result = streamText({ model: resolved.model, prompt: 'hi', maxRetries: 0 });
    expect(await result.text).toBe('OK');
    expect(keyed.requests.at(-1)).toMatchObject({ headers: { authorization: `Bearer ${KEY}` } });
    expect(keyed.chatRequests().at(-1)!.model).toBe('beta');
    expect(fs.existsSync(path.join(home, 'secrets.json'))).toBe(false);
  });

  it('takes a compatible server’s first listed model when none is chosen', async () => {
    const { models } = service({ OPENAI_BASE_URL: keyed.baseURL, OPENAI_API_KEY: KEY });
    expect(models.status()).toMatchObject({ source: 'env', effective: { model: null }, problem: null });
    const resolved = await models.resolve();
    expect(resolved.ok && resolved.description.model).toBe('alpha');
  });

  it('lets settings override the environment, and never sends the env key to another host', async () => {
    const { models } = service({
      OPENAI_BASE_URL: keyed.baseURL,
      OPENAI_API_KEY: KEY,
      SKILLDECK_MODEL: 'beta',
    });
    models.update({ provider: 'openai-compatible', baseURL: open.baseURL, model: 'local' });
    expect(models.status()).toMatchObject({
      source: 'settings',
      hasKey: false,
      keySource: null,
      problem: null,
    });
    const resolved = await models.resolve();
    if (!resolved.ok) throw new Error(resolved.reason);
    expect(await streamText({ model: resolved.model, prompt: 'hi', maxRetries: 0 }).text).toBe('O');
    expect(open.requests.at(-1)!.headers.authorization).toBeUndefined();
    // Pointed back at the env's own host, the env key applies again.
    models.update({ baseURL: keyed.baseURL });
    expect(models.status()).toMatchObject({ hasKey: true, keySource: 'env' });
  });

  it('asks OpenAI and Anthropic for a key and a model before anything is sent', async () => {
    const { models } = service();
    expect(models.update({ provider: 'openai' }).problem).toBe('Choose a model.');
    expect(models.update({ model: 'gpt-4o-mini' })).toMatchObject({
      effective: { baseURL: 'https://api.openai.com/v1' },
      problem: 'OpenAI needs an API key.',
    });
    expect(models.update({ provider: 'anthropic', model: 'claude-sonnet-4-5' }).problem).toBe(
      'Anthropic needs an API key.',
    );
    expect(await models.resolve()).toEqual({ ok: false, reason: 'Anthropic needs an API key.' });
    expect(models.update({ provider: 'openai-compatible' }).problem).toMatch(/^Enter the server’s base URL/);
  });
});

describe('test connection and the model list', () => {
  const configured = (baseURL: string, model: string | null, key?: string) => {
    const { models } = service();
    models.update({ provider: 'openai-compatible', baseURL, model });
    if (key) models.setKey(key);
    return models;
  };

  it('connects and counts the models', async () => {
    const result = await configured(keyed.baseURL, 'beta', KEY).test();
    expect(result).toMatchObject({ ok: true, status: 'connected', models: 3, modelAvailable: true });
    expect(result.message).toBe(`Connected to ${keyed.baseURL}: 3 models, including beta.`);
    const missing = await configured(keyed.baseURL, 'delta', KEY).test();
    expect(missing.message).toBe(`Connected to ${keyed.baseURL}: 3 models, but delta is not among them.`);
    expect(await configured(keyed.baseURL, null, KEY).list()).toEqual({
      ok: true,
      models: ['alpha', 'beta', 'gamma'],
      message: null,
    });
  });

  it('says when the key is refused or missing', async () => {
    const refused = await configured(keyed.baseURL, 'beta', 'sk-wrong-key-xyz').test();
    expect(refused).toMatchObject({ ok: false, status: 'unauthorized' });
    expect(refused.message).toMatch(
      new RegExp(`^401: the key was refused by ${keyed.baseURL} \\(Incorrect API key`),
    );
    const missing = await configured(keyed.baseURL, 'beta').test();
    expect(missing.message).toBe(
      `401: ${keyed.baseURL} wants an API key and none is set (You didn't provide an API key.).`,
    );
  });

  it('says when nothing answers', async () => {
    const models = configured(closedURL, 'm');
    expect(await models.test()).toMatchObject({
      ok: false,
      status: 'unreachable',
      message: `Could not reach ${closedURL}: connection refused.`,
    });
    expect(await models.list()).toEqual({
      ok: false,
      models: [],
      message: `Could not reach ${closedURL}: connection refused.`,
    });
    expect((await configured('http://127.0.0.1:9/v1', 'm').test()).message).toBe(
      'Could not reach http://127.0.0.1:9/v1: its port is one browsers and fetch refuse to use (a “bad port”); run the server on another port.',
    );
  });

  it('falls back to a one-token completion where the server has no model list', async () => {
    const before = open.chatRequests().length;
    const result = await configured(open.baseURL, 'local').test();
    expect(result).toMatchObject({
      ok: true,
      status: 'connected',
      message: `Connected to ${open.baseURL}: local answered.`,
    });
    expect(open.chatRequests().slice(before)).toEqual([
      expect.objectContaining({ model: 'local', max_tokens: 1 }),
    ]);
  });
});

describe('embeddings', () => {
  it('embeds through the endpoint’s /v1/embeddings, deterministically', async () => {
    const { models } = service({
      OPENAI_BASE_URL: keyed.baseURL,
      OPENAI_API_KEY: KEY,
      SKILLDECK_EMBEDDING_MODEL: 'embed-small',
    });
    const texts = ['organize my invoices', 'invoices from last month', 'convert a video'];
    const result = await models.embed(texts);
    if (!result.ok) throw new Error(result.reason);
    expect(result.model).toBe('embed-small');
    texts.forEach((text, i) =>
      result.vectors[i].forEach((v, j) => expect(v).toBeCloseTo(hashEmbedding(text)[j], 6)),
    );
    const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i], 0);
    expect(cosine(result.vectors[0], result.vectors[1])).toBeGreaterThan(
      cosine(result.vectors[0], result.vectors[2]),
    );
    expect(keyed.requests.at(-1)).toMatchObject({ path: '/v1/embeddings', body: { model: 'embed-small' } });
  });

  it('says why there are no embeddings', async () => {
    const { models } = service({ OPENAI_BASE_URL: keyed.baseURL, SKILLDECK_MODEL: 'beta' });
    expect(await models.embed(['x'])).toEqual({
      ok: false,
      reason: 'No embedding model configured (Settings → Model, or SKILLDECK_EMBEDDING_MODEL).',
    });
  });
});
