import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatTurn } from '../../../shared/contract';
import { envWithoutModel, isolatedEngines, writeTree } from '../../testing/fixtures';
import { startModelServer, type ModelServer } from '../../testing/modelServer';

// A skill's model call that the endpoint refused (the key, a rate limit) or that reached no
// server: plain chat's fallback would ask the same endpoint at once and fail the same way, so
// it does not. The real engine and the scripted server on loopback.
const engines = isolatedEngines();
let server: ModelServer;
beforeEach(async () => {
  server = await startModelServer({ apiKey: 'k', models: ['m'] });
});
afterEach(async () => {
  await engines.cleanup();
  await server.close();
});

async function send(message: string, baseURL = server.baseURL): Promise<ChatTurn> {
  const { engine, workspace } = await engines.open({
    env: { ...envWithoutModel(), OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: 'k', SKILLDECK_MODEL: 'm' },
  });
  writeTree(path.join(workspace, 'skills'), {
    'doc-helper/SKILL.md':
      '---\nname: doc-helper\ndescription: Writes documentation in the house style.\n---\nRead references/style.md.\n',
    'doc-helper/skill.yaml': 'spec: { type: instruction }\n',
  });
  await engine.reloadSkills();
  return engine.chat.send(undefined, message).done;
}

const chatRequests = () => server.chatRequests().length;
const modelSteps = (turn: ChatTurn) => turn.steps.filter((s) => s.kind === 'model');
const ASK = '$doc-helper write the intro';

describe('a skill whose model endpoint refused the call', () => {
  it('a 429 ends the turn with the server’s wait, without asking again at once', async () => {
    server.enqueue(
      { error: { status: 429, message: 'Slow down.', retryAfter: '7' } },
      { text: 'An answer the rate limit forbade asking for.' },
    );
    const turn = await send(ASK);
    expect(turn.status).toBe('failure');
    expect(turn.error).toBe(
      `The model did not answer: 429: ${server.baseURL} is rate-limiting requests (Slow down.); it asks to wait 7 s before retrying.`,
    );
    expect(chatRequests()).toBe(1);
    expect(modelSteps(turn)).toHaveLength(1);
  });

  it('a refused key likewise', async () => {
    server.enqueue(
      { error: { status: 401, message: 'Incorrect API key provided.' } },
      { text: 'Unreached.' },
    );
    const turn = await send(ASK);
    expect(turn).toMatchObject({ status: 'failure', answer: '' });
    expect(turn.error).toContain('401: the key was refused');
    expect(chatRequests()).toBe(1);
  });

  it('a 503 with Retry-After asks to wait like a 429: the turn ends with the wait, no fallback', async () => {
    server.enqueue(
      { error: { status: 503, message: 'Overloaded, try later.', retryAfter: '30' } },
      { text: 'An answer the server asked us to wait for.' },
    );
    const turn = await send(ASK);
    expect(turn).toMatchObject({ status: 'failure', answer: '' });
    expect(turn.error).toBe(
      `The model did not answer: 503: the server at ${server.baseURL} is overloaded (Overloaded, try later.); it asks to wait 30 s before retrying.`,
    );
    expect(chatRequests()).toBe(1);
    expect(modelSteps(turn)).toHaveLength(1);
  });

  it('a 500 still falls back to plain chat: without tools, the same server may answer', async () => {
    server.enqueue({ error: { status: 500, message: 'Tool parsing failed.' } }, { text: 'A plain answer.' });
    const turn = await send(ASK);
    expect(turn).toMatchObject({ status: 'success', answer: 'A plain answer.' });
    expect(chatRequests()).toBe(2);
  });
});

describe('a skill whose model endpoint cannot be reached', () => {
  it('says so once, with no fallback step trying the same address', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const turn = await send(ASK, `http://127.0.0.1:${port}/v1`);
    expect(turn.status).toBe('failure');
    expect(turn.error).toContain('connection refused');
    expect(modelSteps(turn)).toHaveLength(1);
  });
});
