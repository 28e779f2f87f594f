import { useEffect } from 'react';

export type AppReadiness = 'loading' | 'ready' | 'error';

/**
 * The explicit ready signal tests wait on (`[data-app-state="ready"]`). Set from an effect,
 * so `ready` is only visible once the first skill list has been committed to the DOM.
 */
export function useAppStateSignal(state: AppReadiness): void {
  useEffect(() => {
    document.documentElement.dataset.appState = state;
  }, [state]);
}
