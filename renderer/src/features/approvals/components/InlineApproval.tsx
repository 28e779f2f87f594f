import { useShallow } from 'zustand/react/shallow';
import { ShieldIcon } from '../../../ui/icons';
import { TIERS } from '../tiers';
import { useApprovalsStore } from '../store';
import { Countdown } from './Countdown';
import '../approvals.css';

/**
 * A run's pending approval, shown where the run is (issue 7 item 5). Allowing happens in the
 * dialog, which shows the full request; denying can happen right here.
 */
export function InlineApproval({ runId }: { runId: string }) {
  const { queue, answering, review, answer } = useApprovalsStore(
    useShallow((s) => ({
      queue: s.queue,
      answering: s.answering,
      review: s.review,
      answer: s.answer,
    })),
  );
  // Filtered here, not in the selector: a new array from the selector would never compare equal.
  return queue
    .filter((request) => request.run_id === runId)
    .map((request) => (
      <section
        key={request.id}
        className="inline-approval"
        aria-label={`Approval needed for ${request.skill}`}
        data-testid="inline-approval"
        data-request-id={request.id}
      >
        <header className="inline-approval__header">
          <ShieldIcon size={15} />
          <span data-testid="approval-question">
            Allow <strong>{request.skill}</strong> to run this command?
          </span>
          <span className="inline-approval__tier">sandbox: {TIERS[request.sandbox].label}</span>
          <Countdown expiresAt={request.expires_at} />
        </header>
        <pre className="approval-command approval-command--compact">{request.command_line}</pre>
        {request.widen && (
          <p className="inline-approval__widen">
            Asks for more than it declares: {request.widen.kind} <code>{request.widen.target}</code>
          </p>
        )}
        <div className="inline-approval__actions">
          <button
            type="button"
            className="button button--small"
            onClick={() => void answer(request.id, 'deny')}
            disabled={answering === request.id}
            data-testid="inline-approval-deny"
          >
            Deny
          </button>
          <button
            type="button"
            className="button button--small button--primary"
            onClick={() => review(request.id)}
            data-testid="inline-approval-review"
          >
            Review and answer…
          </button>
        </div>
      </section>
    ));
}
