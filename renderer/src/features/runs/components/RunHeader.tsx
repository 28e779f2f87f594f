import type { RunRecord } from '../../../../../shared/contract';
import { useNow } from '../../../lib/useNow';
import { RefreshIcon, StopIcon } from '../../../ui/icons';
import { commandRan, elapsedMs, formatDuration, runLook } from '../model';
import { useRunsStore } from '../store';
import { SandboxBadge } from './SandboxBadge';
import { StatusBadge } from './StatusBadge';

/** Skill, task, status, sandbox and time, with Stop while it runs and Run again after. */
export function RunHeader({ record }: { record: RunRecord }) {
  const { summary, result } = record;
  const running = summary.status === 'running';
  const now = useNow(1000, running);
  const cancel = useRunsStore((s) => s.cancel);
  const retry = useRunsStore((s) => s.retry);
  const busy = useRunsStore((s) => s.busy);

  return (
    <header className="run-header">
      <div className="run-header__titles">
        <h2 className="run-header__skill">{summary.skill}</h2>
        <p className={`run-header__task${summary.task ? '' : ' is-empty'}`} data-testid="run-task">
          {summary.task || 'no task text'}
        </p>
        <div className="run-header__facts">
          <StatusBadge look={runLook(summary, record.timeline)} />
          <SandboxBadge sandbox={summary.sandbox} ran={commandRan(summary, record.timeline, result)} />
          <span className="run-header__time" data-testid="run-duration">
            {formatDuration(elapsedMs(summary, now))}
          </span>
          {record.entrypoint && <code className="run-header__entry">{record.entrypoint}</code>}
          {result?.fallback_used && (
            <span className="run-header__note">
              {result.primary_failure?.skill_id === result.skill_id
                ? 'answered without a skill'
                : 'answered by a fallback skill'}
            </span>
          )}
        </div>
      </div>
      <div className="run-header__actions">
        {running ? (
          <button
            type="button"
            className="button button--small"
            onClick={() => void cancel(summary.run_id)}
            data-testid="run-stop"
          >
            <StopIcon size={13} /> Stop
          </button>
        ) : (
          <button
            type="button"
            className="button button--small"
            onClick={() => void retry(summary.run_id)}
            disabled={busy}
            title="Same skill, task and input"
            data-testid="run-again"
          >
            <RefreshIcon size={13} /> Run again
          </button>
        )}
      </div>
    </header>
  );
}
