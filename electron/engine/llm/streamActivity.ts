import { AsyncLocalStorage } from 'node:async_hooks';

export interface Listener {
  /** Any piece of a response body arrived. */
  onBytes(): void;
  /** A server's error event came in a stream: its `error` object (see errorEventListener). */
  onErrorEvent?(event: object): void;
}

/** Who hears that bytes came from the model server, for the model call running in this context. */
const listeners = new AsyncLocalStorage<Listener>();

/**
 * Runs `run` (a model call and the reading of its stream) with `listener.onBytes` told of every
 * piece of the response body that arrives, whatever it holds. The AI SDK emits nothing for a keep-alive
 * comment (`: ping`, OpenRouter's `: OPENROUTER PROCESSING`) or Anthropic's ping event, so the
 * stall limit, which counts the SDK's parts, took a server still at work for a silent one.
 */
export function withStreamActivity<T>(listener: Listener, run: () => T): T {
  return listeners.run(listener, run);
}

/**
 * Who hears, for the model call running in this context, the `error` object of a server's error
 * event as the server sent it: the AI SDK hands on only its message, type, param and code, and
 * OpenRouter says what its upstream answered and when to come back in `metadata`.
 */
export const errorEventListener = (): ((event: object) => void) | undefined =>
  listeners.getStore()?.onErrorEvent;

/** `response` with its body reporting to the listener of the calling context, if there is one. */
export function tapped(response: Response): Response {
  const onBytes = listeners.getStore()?.onBytes;
  if (!onBytes || !response.body) return response;
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        onBytes();
        controller.enqueue(chunk);
      },
    }),
  );
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** `fetch` whose response bodies report to withStreamActivity's listener. */
export const activityFetch: typeof fetch = async (input, init) => tapped(await fetch(input, init));
