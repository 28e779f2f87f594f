import { useShallow } from 'zustand/react/shallow';
import { CheckIcon } from '../../../ui/icons';
import { dependencyKey, useDependencyStore } from '../dependencies';
import './installDependency.css';

/**
 * What the user installed for a skill from here, after the reason that offered it is gone (the
 * program is on PATH now, so the tab no longer lists it): the command, how long, what it printed.
 */
export function InstalledNotes({ id, name, shown }: { id: string; name: string; shown: readonly string[] }) {
  const done = useDependencyStore(
    useShallow((s) =>
      Object.entries(s.steps).flatMap(([key, step]) =>
        step.status === 'done' &&
        step.result.ok &&
        key === dependencyKey(id, step.result.command) &&
        !shown.includes(step.result.command)
          ? [step.result]
          : [],
      ),
    ),
  );
  if (done.length === 0) return null;
  return (
    <ul className="installed-notes" aria-label={`Installed for ${name}`}>
      {done.map((result) => (
        <li
          key={result.command}
          className="install-dependency install-dependency--ok"
          data-testid="install-dependency-result"
          data-ok="true"
        >
          <p>
            <CheckIcon size={14} /> Installed with <code>{result.command}</code> in{' '}
            {(result.duration_ms / 1000).toFixed(1)} s
            {result.missing.length === 0 ? `: ${name} has what it needs.` : '.'}
          </p>
          {result.output.trim() && (
            <details>
              <summary>What the installer printed</summary>
              <pre className="install-dependency__output">{result.output.trimEnd()}</pre>
            </details>
          )}
        </li>
      ))}
    </ul>
  );
}
