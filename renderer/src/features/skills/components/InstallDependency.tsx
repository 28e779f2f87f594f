import { useEffect, useRef } from 'react';
import type { InstallHint } from '../../../../../shared/contract';
import { Spinner } from '../../../ui/Spinner';
import { CheckIcon, DownloadIcon, ErrorIcon } from '../../../ui/icons';
import { dependencyKey, useDependencyStore } from '../dependencies';
import './installDependency.css';

/**
 * Runs one of a skill's own install commands for what it misses, after the user has read what
 * will run and where (users' ask #13). Only for `runnable` hints: the user's package manager,
 * found on PATH, no sudo.
 */
export function InstallDependency({ id, name, hint }: { id: string; name: string; hint: InstallHint }) {
  const step = useDependencyStore((s) => s.steps[dependencyKey(id, hint.command)]);
  const ask = useDependencyStore((s) => s.ask);
  const cancel = useDependencyStore((s) => s.cancel);
  const install = useDependencyStore((s) => s.install);
  if (!hint.runnable) return null;
  const run = () => void install(id, hint.command);

  if (!step)
    return (
      <button
        type="button"
        className="button button--small install-dependency__start"
        onClick={() => ask(id, hint.command)}
        data-testid="install-dependency"
      >
        <DownloadIcon size={13} /> Install
      </button>
    );
  if (step.status === 'confirm')
    return (
      <div
        className="install-dependency install-dependency--confirm"
        role="group"
        aria-label={`Install for ${name}`}
      >
        <p>
          Runs <code>{hint.command}</code> on this computer as you, <strong>outside the sandbox</strong>, with
          network access. It comes from {name}&rsquo;s own install entries: install only what you trust.
        </p>
        <div className="install-dependency__actions">
          <button
            type="button"
            className="button button--small button--primary"
            onClick={run}
            data-testid="install-dependency-confirm"
          >
            Run install
          </button>
          <button type="button" className="button button--small" onClick={() => cancel(id, hint.command)}>
            Cancel
          </button>
        </div>
      </div>
    );
  if (step.status === 'running')
    return (
      <div className="install-dependency" data-testid="install-dependency-running">
        <p className="install-dependency__status">
          <Spinner label="Installing" /> Installing… <code>{hint.command}</code>
        </p>
        {step.output && <LiveOutput text={step.output} />}
      </div>
    );
  if (step.status === 'error')
    return (
      <div
        className="install-dependency install-dependency--failed"
        data-testid="install-dependency-result"
        data-ok="false"
      >
        <ErrorIcon size={14} /> {step.error}
        <button type="button" className="button button--small" onClick={() => cancel(id, hint.command)}>
          Dismiss
        </button>
      </div>
    );
  const { result } = step;
  const seconds = `${(result.duration_ms / 1000).toFixed(1)} s`;
  return (
    <div
      className={`install-dependency ${result.ok ? 'install-dependency--ok' : 'install-dependency--failed'}`}
      data-testid="install-dependency-result"
      data-ok={String(result.ok)}
    >
      <p>
        {result.ok ? <CheckIcon size={14} /> : <ErrorIcon size={14} />}{' '}
        {result.ok
          ? result.missing.length === 0
            ? `Installed in ${seconds}: ${name} has what it needs.`
            : `Finished in ${seconds}, but ${result.missing.join(', ')} is still not on PATH.`
          : `Failed after ${seconds}: ${result.error ?? `exit code ${result.exit_code}`}.`}
      </p>
      {result.output.trim() && (
        <details open={!result.ok}>
          <summary>What the installer printed</summary>
          <pre className="install-dependency__output">{result.output.trimEnd()}</pre>
        </details>
      )}
      {!result.ok && (
        <button type="button" className="button button--small" onClick={run}>
          Try again
        </button>
      )}
    </div>
  );
}

/** What a running installer has printed so far, kept scrolled to its newest line. */
function LiveOutput({ text }: { text: string }) {
  const ref = useRef<HTMLPreElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [text]);
  return (
    <pre
      ref={ref}
      className="install-dependency__output"
      aria-live="polite"
      aria-label="What the installer prints"
      data-testid="install-dependency-live"
    >
      {text.trimEnd()}
    </pre>
  );
}
