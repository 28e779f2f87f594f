import { createClient, type Client } from '../../../shared/api';
import { eventNames } from '../../../shared/contract';
import type { PreloadApi, Transport } from '../../../shared/rpc';
import { createWsTransport, type SocketLike } from '../../../shared/wsTransport';

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in browser mode. */
    skilldeck?: PreloadApi;
  }
}

export type TransportKind = 'electron' | 'websocket';

/** A client plus what the UI needs to know about the link under it. */
export interface Connection {
  client: Client;
  kind: TransportKind;
  /** Resolves once requests can be sent; rejects with a readable reason. */
  ready: Promise<void>;
  /** Called once if the link drops after (or instead of) opening. */
  onLost(listener: (reason: string) => void): void;
}

function preloadTransport(api: PreloadApi): Transport {
  return {
    request: (method, input) => api.invoke(method, input),
    subscribe(listener) {
      const offs = eventNames.map((name) => api.on(name, (payload) => listener(name, payload)));
      return () => offs.forEach((off) => off());
    },
  };
}

function socketUrl(token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/rpc?token=${encodeURIComponent(token)}`;
}

/** Electron when the preload is there, otherwise the browser-mode WebSocket to the serving host. */
export function connect(): Connection {
  if (window.skilldeck) {
    return {
      client: createClient(preloadTransport(window.skilldeck)),
      kind: 'electron',
      ready: Promise.resolve(),
      onLost: () => undefined,
    };
  }

  const token = new URLSearchParams(location.search).get('token');
  if (!token) {
    const reason = 'No access token in the page address. Open the URL that `skilldeck serve` printed.';
    const failing: Transport = {
      request: async () => ({ ok: false, error: { code: 'unavailable', message: reason } }),
      subscribe: () => () => undefined,
    };
    const ready = Promise.reject(new Error(reason));
    ready.catch(() => undefined);
    return {
      client: createClient(failing),
      kind: 'websocket',
      ready,
      onLost: (listener) => queueMicrotask(() => listener(reason)),
    };
  }

  // The DOM WebSocket is a SocketLike at runtime; its handler types are just narrower (Event vs unknown).
  const transport = createWsTransport(() => new WebSocket(socketUrl(token)) as unknown as SocketLike);
  return {
    client: createClient(transport),
    kind: 'websocket',
    ready: transport.ready,
    onLost: (listener) => transport.onClose(listener),
  };
}
