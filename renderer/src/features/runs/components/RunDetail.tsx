import { useShallow } from 'zustand/react/shallow';
import { InlineCode } from '../../../ui/InlineCode';
import { Spinner } from '../../../ui/Spinner';
import { ErrorIcon } from '../../../ui/icons';
import { InlineApproval } from '../../approvals/components/InlineApproval';
import { RepairOffer } from '../../repair/components/RepairOffer';
import { RunRepairs } from '../../repair/components/RunRepairs';
import { OFFER_STATUSES } from '../../repair/model';
import { scriptsBeyondCommand } from '../model';
import { useRunsStore } from '../store';
import { CopyButton } from './CopyButton';
import { RunFiles } from './RunFiles';
import { RunHeader } from './RunHeader';
import { RunOutput } from './RunOutput';
import { RunScripts } from './RunScripts';
import { RunTimeline } from './RunTimeline';
import { RunViolations } from './RunViolations';
import '../runs.css';
import '../timeline.css';

const NO_CHUNKS: never[] = [];

/** One run: its pending approval, timeline, output, files and what the sandbox blocked. */
export function RunDetail({ runId }: { runId: string }) {
  const { record, chunks, actionError } = useRunsStore(
    useShallow((s) => ({
      record: s.records[runId],
      chunks: s.output[runId] ?? NO_CHUNKS,
      actionError: s.runErrors[runId],
    })),
  );
  if (!record) {
    return (
      <div className="run-detail run-detail--loading" data-testid="run-detail" data-run-id={runId}>
        <Spinner label="Loading the run" />
      </div>
    );
  }
  const { result } = record;
  const scripts = result ? scriptsBeyondCommand(result) : [];

  return (
    <article
      className="run-detail"
      aria-label={`Run of ${record.summary.skill}`}
      data-testid="run-detail"
      data-run-id={runId}
      data-status={record.summary.status}
      data-cwd={result?.cwd ?? ''}
    >
      <RunHeader record={record} />
      {actionError && (
        <p className="callout callout--error" role="alert" data-testid="run-action-error">
          <ErrorIcon size={15} />
          {actionError}
        </p>
      )}
      <InlineApproval runId={runId} />
      {/* A block is told exactly in its own section below; the summary sentence would repeat it. */}
      {result?.error && result.violations.length === 0 && (
        <p className={`callout callout--error run-error run-error--${result.status}`} data-testid="run-error">
          <ErrorIcon size={15} />
          <span>
            <InlineCode text={result.error} />
          </span>
        </p>
      )}
      {result && result.violations.length > 0 && (
        <RunViolations runId={runId} violations={result.violations} />
      )}
      {result?.primary_failure?.error && (
        <p className="callout callout--error run-error" data-testid="run-primary-failure">
          <ErrorIcon size={15} />
          <span>
            {result.primary_failure.skill} failed first: <InlineCode text={result.primary_failure.error} />
          </span>
        </p>
      )}
      {result && OFFER_STATUSES.has(result.primary_failure?.status ?? result.status) && (
        <RepairOffer runId={runId} />
      )}
      {result?.status === 'success' && !result.primary_failure && result.stderr.trim() && (
        <RepairOffer runId={runId} whenEligible />
      )}
      <section className="run-section" aria-label="Timeline">
        <h3 className="run-section__title">Timeline</h3>
        <RunTimeline runId={runId} timeline={record.timeline} ended={result ? result.status : null} />
        <RunRepairs runId={runId} />
      </section>
      <RunOutput
        result={result}
        chunks={chunks}
        started={record.timeline.some((t) => t.state === 'running')}
      />
      {result && scripts.length > 0 && <RunScripts skill={result.skill} scripts={scripts} />}
      {result && result.command.length > 0 && (
        <section className="run-section" aria-label="Command">
          <h3 className="run-section__title">Command</h3>
          <pre className="run-output run-output--command" data-testid="run-command">
            {result.command.join(' ')}
          </pre>
          {result.cwd && (
            <div className="run-cwd">
              in <code data-testid="run-cwd">{result.cwd}</code>
              <CopyButton text={result.cwd} label="Copy the working folder" />
            </div>
          )}
        </section>
      )}
      {result && (result.command.length > 0 || scripts.length > 0) && <RunFiles files={result.files} />}
    </article>
  );
}
