import type { RunScript } from '../../../../../shared/contract';
import { TerminalIcon } from '../../../ui/icons';
import { formatDuration } from '../model';
import { SandboxBadge } from './SandboxBadge';
import { StatusBadge } from './StatusBadge';

/**
 * The scripts that ran during the run beyond its own command: an instruction skill's model ran
 * them through its tools, so the run itself has no command line to show, yet they ran. Each
 * names the files it wrote; Files produced below has them with their paths on disk.
 */
export function RunScripts({ skill, scripts }: { skill: string; scripts: RunScript[] }) {
  return (
    <section className="run-section" aria-label="Scripts run">
      <h3 className="run-section__title">Scripts run</h3>
      <ol className="run-files run-scripts">
        {scripts.map((s, i) => (
          <li key={i} className="run-file run-script" data-testid="run-script" data-status={s.status}>
            <TerminalIcon size={14} />
            <div className="run-file__names">
              <code className="run-file__path">
                {s.skill === skill ? s.script : `${s.skill}: ${s.script}`}
              </code>
              <span className="run-file__abs">{s.command.join(' ')}</span>
              {s.files && s.files.length > 0 && (
                <span className="run-script__wrote" data-testid="run-script-files">
                  wrote{' '}
                  {s.files.map((f, j) => (
                    <span key={f.path}>
                      {j > 0 && ', '}
                      <code data-testid="run-script-file">{f.path}</code>
                    </span>
                  ))}
                </span>
              )}
            </div>
            <StatusBadge look={s.status} testId="run-script-status" />
            <SandboxBadge sandbox={s.sandbox} ran="yes" />
            {s.exit_code !== null && (
              <span className="run-file__size" data-testid="run-script-exit">
                exit {s.exit_code}
              </span>
            )}
            <span className="run-file__size">{formatDuration(s.duration_ms)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
