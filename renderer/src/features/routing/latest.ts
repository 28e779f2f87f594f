/**
 * Keeps at most one request in flight and always ends on the newest input: while one runs,
 * newer inputs replace each other and only the last is sent when it returns. A stale answer
 * (older than one already shown, or for input that was cancelled since) is dropped.
 *
 * Routing takes well under a millisecond (DESIGN §3), so pacing by round trip instead of a
 * fixed debounce keeps the panel one round trip behind the keyboard, never a timer behind it.
 */
export interface LatestRequester<I> {
  request(input: I): void;
  /** Forget the pending input and drop any answer still on its way. */
  cancel(): void;
}

export function createLatestRequester<I, O>(
  run: (input: I) => Promise<O>,
  onResult: (output: O, input: I) => void,
  onError: (error: unknown, input: I) => void,
): LatestRequester<I> {
  let generation = 0;
  /** Answers to inputs at or below this generation were cancelled. */
  let cancelledUpTo = 0;
  let inFlight = false;
  let pending: { input: I; generation: number } | null = null;

  const send = (input: I, gen: number) => {
    inFlight = true;
    const settle = () => {
      inFlight = false;
      const next = pending;
      pending = null;
      if (next) send(next.input, next.generation);
    };
    // Answers come back in order (one in flight), so any answer not cancelled is newer than the
    // one on screen: showing it while a newer input waits keeps the panel moving during a burst.
    run(input).then(
      (output) => {
        if (gen > cancelledUpTo) onResult(output, input);
        settle();
      },
      (error: unknown) => {
        if (gen === generation) onError(error, input);
        settle();
      },
    );
  };

  return {
    request(input) {
      generation += 1;
      if (inFlight) pending = { input, generation };
      else send(input, generation);
    },
    cancel() {
      generation += 1;
      cancelledUpTo = generation;
      pending = null;
    },
  };
}
