import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatTurn } from '../../shared/contract';
import { buildCliBundle, runCliWithModel } from '../testing/cliBundle';
import { tempDir } from '../testing/fixtures';

// A base URL that misses /v1, or that carries the whole /chat/completions path (both are common
// slips with OPENAI_BASE_URL), reaches a server that answers 404 (Ollama: "404 page not found").
// The turn said only "check the base URL and the model id"; it now says what the base URL lacks.
const root = tempDir('skilldeck-cli-base-url-');
let server: http.Server;
let origin = '';

beforeAll(async () => {
  await buildCliBundle(path.join(root, 'cli.cjs'));
  server = http.createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('404 page not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function chatWith(baseURL: string): Promise<ChatTurn> {
  const where = {
    cli: path.join(root, 'cli.cjs'),
    skills: path.join(root, 'skills'),
    home: path.join(root, `home-${Math.random().toString(36).slice(2)}`),
    userHome: root,
    baseURL,
    apiKey: 'k',
  };
  const { stdout } = await runCliWithModel(where, ['chat', 'hello there', '--json']);
  return ChatTurn.parse(JSON.parse(stdout));
}

describe('skilldeck chat with a base URL that is not the API’s', () => {
  it('without /v1: the 404 says the base URL most likely lacks it', async () => {
    const turn = await chatWith(`${origin}/`);
    expect(turn.status).toBe('error');
    expect(turn.error).toContain(`404 from ${origin} (404 page not found)`);
    expect(turn.error).toContain(`most OpenAI-compatible servers want it to end in /v1 (${origin}/v1)`);
  }, 60_000);

  it('with /chat/completions on it: the 404 says to leave that part out', async () => {
    const turn = await chatWith(`${origin}/v1/chat/completions`);
    expect(turn.error).toContain(`the base URL ends before /chat/completions (${origin}/v1)`);
  }, 60_000);

  it('a 404 at a base URL ending in /v1 keeps the plain advice', async () => {
    const turn = await chatWith(`${origin}/v1`);
    expect(turn.error).toContain('check the base URL and the model id');
  }, 60_000);
});
