import { useSyncExternalStore } from 'react';

/** The top-level views, one per nav entry; the address hash names the open one (`#chat`). */
/**
 * `repair` has no nav entry: it is reached from a failed run (`#repair/<run>/<repair>`), or from
 * a skill's Problems tab (`#repair/-/<repair>`, a frontmatter fix made without a run).
 */
export const VIEWS = ['chat', 'skills', 'runs', 'activity', 'settings', 'repair'] as const;
export type View = (typeof VIEWS)[number];

/** Skills stays the default view: a bare URL opens where the app always opened. */
const DEFAULT_VIEW: View = 'skills';

export function viewFromHash(hash: string): View {
  const name = hash.replace(/^#\/?/, '').split(/[/?]/)[0];
  return (VIEWS as readonly string[]).includes(name) ? (name as View) : DEFAULT_VIEW;
}

const subscribe = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};

export function useView(): View {
  return useSyncExternalStore(subscribe, () => viewFromHash(location.hash));
}

/** The nav entry a view lights: a review lights Runs, or Skills when it was made without a run. */
export function navEntryOf(hash: string): View {
  const view = viewFromHash(hash);
  if (view !== 'repair') return view;
  return /^#\/?repair\/-\//.test(hash) ? 'skills' : 'runs';
}

export function useNavEntry(): View {
  return useSyncExternalStore(subscribe, () => navEntryOf(location.hash));
}
