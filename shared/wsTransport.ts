import type { RpcResponse, Transport, WireMessage } from './rpc';

/** The subset of the WebSocket API both the browser and the `ws` package provide. */
export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface WsTransport extends Transport {
  /** Resolves once the socket is open; rejects if it closes first. */
  ready: Promise<void>;
  close(): void;
  /** Called when the connection is lost; pending requests fail with `unavailable`. */
  onClose(listener: (reason: string) => void): void;
}

/** Browser-mode transport over one WebSocket, shared by the renderer and the tests. */
export function createWsTransport(open: () => SocketLike): WsTransport {
  const socket = open();
  const pending = new Map<number, (response: RpcResponse) => void>();
  const subscribers = new Set<(name: string, payload: unknown) => void>();
  const closeListeners = new Set<(reason: string) => void>();
  let nextId = 1;
  let closed: string | null = null;

  const ready = new Promise<void>((resolve, reject) => {
    socket.onopen = () => resolve();
    socket.onclose = (event) => {
      closed = event.reason || `connection closed (${event.code})`;
      reject(new Error(closed));
      for (const settle of pending.values()) {
        settle({ ok: false, error: { code: 'unavailable', message: closed } });
      }
      pending.clear();
      for (const listener of closeListeners) listener(closed);
    };
  });
  ready.catch(() => undefined);
  socket.onerror = () => undefined;
  socket.onmessage = (event) => {
    if (typeof event.data !== 'string') return;
    let message: WireMessage;
    try {
      message = JSON.parse(event.data) as WireMessage;
    } catch {
      return;
    }
    if (message.type === 'event') {
      for (const subscriber of subscribers) subscriber(message.name, message.payload);
      return;
    }
    if (message.type === 'response' && typeof message.id === 'number') {
      const settle = pending.get(message.id);
      pending.delete(message.id);
      const { type: _type, id: _id, ...response } = message;
      settle?.(response as RpcResponse);
    }
  };

  return {
    ready,
    async request(method, input) {
      await ready;
      if (closed) return { ok: false, error: { code: 'unavailable', message: closed } };
      const id = nextId++;
      return new Promise<RpcResponse>((resolve) => {
        pending.set(id, resolve);
        socket.send(JSON.stringify({ type: 'request', id, method, input }));
      });
    },
    subscribe(listener) {
      subscribers.add(listener);
      return () => subscribers.delete(listener);
    },
    close() {
      socket.close(1000, 'client closed');
    },
    onClose(listener) {
      closeListeners.add(listener);
    },
  };
}
