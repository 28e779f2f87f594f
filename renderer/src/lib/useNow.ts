import { useSyncExternalStore } from 'react';

interface Clock {
  subscribe: (onChange: () => void) => () => void;
  read: () => number;
}

/**
 * One shared ticking clock per interval. Countdowns and live durations read the time
 * through it, so render stays pure (react-hooks/purity) and every reader ticks together.
 */
function makeClock(intervalMs: number): Clock {
  let now = Date.now();
  let timer: ReturnType<typeof setInterval> | undefined;
  const listeners = new Set<() => void>();
  return {
    subscribe(onChange) {
      listeners.add(onChange);
      if (!timer) {
        now = Date.now();
        timer = setInterval(() => {
          now = Date.now();
          for (const listener of listeners) listener();
        }, intervalMs);
      }
      return () => {
        listeners.delete(onChange);
        if (listeners.size === 0 && timer) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    },
    read: () => now,
  };
}

const clocks = new Map<number, Clock>();
const still = () => () => undefined;

/** `Date.now()`, refreshed every `intervalMs` while `active`; frozen (no timer) otherwise. */
export function useNow(intervalMs = 1000, active = true): number {
  let clock = clocks.get(intervalMs);
  if (!clock) {
    clock = makeClock(intervalMs);
    clocks.set(intervalMs, clock);
  }
  return useSyncExternalStore(active ? clock.subscribe : still, clock.read);
}
