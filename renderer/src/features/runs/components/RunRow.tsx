import type { RunSummary } from '../../../../../shared/contract';
import { useNow } from '../../../lib/useNow';
import { commandRan, elapsedMs, formatDuration, runLook } from '../model';
import { useRunsStore } from '../store';
import { SandboxBadge } from './SandboxBadge';
import { StatusBadge } from './StatusBadge';

const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const day = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

function when(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Date().toDateString() === date.toDateString()
    ? time.format(date)
    : `${day.format(date)} ${time.format(date)}`;
}

interface RunRowProps {
  run: RunSummary;
  selected: boolean;
  onSelect: (id: string) => void;
}

export function RunRow({ run, selected, onSelect }: RunRowProps) {
  const timeline = useRunsStore((s) => s.records[run.run_id]?.timeline);
  const look = runLook(run, timeline ?? []);
  const result = useRunsStore((s) => s.records[run.run_id]?.result);
  const now = useNow(1000, run.status === 'running');
  return (
    <button
      type="button"
      className={`run-row${selected ? ' is-selected' : ''}`}
      aria-current={selected}
      onClick={() => onSelect(run.run_id)}
      data-testid="run-row"
      data-run-id={run.run_id}
      data-skill={run.skill}
      data-status={look}
    >
      <span className="run-row__top">
        <span className="run-row__skill">{run.skill}</span>
        <StatusBadge look={look} testId="run-row-status" />
      </span>
      <span className={`run-row__task${run.task ? '' : ' is-empty'}`}>{run.task || 'no task text'}</span>
      <span className="run-row__meta">
        <SandboxBadge sandbox={run.sandbox} ran={commandRan(run, timeline, result)} />
        <span>{formatDuration(elapsedMs(run, now))}</span>
        <span className="run-row__time">{when(run.started_at)}</span>
      </span>
    </button>
  );
}
