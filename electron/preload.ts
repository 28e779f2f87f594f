import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { isEventName, isMethod } from '../shared/contract';
import { IPC_EVENT, IPC_INVOKE, type PreloadApi, type RpcResponse } from '../shared/rpc';

// Exactly `invoke` and `on`, for contract names only (STYLE: "The preload exposes exactly…").
const api: PreloadApi = {
  invoke(method, input) {
    if (!isMethod(method)) {
      const response: RpcResponse = {
        ok: false,
        error: { code: 'unknown_method', message: `Unknown method ${JSON.stringify(method)}.` },
      };
      return Promise.resolve(response);
    }
    return ipcRenderer.invoke(IPC_INVOKE, method, input) as Promise<RpcResponse>;
  },
  on(event, listener) {
    if (!isEventName(event)) throw new Error(`Unknown event ${JSON.stringify(event)}.`);
    const handler = (_event: IpcRendererEvent, name: unknown, payload: unknown) => {
      if (name === event) listener(payload);
    };
    ipcRenderer.on(IPC_EVENT, handler);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT, handler);
    };
  },
};

contextBridge.exposeInMainWorld('skilldeck', api);
