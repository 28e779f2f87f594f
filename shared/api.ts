import type { EventName, Events, Method, Requests } from './contract';
import { RpcFailure, type Transport } from './rpc';

/** The one typed client the renderer, tests and tools use, over any transport. */
export interface Client {
  invoke<M extends Method>(method: M, input: Requests[M]['input']): Promise<Requests[M]['output']>;
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
}

export function createClient(transport: Transport): Client {
  const listeners = new Map<string, Set<(payload: never) => void>>();
  transport.subscribe((name, payload) => {
    for (const listener of listeners.get(name) ?? []) listener(payload as never);
  });
  return {
    async invoke(method, input) {
      const response = await transport.request(method, input);
      if (!response.ok) throw new RpcFailure(response.error);
      return response.result as never;
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
  };
}
