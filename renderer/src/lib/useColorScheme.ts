import { useSyncExternalStore } from 'react';

export type ColorScheme = 'light' | 'dark';

const query = () => window.matchMedia('(prefers-color-scheme: dark)');

function subscribe(onChange: () => void): () => void {
  const media = query();
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

/** The OS color scheme, live. The CSS follows it on its own; this is for Monaco. */
export function useColorScheme(): ColorScheme {
  return useSyncExternalStore(subscribe, () => (query().matches ? 'dark' : 'light'));
}
