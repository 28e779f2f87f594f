import { z } from 'zod';
import { RpcError } from './contract/common';

/** What every request resolves to, over every transport. */
export type RpcResponse = { ok: true; result: unknown } | { ok: false; error: RpcError };

/** Largest WebSocket message either side accepts, in bytes. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** Browser mode wire format: renderer → host. */
export const WireRequest = z
  .object({
    type: z.literal('request'),
    id: z.union([z.number().int(), z.string().max(64)]),
    method: z.string().max(128),
    input: z.unknown().optional(),
  })
  .strict();
export type WireRequest = z.infer<typeof WireRequest>;

/** Browser mode wire format: host → renderer. */
export type WireMessage =
  | ({ type: 'response'; id: number | string | null } & RpcResponse)
  | { type: 'event'; name: string; payload: unknown };

/** A way to reach the engine: Electron IPC or a WebSocket. Everything above it is shared. */
export interface Transport {
  request(method: string, input: unknown): Promise<RpcResponse>;
  subscribe(listener: (name: string, payload: unknown) => void): () => void;
}

/** The error a client call rejects with; carries the engine's structured error. */
export class RpcFailure extends Error {
  readonly code: RpcError['code'];
  readonly issues: RpcError['issues'];
  constructor(error: RpcError) {
    super(error.message);
    this.name = 'RpcFailure';
    this.code = error.code;
    this.issues = error.issues;
  }
}

/** What the Electron preload exposes as `window.skilldeck`, and nothing more. */
export interface PreloadApi {
  invoke(method: string, input: unknown): Promise<RpcResponse>;
  on(event: string, listener: (payload: unknown) => void): () => void;
}

/** Electron IPC channel for requests (renderer → main); replies are `RpcResponse`. */
export const IPC_INVOKE = 'skilldeck:invoke';
/** Electron IPC channel for pushed events (main → renderer): `(name, payload)`. */
export const IPC_EVENT = 'skilldeck:event';
