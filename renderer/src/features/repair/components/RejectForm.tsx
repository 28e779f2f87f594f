import { useState } from 'react';
import type { RepairProposal } from '../../../../../shared/contract';
import { Spinner } from '../../../ui/Spinner';
import { rejectedHunks } from '../selection';
import { useRepairStore } from '../store';
import { useSelection } from '../useSelection';

/** Reject with a reason; the reason and the turned-down hunks go into the next attempt (DESIGN §5). */
export function RejectForm({ p, onCancel }: { p: RepairProposal; onCancel(): void }) {
  const [reason, setReason] = useState('');
  const reject = useRepairStore((s) => s.reject);
  const busy = useRepairStore((s) => s.busy?.proposalId === p.id && s.busy.action === 'reject');
  const sel = useSelection(p);
  const some = rejectedHunks(sel, p);
  const edits = Object.keys(sel.edited);
  return (
    <form
      className="review-reject"
      data-testid="reject-form"
      onSubmit={(e) => {
        e.preventDefault();
        void reject(p, reason);
      }}
    >
      <label className="field">
        <span className="field__label">Why is this not the right fix? (optional)</span>
        <textarea
          className="field__input review-reject__reason"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          rows={3}
          maxLength={2000}
          placeholder="e.g. the column should be looked up case-insensitively"
          data-testid="reject-reason"
          data-autofocus
          autoFocus
          onKeyDown={(e) => {
            if (e.key === 'Escape') onCancel();
          }}
        />
        <span className="field__hint" data-testid="reject-hint">
          {!p.run_id
            ? 'The fix is turned down and nothing is written to the skill.'
            : some
              ? `Hunks ${some.map((i) => i + 1).join(', ')} are marked as turned down; the next attempt is told.`
              : 'The whole proposal is turned down; the next attempt is told.'}
          {edits.length > 0 &&
            !!p.run_id &&
            ` It also sees your edit of ${edits.join(', ')} as your own idea of the fix; nothing is written to the skill.`}
        </span>
      </label>
      <div className="review-reject__actions">
        <button type="button" className="button button--small" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="submit"
          className="button button--small button--danger"
          disabled={busy}
          data-testid="reject-confirm"
        >
          {busy && <Spinner label="Rejecting" />}
          Reject proposal
        </button>
      </div>
    </form>
  );
}
