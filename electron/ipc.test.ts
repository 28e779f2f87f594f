import fs from 'node:fs';
import path from 'node:path';
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../shared/api';
import { IPC_EVENT, IPC_INVOKE, type RpcResponse, type Transport } from '../shared/rpc';
import { createEngine, type Engine } from './engine';
import { isRendererFrame, registerIpc, rendererUrlOf } from './ipc';
import { createRpcServer, type RpcServer } from './rpc/server';
import { contractSuite, seedContractSkills, type ContractHarness } from './testing/contractSuite';
import { tempDir } from './testing/fixtures';

// Electron itself cannot run here; these stand in for Electron's ipcMain and WebContents
// (Electron's API, not ours), so the real registerIpc + RpcServer + engine are exercised,
// with main.ts's own trusted-frame check.
type InvokeHandler = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<RpcResponse>;
const root = tempDir();
const skillsDir = path.join(root, 'skills');
const RENDERER_URL = rendererUrlOf('/app/index.html');
const frame = (url: string) => ({ senderFrame: { url } }) as unknown as IpcMainInvokeEvent;
let engine: Engine;
let rpc: RpcServer;
let harness: ContractHarness;
let main: ReturnType<typeof fakeElectron>;

/** One ipcMain and one window, recording what registerIpc does with them. */
function fakeElectron(onEvent: (name: string, payload: unknown) => void = () => undefined) {
  const handlers = new Map<string, InvokeHandler>();
  const sent: unknown[][] = [];
  const ipcMain = {
    handle: (channel: string, fn: InvokeHandler) => handlers.set(channel, fn),
    removeHandler: (channel: string) => handlers.delete(channel),
  } as unknown as Pick<IpcMain, 'handle' | 'removeHandler'>;
  const contents = {
    isDestroyed: () => false,
    send: (channel: string, name: string, payload: unknown) => {
      sent.push([channel, name, payload]);
      if (channel === IPC_EVENT) onEvent(name, payload);
    },
  } as unknown as WebContents;
  const unregister = registerIpc(ipcMain, rpc, {
    isTrustedSender: (event) => isRendererFrame(event, RENDERER_URL),
    targets: () => [contents],
  });
  const invoke = (event: IpcMainInvokeEvent, method: string, input: unknown) => {
    const handler = handlers.get(IPC_INVOKE);
    if (!handler) throw new Error('no handler registered');
    return handler(event, method, input);
  };
  return { handlers, sent, invoke, unregister };
}

beforeAll(async () => {
  seedContractSkills(skillsDir);
  engine = await createEngine({
    home: path.join(root, 'home'),
    userHome: path.join(root, 'user-home'),
    workspace: path.join(root, 'workspace'),
    skillDirs: [skillsDir],
    noDefaultPaths: true,
    // The runner's OPENAI_* variables must not configure a model under the contract suite.
    env: {},
  });
  rpc = createRpcServer(engine, undefined, () => undefined);
  // What preload.ts does with ipcRenderer.invoke / ipcRenderer.on, from the renderer's frame.
  const listeners = new Set<(name: string, payload: unknown) => void>();
  main = fakeElectron((name, payload) => listeners.forEach((listener) => listener(name, payload)));
  const transport: Transport = {
    request: (method, input) => main.invoke(frame(`${RENDERER_URL}#/skills`), method, input),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  harness = { client: createClient(transport), transport, skillsDir };
});

afterAll(async () => {
  main.unregister();
  await engine.close();
  fs.rmSync(root, { recursive: true, force: true });
});

contractSuite('Electron IPC', () => harness);

describe('Electron IPC wiring', () => {
  it('trusts only a frame showing our renderer, whatever its route', () => {
    expect(RENDERER_URL).toBe('file:///app/index.html');
    expect(rendererUrlOf('/my app/index.html')).toBe('file:///my%20app/index.html');
    for (const url of [RENDERER_URL, `${RENDERER_URL}#/skills`, `${RENDERER_URL}?view=routes#x`])
      expect(isRendererFrame(frame(url), RENDERER_URL), url).toBe(true);
    for (const url of [
      'https://evil.example/',
      `https://evil.example/#${RENDERER_URL}`,
      `https://evil.example/?${RENDERER_URL}`,
      'file:///app/other.html',
      `${RENDERER_URL}.evil.html`,
      'file:///app/index.htm',
      '',
    ])
      expect(isRendererFrame(frame(url), RENDERER_URL), url).toBe(false);
    const detached = { senderFrame: null } as unknown as IpcMainInvokeEvent;
    expect(isRendererFrame(detached, RENDERER_URL)).toBe(false);
  });

  it('refuses requests from an untrusted frame', async () => {
    const response = await main.invoke(frame('https://evil.example/'), 'skills.list', {});
    expect(response).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('pushes events on the event channel, and after unregistering neither answers nor pushes', async () => {
    const own = fakeElectron();
    const trusted = frame(RENDERER_URL);
    expect(await own.invoke(trusted, 'settings.update', { routing: { topK: 7 } })).toMatchObject({
      ok: true,
    });
    const topK = (n: number) => expect.objectContaining({ routing: expect.objectContaining({ topK: n }) });
    expect(own.sent).toContainEqual([IPC_EVENT, 'settings.changed', topK(7)]);

    own.unregister();
    expect(own.handlers.has(IPC_INVOKE)).toBe(false);
    const before = own.sent.length;
    await main.invoke(trusted, 'settings.update', { routing: { topK: 8 } });
    expect(main.sent.at(-1)).toEqual([IPC_EVENT, 'settings.changed', topK(8)]);
    expect(own.sent).toHaveLength(before);
  });
});
