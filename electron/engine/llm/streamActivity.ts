import { AsyncLocalStorage } from 'node:async_hooks';

/** Who hears that bytes came from the model server, for the model call running in this context. */
const listeners = new AsyncLocalStorage<() => void>();

/**
 * Runs `run` (a model call and the reading of its stream) with `onBytes` told of every piece of
 * the response body that arrives, whatever it holds. The AI SDK emits nothing for a keep-alive
 * comment (`: ping`, OpenRouter's `: OPENROUTER PROCESSING`) or Anthropic's ping event, so the
 * stall limit, which counts the SDK's parts, took a server still at work for a silent one.
 */
export function withStreamActivity<T>(onBytes: () => void, run: () => T): T {
  return listeners.run(onBytes, run);
}

/** `response` with its body reporting to the listener of the calling context, if there is one. */
export function tapped(response: Response): Response {
  const onBytes = listeners.getStore();
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
