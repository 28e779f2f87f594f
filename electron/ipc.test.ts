import fs from 'node:fs';
import path from 'node:path';
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../shared/api';
import { IPC_EVENT, IPC_INVOKE, type RpcResponse, type Transport } from '../shared/rpc';
import { createEngine } from './engine';
import { registerIpc } from './ipc';
import { createRpcServer } from './rpc/server';
import { contractSuite, seedContractSkills, type ContractHarness } from './testing/contractSuite';
import { tempDir } from './testing/fixtures';

// Electron itself cannot run here; these stand in for Electron's ipcMain and WebContents
// (Electron's API, not ours), so the real registerIpc + RpcServer + engine are exercised.
type InvokeHandler = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<RpcResponse>;
const root = tempDir();
const skillsDir = path.join(root, 'skills');
let handler: InvokeHandler | undefined;
const sent: unknown[][] = [];
const eventListeners = new Set<(name: string, payload: unknown) => void>();
const trustedEvent = { senderFrame: { url: 'file:///app/index.html' } } as unknown as IpcMainInvokeEvent;
const untrustedEvent = { senderFrame: { url: 'https://evil.example/' } } as unknown as IpcMainInvokeEvent;
let harness: ContractHarness;
let unregister: () => void;

beforeAll(async () => {
  seedContractSkills(skillsDir);
  const engine = await createEngine({
    home: path.join(root, 'home'),
    userHome: path.join(root, 'user-home'),
    workspace: path.join(root, 'workspace'),
    skillDirs: [skillsDir],
    noDefaultPaths: true,
  });
  const ipcMain = {
    handle: (channel: string, fn: InvokeHandler) => {
      if (channel === IPC_INVOKE) handler = fn;
    },
    removeHandler: () => (handler = undefined),
  } as unknown as Pick<IpcMain, 'handle' | 'removeHandler'>;
  const contents = {
    isDestroyed: () => false,
    send: (channel: string, ...args: unknown[]) => {
      sent.push([channel, ...args]);
      if (channel === IPC_EVENT) for (const listener of eventListeners) listener(args[0] as string, args[1]);
    },
  } as unknown as WebContents;
  unregister = registerIpc(
    ipcMain,
    createRpcServer(engine, undefined, () => undefined),
    {
      isTrustedSender: (event) => event.senderFrame?.url === 'file:///app/index.html',
      targets: () => [contents],
    },
  );
  // What preload.ts does with ipcRenderer.invoke / ipcRenderer.on.
  const transport: Transport = {
    request: (method, input) => handler!(trustedEvent, method, input),
    subscribe: (listener) => {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
  };
  harness = { client: createClient(transport), transport, skillsDir };
});

afterAll(() => {
  unregister();
  fs.rmSync(root, { recursive: true, force: true });
});

contractSuite('Electron IPC', () => harness);

describe('Electron IPC wiring', () => {
  it('refuses requests from an untrusted frame', async () => {
    const response = await handler!(untrustedEvent, 'skills.list', {});
    expect(response).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('pushes events on the event channel and unregisters cleanly', () => {
    expect(sent.some(([channel, name]) => channel === IPC_EVENT && name === 'skills.changed')).toBe(true);
  });
});
