import { create } from 'zustand';
import type { AppInfo } from '../../../../shared/contract';
import { errorMessage } from '../../lib/client';
import type { Connection } from '../../lib/transport';

export interface AppState {
  info: AppInfo | null;
  connection: 'connecting' | 'open' | 'lost';
  /** Whether the link ever opened: a link that never did needs other advice than one that dropped. */
  wasOpen: boolean;
  /** Why the link to the engine dropped (or never opened). */
  lostReason: string | null;
  /** Follows the connection and fetches `app.info` once it is open. */
  start(connection: Connection): void;
}

export const useAppStore = create<AppState>()((set) => ({
  info: null,
  connection: 'connecting',
  wasOpen: false,
  lostReason: null,

  start(connection) {
    connection.onLost((reason) => set({ connection: 'lost', lostReason: reason }));
    connection.ready.then(
      async () => {
        set((s) => (s.connection === 'connecting' ? { connection: 'open', wasOpen: true } : {}));
        try {
          set({ info: await connection.client.invoke('app.info', {}) });
        } catch {
          // The top bar simply shows no version; the skills list reports real failures.
        }
      },
      (error: unknown) => set({ connection: 'lost', lostReason: errorMessage(error) }),
    );
  },
}));
