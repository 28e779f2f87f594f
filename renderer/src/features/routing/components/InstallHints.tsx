import type { RouteCandidate } from '../../../../../shared/contract';
import { CopyButton } from '../../../ui/CopyButton';
import './installHints.css';

/** How to install what an unavailable skill misses, from its own install entries: label, command, copy. */
export function InstallHints({ candidate }: { candidate: Pick<RouteCandidate, 'name' | 'install'> }) {
  const install = candidate.install ?? [];
  if (install.length === 0) return null;
  return (
    <ul
      className="install-hints"
      data-testid="install-hints"
      aria-label={`How to install what ${candidate.name} needs`}
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
        </li>
      ))}
    </ul>
  );
}
