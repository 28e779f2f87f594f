import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { RepairProposal } from '../../../../../shared/contract';
import { Spinner } from '../../../ui/Spinner';
import { CheckIcon, RefreshIcon, XIcon } from '../../../ui/icons';
import { applyBlock, describeSelection, isWhole } from '../selection';
import { useRepairStore } from '../store';
import { useSelection } from '../useSelection';
import { RejectForm } from './RejectForm';

/**
 * Re-check (replay the current choice), Reject with a reason, Apply. Apply on a partial or
 * edited choice re-checks it first, so the replay shown is always the replay of what is applied.
 */
export function ReviewActions({ p }: { p: RepairProposal }) {
  const sel = useSelection(p);
  const busy = useRepairStore((s) => (s.busy?.proposalId === p.id ? s.busy.action : null));
  // One action at a time across the repair: a re-check replaces the proposal under review.
  const anyBusy = useRepairStore((s) => s.busy !== null);
  const recheck = useRepairStore((s) => s.recheck);
  const apply = useRepairStore((s) => s.apply);
  const [rejecting, setRejecting] = useState(false);
  const rejectButton = useRef<HTMLButtonElement>(null);
  if (p.status !== 'pending') return null;
  // The form (and the focus in it) goes away: back to the button that opened it, not the page.
  const cancel = () => {
    flushSync(() => setRejecting(false));
    rejectButton.current?.focus();
  };
  const block = applyBlock(p, sel);
  // A fix made without a run (a frontmatter fix) is checked by loading it, not replayed.
  const [checked, checking] = p.run_id ? ['replayed', 'replaying'] : ['checked', 'checking'];
  const whole = isWhole(sel, p);

  return (
    <div className="review-actions-wrap">
      <div className="review-actions" data-testid="review-actions">
        <p className="review-actions__what" data-testid="review-applies">
          {block
            ? block.message
            : `Applies ${describeSelection(sel, p)}${whole ? `, as ${checked}.` : ` after ${checking} them.`}`}
        </p>
        <button
          type="button"
          className="button"
          onClick={() => void recheck(p)}
          disabled={whole || !!block || anyBusy}
          title="Validate and replay your current choice"
          data-testid="review-recheck"
        >
          {busy === 'recheck' ? <Spinner label="Re-checking" /> : <RefreshIcon size={14} />}
          Re-check
        </button>
        <button
          type="button"
          className="button"
          ref={rejectButton}
          onClick={() => setRejecting(true)}
          disabled={anyBusy || rejecting}
          data-testid="review-reject"
        >
          <XIcon size={14} />
          Reject…
        </button>
        <button
          type="button"
          className="button button--primary"
          onClick={() => void apply(p)}
          disabled={!!block || anyBusy}
          data-testid="review-apply"
        >
          {busy === 'apply' ? <Spinner label="Applying" /> : <CheckIcon size={14} />}
          {whole ? 'Apply' : 'Re-check and apply'}
        </button>
      </div>
      {rejecting && <RejectForm p={p} onCancel={cancel} />}
    </div>
  );
}
