import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Spinner } from '../../../ui/Spinner';
import { CheckIcon, ChevronIcon, ErrorIcon } from '../../../ui/icons';
import { StatusBadge } from '../../runs/components/StatusBadge';
import { useRunsStore } from '../../runs/store';
import { openSkillTab } from '../openSkill';
import type { ApplyOutcome } from '../review';

/** The applied revision, and the original request run again on the patched skill. */
export function ApplyResult({ outcome }: { outcome: ApplyOutcome }) {
  const { revision, retries, retryRunId, retryError } = outcome;
  const retry = useRunsStore(useShallow((s) => (retryRunId ? s.records[retryRunId] : undefined)));
  const status = retry?.summary.status;
  const ref = useRef<HTMLElement>(null);
  // Apply is pressed at the bottom of a long review: bring the outcome into view once.
  useEffect(() => {
    // A block body: Chromium's scrollIntoView returns a promise, which React would take for a cleanup.
    ref.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  return (
    <section
      ref={ref}
      className="review-card review-applied"
      aria-label="Applied"
      data-testid="apply-result"
      data-revision={revision.revision}
    >
      <p className="review-applied__line">
        <CheckIcon size={15} />
        <span>
          Applied as revision <code data-testid="applied-revision">{revision.revision}</code> to{' '}
          {revision.files.map((f) => f.path).join(', ')}
          {revision.copied_from ? ', in a managed copy that shadows the bundled skill' : ''}. The originals
          are kept: undo it from the skill’s repair history.
        </span>
      </p>
      {!retries && (
        <p className="review-applied__retry" data-testid="retry-result" data-status="none">
          <span>
            <code>{revision.skill}</code> loads now: it is listed without an error and routing can pick it.
          </span>
        </p>
      )}
      {retries && (
        <div
          className="review-applied__retry"
          data-testid="retry-result"
          data-status={status ?? (retryError ? 'error' : 'starting')}
        >
          <strong>The original request, again:</strong>
          {retryError && (
            <span className="tone-red" role="alert">
              <ErrorIcon size={13} /> {retryError}
            </span>
          )}
          {!retryError && !retry && <Spinner label="Starting the retry" />}
          {retry && <StatusBadge look={retry.summary.status} testId="retry-status" />}
          {retryRunId && (
            <a
              className="link-button"
              href="#runs"
              onClick={() => useRunsStore.getState().select(retryRunId)}
              data-testid="retry-run-link"
            >
              Open the run <ChevronIcon size={11} />
            </a>
          )}
        </div>
      )}
      {retry?.result && (retry.result.output || retry.result.error) && (
        <pre
          className={`run-output${retry.result.error ? ' run-output--stderr' : ''}`}
          data-testid="retry-output"
        >
          {retry.result.error ?? retry.result.output}
        </pre>
      )}
      <button
        type="button"
        className="link-button review-applied__history"
        onClick={() => openSkillTab(revision.skill_id, 'history')}
        data-testid="open-history"
      >
        See the repair history of {revision.skill} <ChevronIcon size={11} />
      </button>
    </section>
  );
}
