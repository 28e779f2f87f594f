import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { IPC_EVENT, IPC_INVOKE, type RpcResponse } from '../shared/rpc';
import type { RpcServer } from './rpc/server';

export interface IpcWiring {
  /** Only frames showing our own renderer may call the engine. */
  isTrustedSender(event: IpcMainInvokeEvent): boolean;
  /** Where pushed events go (every open window). */
  targets(): WebContents[];
}

/** The URL of our renderer's frame when main loads `indexFile` with `loadFile`. */
export const rendererUrlOf = (indexFile: string): string => new URL(`file://${indexFile}`).href;

/**
 * True when the IPC message comes from a frame showing our own renderer (its route in the
 * query or fragment aside): a page navigated elsewhere, or an embedded frame, is refused.
 */
export function isRendererFrame(event: Pick<IpcMainInvokeEvent, 'senderFrame'>, rendererUrl: string) {
  return event.senderFrame?.url.split('#')[0].split('?')[0] === rendererUrl;
}

/** Electron transport: the same `RpcServer` the browser host uses, over ipcMain. */
export function registerIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  rpc: RpcServer,
  wiring: IpcWiring,
) {
  ipcMain.handle(IPC_INVOKE, async (event, method: unknown, input: unknown): Promise<RpcResponse> => {
    if (!wiring.isTrustedSender(event)) {
      return { ok: false, error: { code: 'forbidden', message: 'Request from an untrusted frame.' } };
    }
    return rpc.handle(method, input);
  });
  const unsubscribe = rpc.subscribe((name, payload) => {
    for (const contents of wiring.targets()) {
      if (!contents.isDestroyed()) contents.send(IPC_EVENT, name, payload);
    }
  });
  return () => {
    unsubscribe();
    ipcMain.removeHandler(IPC_INVOKE);
  };
}
