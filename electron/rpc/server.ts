import { isMethod, requests, type EventName, type Events, type RpcError } from '../../shared/contract';
import type { RpcResponse } from '../../shared/rpc';
import type { Engine } from '../engine';
import { EngineError } from '../engine/errors';
import { createHandlers, type Handlers } from './handlers';

export interface RpcServer {
  /** Validate and run one request; never throws, whatever the caller sends. */
  handle(method: unknown, input: unknown): Promise<RpcResponse>;
  /** Every engine event, for the transport to push to its clients. */
  subscribe(listener: <E extends EventName>(name: E, payload: Events[E]) => void): () => void;
  /**
   * A window or connection that can answer approval requests is here; call the returned
   * function when it goes. With none left, pending requests are denied after a short grace
   * (a reload comes back within it; a closed window or lost connection does not).
   */
  attachAnswerer(): () => void;
}

const fail = (error: RpcError): RpcResponse => ({ ok: false, error });

/** The server half of the contract, shared by Electron IPC and the browser-mode host. */
export function createRpcServer(
  engine: Engine,
  handlers: Handlers = createHandlers(engine),
  log: (message: string, error: unknown) => void = (message, error) => console.error(message, error),
): RpcServer {
  return {
    async handle(method, input) {
      if (!isMethod(method)) {
        return fail({ code: 'unknown_method', message: `Unknown method ${JSON.stringify(method)}.` });
      }
      const parsed = requests[method].input.safeParse(input ?? {});
      if (!parsed.success) {
        return fail({
          code: 'invalid_params',
          message: `Invalid parameters for ${method}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
          issues: parsed.error.issues.map((issue) => ({
            path: issue.path.join('.'),
            message: issue.message,
          })),
        });
      }
      try {
        const handler = handlers[method] as (input: unknown) => Promise<unknown>;
        return { ok: true, result: await handler(parsed.data) };
      } catch (error) {
        if (error instanceof EngineError) return fail({ code: error.code, message: error.message });
        log(`[rpc] ${method} failed:`, error);
        return fail({
          code: 'internal',
          message: `${method} failed: ${(error as Error)?.message ?? String(error)}`,
        });
      }
    },
    subscribe(listener) {
      return engine.events.subscribe(listener);
    },
    attachAnswerer() {
      return engine.execution.broker.attach();
    },
  };
}
