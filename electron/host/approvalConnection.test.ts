import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ApprovalRequest, ApprovalResolution, RunResult } from '../../shared/contract';
import { createClient, type Client } from '../../shared/api';
import { createWsTransport, type SocketLike, type WsTransport } from '../../shared/wsTransport';
import { createEngine, type Engine } from '../engine';
import { scriptSkill } from '../engine/execution/testSkills';
import { createRpcServer } from '../rpc/server';
import { envWithoutModel, tempDir, writeTree } from '../testing/fixtures';
import { startHost, type Host } from './server';

// DESIGN §4: a lost connection is a deny; a reload (back within the grace) keeps the request.
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup() {
  const root = tempDir();
  const skills = path.join(root, 'skills');
  scriptSkill(skills, 'asker', 'echo ran > out/ran.txt; echo ok', [
    "permissions: { filesystem: { write: ['./out/**'] } }",
    'execution_policy: { approval: ask }',
  ]);
  const rendererDir = path.join(root, 'renderer');
  writeTree(rendererDir, { 'index.html': '<!doctype html><title>SkillDeck</title>' });
  const engine: Engine = await createEngine({
    home: path.join(root, 'home'),
    userHome: path.join(root, 'user'),
    workspace: path.join(root, 'ws'),
    skillDirs: [skills],
    noDefaultPaths: true,
    env: envWithoutModel(),
    approvalGraceMs: 300,
  });
  const host: Host = await startHost({
    rpc: createRpcServer(engine, undefined, () => undefined),
    rendererDir,
  });
  cleanups.push(
    () => fs.rmSync(root, { recursive: true, force: true }),
    () => engine.close(),
    () => host.close(),
  );
  const connect = async (): Promise<{ client: Client; transport: WsTransport }> => {
    const transport = createWsTransport(
      () => new WebSocket(`ws://127.0.0.1:${host.port}/rpc?token=${host.token}`) as unknown as SocketLike,
    );
    await transport.ready;
    return { client: createClient(transport), transport };
  };
  const finished = (runId: string) =>
    new Promise<RunResult>((resolve) => {
      const off = engine.events.subscribe((name, payload) => {
        if (name === 'run.finished' && (payload as RunResult).run_id === runId) {
          off();
          resolve(payload as RunResult);
        }
      });
    });
  return { engine, connect, finished, id: path.join(skills, 'asker') };
}

const requested = (client: Client) =>
  new Promise<ApprovalRequest>((resolve) => {
    const off = client.on('approval.requested', (r) => {
      off();
      resolve(r);
    });
  });

describe('approvals over a WebSocket', () => {
  it('a lost connection denies the pending request, and the script never runs', async () => {
    const { engine, connect, finished, id } = await setup();
    const { client, transport } = await connect();
    const resolutions: ApprovalResolution[] = [];
    engine.events.subscribe((name, payload) => {
      if (name === 'approval.resolved') resolutions.push(payload as ApprovalResolution);
    });
    const asked = requested(client);
    const { run_id } = await client.invoke('run.start', { id, task: 'go' });
    const done = finished(run_id);
    expect((await asked).skill).toBe('asker');
    transport.close();
    const result = await done;
    expect(result.status).toBe('denied');
    expect(resolutions).toEqual([expect.objectContaining({ decision: 'deny', by: 'disconnect' })]);
    expect(result.files).toEqual([]);
  });

  it('a reload keeps the request: the new connection lists it and its answer runs the script', async () => {
    const { connect, finished, id } = await setup();
    const first = await connect();
    const asked = requested(first.client);
    const { run_id } = await first.client.invoke('run.start', { id, task: 'go' });
    const done = finished(run_id);
    const request = await asked;
    first.transport.close();
    const second = await connect();
    const { requests } = await second.client.invoke('approvals.pending', {});
    expect(requests.map((r) => r.id)).toEqual([request.id]);
    // Past the grace period the request is still there: the window came back.
    await new Promise((r) => setTimeout(r, 450));
    await second.client.invoke('approvals.answer', { id: request.id, decision: 'allow_once' });
    const result = await done;
    expect(result.status).toBe('success');
    expect(result.files.map((f) => f.path)).toEqual(['out/ran.txt']);
    second.transport.close();
  });
});
