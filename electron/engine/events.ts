import type { EventName, Events } from '../../shared/contract';

type Listener = (name: EventName, payload: Events[EventName]) => void;

/** The engine's typed event bus; adapters forward every event to their clients. */
export class EngineEvents {
  private readonly listeners = new Set<Listener>();

  emit<E extends EventName>(name: E, payload: Events[E]): void {
    for (const listener of this.listeners) listener(name, payload);
  }

  /** Subscribe to every event; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
