import type { RunSummary } from '../../../../../shared/contract';
import { RunRow } from './RunRow';

interface RunListProps {
  runs: RunSummary[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}

export function RunList({ runs, selectedId, onSelect }: RunListProps) {
  return (
    <ul className="run-list" aria-label="Recent runs" data-testid="run-list">
      {runs.map((run) => (
        <li key={run.run_id}>
          <RunRow run={run} selected={run.run_id === selectedId} onSelect={onSelect} />
        </li>
      ))}
    </ul>
  );
}
