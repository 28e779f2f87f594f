import type { ReactNode } from 'react';
import type { InstallHint } from '../../../shared/contract';
import { CopyButton } from './CopyButton';
import './installHints.css';

/**
 * How to install what a skill misses, from its own install entries: label, command, copy, and
 * what `action` offers (running it). The score panel, the chat notice and the skill's
 * Availability tab show it alike.
 */
export function InstallHints({
  name,
  install = [],
  action,
}: {
  name: string;
  install?: InstallHint[];
  /** What to offer under a hint besides copying it (the skills feature's Install button). */
  action?: (hint: InstallHint) => ReactNode;
}) {
  if (install.length === 0) return null;
  return (
    <ul
      className="install-hints"
      data-testid="install-hints"
      aria-label={`How to install what ${name} needs`}
    >
      {install.map((hint) => (
        <li key={hint.command}>
          {hint.label && <span className="install-hints__label">{hint.label}</span>}
          <span className="install-hints__command">
            <code>{hint.command}</code>
            <CopyButton
              text={() => hint.command}
              label={`Copy “${hint.command}”`}
              testId="install-hint-copy"
            />
          </span>
          {action?.(hint)}
        </li>
      ))}
    </ul>
  );
}
