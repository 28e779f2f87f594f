import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Placeholder } from '../../../ui/Placeholder';
import { Spinner } from '../../../ui/Spinner';
import { ErrorIcon, RunsIcon } from '../../../ui/icons';
import { useRunsStore } from '../store';
import { RunDetail } from './RunDetail';
import { RunList } from './RunList';
import '../runs.css';
import '../timeline.css';

/** Recent runs, newest first, live; the selected one with its timeline (issue 7 item 8). */
export function RunsPage() {
  const { status, error, runs, selectedId, start, select } = useRunsStore(
    useShallow((s) => ({
      status: s.status,
      error: s.error,
      runs: s.runs,
      selectedId: s.selectedId,
      start: s.start,
      select: s.select,
    })),
  );
  useEffect(start, [start]);
  const current = selectedId ?? runs[0]?.run_id ?? null;
  // The first run shown without a click still needs its record.
  const ensureRecord = useRunsStore((s) => s.ensureRecord);
  useEffect(() => {
    if (current) void ensureRecord(current);
  }, [current, ensureRecord]);

  if (status === 'idle' || (status === 'loading' && runs.length === 0)) {
    return (
      <div className="page-center">
        <Spinner label="Loading runs" />
      </div>
    );
  }
  if (status === 'error' && runs.length === 0) {
    return (
      <div className="page-center">
        <Placeholder icon={<ErrorIcon size={24} />} tone="error" title="Could not load the runs">
          <p>{error}</p>
        </Placeholder>
      </div>
    );
  }

  return (
    <div className="runs-page" data-testid="runs-page">
      {runs.length === 0 ? (
        <Placeholder icon={<RunsIcon size={24} />} title="No runs yet" testId="runs-empty">
          <p>
            Send a chat message that a skill answers, open a skill and use its Run tab, or run one from the
            command line with <code>skilldeck run SKILL "TASK"</code>. Each run shows here with its timeline,
            output and files.
          </p>
        </Placeholder>
      ) : (
        <>
          <div className="runs-page__list">
            <RunList runs={runs} selectedId={current} onSelect={select} />
          </div>
          <div className="runs-page__detail">{current && <RunDetail key={current} runId={current} />}</div>
        </>
      )}
    </div>
  );
}
