import type { ReactNode } from 'react';

/**
 * A key to press. `decorative`: shown but not read out, for a control that names its shortcut
 * with `aria-keyshortcuts`, so its accessible name stays its label alone.
 */
export function Kbd({ children, decorative = false }: { children: ReactNode; decorative?: boolean }) {
  return (
    <kbd className="kbd" aria-hidden={decorative || undefined}>
      {children}
    </kbd>
  );
}
