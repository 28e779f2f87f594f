import type { Client } from '../../../shared/api';

let current: Client | null = null;

/** Set once at start-up by main.tsx, before any store action runs. */
export function setClient(client: Client): void {
  current = client;
}

/** The one engine client every store action goes through. */
export function client(): Client {
  if (!current) throw new Error('The engine client is used before main.tsx set it.');
  return current;
}

/** A readable message from whatever a failed request threw. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
