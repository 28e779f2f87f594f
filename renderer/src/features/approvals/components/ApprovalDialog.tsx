import { useShallow } from 'zustand/react/shallow';
import { Modal } from '../../../ui/Modal';
import { headOf, shortHash } from '../queue';
import { useApprovalsStore } from '../store';
import { ApprovalAnswers, acceleratorDecision } from './ApprovalAnswers';
import { ApprovalFacts, commandIds } from './ApprovalFacts';
import { Countdown } from './Countdown';
import '../approvals.css';

/**
 * The global approval dialog (issue 7 item 5): the oldest pending request (or the one picked
 * in a run view) with everything it will do. Escape or × puts it aside; the request keeps
 * waiting in the top bar and the run view until answered or expired.
 */
export function ApprovalDialog() {
  const { queue, focusId, minimized, answering, notice, answer, minimize, review } = useApprovalsStore(
    useShallow((s) => ({
      queue: s.queue,
      focusId: s.focusId,
      minimized: s.minimized,
      answering: s.answering,
      notice: s.notice,
      answer: s.answer,
      minimize: s.minimize,
      review: s.review,
    })),
  );
  const request = headOf(queue, focusId);
  if (!request || minimized) return null;
  const busy = answering === request.id;
  // Armed with the answers' own delay: the accelerators must not beat it.
  const onAnswer = (decision: Parameters<typeof answer>[1], reason?: string) =>
    void answer(request.id, decision, reason);

  return (
    <Modal
      // A new request remounts the dialog: focus returns to Deny and the allow buttons re-arm.
      key={request.id}
      size="medium"
      testId="approval-dialog"
      // Heard on opening, after the question: what will run and where (the focus is on Deny).
      describedBy={commandIds(request).join(' ')}
      onClose={minimize}
      title={
        <>
          Allow <span className="approval-title__skill">{request.skill}</span> to run this command?
        </>
      }
      subtitle={
        <span className="approval-subtitle">
          <span data-testid="approval-identity">
            {request.version ? `v${request.version}` : 'no version'} · content{' '}
            <code title={request.content_hash}>{shortHash(request.content_hash)}</code>
          </span>
          {queue.length > 1 && (
            <>
              <span className="approval-subtitle__queue" data-testid="approval-queue">
                {queue.indexOf(request) + 1} of {queue.length} waiting
              </span>
              {/* The others are seen whole before answering this one; each is its own new dialog (re-armed). */}
              <button
                type="button"
                className="link-button"
                onClick={() => review(queue[(queue.indexOf(request) + 1) % queue.length].id)}
                disabled={busy}
                aria-label="Show the next waiting request"
                data-testid="approval-next"
              >
                Next
              </button>
            </>
          )}
          <Countdown expiresAt={request.expires_at} testId="approval-countdown" />
        </span>
      }
      onKeyDown={(event) => {
        const decision = acceleratorDecision(event);
        const armed = event.currentTarget.querySelector('[data-armed="true"]') !== null;
        if (!decision || busy || !armed) return;
        event.preventDefault();
        onAnswer(decision);
      }}
      footer={<ApprovalAnswers request={request} busy={busy} onAnswer={onAnswer} />}
    >
      <div
        className="approval"
        data-testid="approval-body"
        data-request-id={request.id}
        data-run-id={request.run_id}
        data-skill={request.skill}
      >
        {notice && (
          <p className="callout callout--info" role="status" data-testid="approval-notice">
            {notice}
          </p>
        )}
        <ApprovalFacts request={request} />
      </div>
    </Modal>
  );
}
