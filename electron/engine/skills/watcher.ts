import { watch, type FSWatcher } from 'chokidar';

export interface SkillWatcher {
  /** Resolves once the initial scan is done and changes are being reported. */
  ready: Promise<void>;
  /** Starts watching folders that appeared since (e.g. the managed folder after a first install). */
  add(roots: string[]): void;
  close(): Promise<void>;
}

/**
 * Watches the discovery folders that exist (issue 3 item 6) and calls `onChange` once per
 * burst of changes, `debounceMs` after the last one: editors write a file in several steps.
 * `.git` and `node_modules` are ignored; depth matches the scan limit.
 */
export function watchSkillRoots(
  roots: string[],
  onChange: () => void,
  { debounceMs = 150, depth = 7 }: { debounceMs?: number; depth?: number } = {},
): SkillWatcher {
  let timer: NodeJS.Timeout | undefined;
  const fire = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      onChange();
    }, debounceMs);
  };
  const watcher: FSWatcher = watch(roots, {
    ignoreInitial: true,
    depth,
    ignored: (p: string) => /[\\/](\.git|node_modules)([\\/]|$)/.test(p),
  });
  watcher.on('all', fire);
  watcher.on('error', () => undefined);
  const watched = new Set(roots);
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    add(more) {
      const fresh = more.filter((r) => !watched.has(r));
      for (const r of fresh) watched.add(r);
      if (fresh.length) watcher.add(fresh);
    },
    async close() {
      if (timer) clearTimeout(timer);
      await watcher.close();
    },
  };
}
