import { useEffect } from 'react';
import type { SkillSummary } from '../../../../../shared/contract';
import { Placeholder } from '../../../ui/Placeholder';
import { Spinner } from '../../../ui/Spinner';
import { ErrorIcon, UndoIcon } from '../../../ui/icons';
import { useRepairStore } from '../store';
import { RevisionItem } from './RevisionItem';
import '../repair.css';
import '../review.css';
import '../hunks.css';
import '../history.css';

/** The skill detail's Repairs tab (issue 9 item 6): every revision, newest first, each undoable. */
export function RepairHistoryTab({ summary }: { summary: SkillSummary }) {
  const start = useRepairStore((s) => s.start);
  const loadHistory = useRepairStore((s) => s.loadHistory);
  const history = useRepairStore((s) => s.history[summary.id]);
  useEffect(start, [start]);
  useEffect(() => void loadHistory(summary.id), [loadHistory, summary.id]);

  if (!history || history.status === 'loading')
    return (
      <div className="detail__loading">
        <Spinner label="Loading the repair history" />
      </div>
    );
  if (history.status === 'error')
    return (
      <Placeholder icon={<ErrorIcon size={22} />} tone="error" title="Could not load the repair history">
        <p>{history.error}</p>
      </Placeholder>
    );
  if (history.data.length === 0)
    return (
      <Placeholder icon={<UndoIcon size={22} />} title="No repairs yet" testId="repair-history-empty">
        <p>
          When a run of this skill nearly works, <strong>Repair…</strong> on the run proposes a fix. Every fix
          you apply is listed here and can be undone byte for byte.
        </p>
      </Placeholder>
    );
  return (
    <div className="repair-history">
      <p className="repair-history__intro">
        Every applied repair of <code>{summary.name}</code>, newest first. Undo puts each file back exactly as
        it was.
      </p>
      <ol className="repair-history__list" data-testid="repair-history">
        {history.data.map((r) => (
          <RevisionItem key={r.revision} skillId={summary.id} r={r} />
        ))}
      </ol>
    </div>
  );
}
