import { useShallow } from 'zustand/react/shallow';
import { plural } from '../../../lib/format';
import { ShieldIcon } from '../../../ui/icons';
import { useApprovalsStore } from '../store';

/** In the top bar while requests wait: a request put aside is never lost (what-users-ask #3). */
export function ApprovalPill() {
  const { count, review } = useApprovalsStore(
    useShallow((s) => ({ count: s.queue.length, review: s.review })),
  );
  if (count === 0) return null;
  return (
    <button type="button" className="approval-pill" onClick={() => review()} data-testid="approval-pill">
      <ShieldIcon size={13} />
      {plural(count, 'approval')} waiting
    </button>
  );
}
