import type { RpcError } from '../../shared/contract';

/** An error the engine raises on purpose; adapters turn it into a structured `RpcError`. */
export class EngineError extends Error {
  readonly code: RpcError['code'];
  constructor(code: RpcError['code'], message: string) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
  }
}

export const notFound = (message: string) => new EngineError('not_found', message);
export const forbidden = (message: string) => new EngineError('forbidden', message);
