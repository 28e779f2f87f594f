import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ApprovalDecision, ChatStep } from '../../../../../shared/contract';
import { ShieldIcon, WarningIcon } from '../../../ui/icons';
import { ARM_DELAY_MS } from '../../approvals/components/ApprovalAnswers';
import { Countdown } from '../../approvals/components/Countdown';
import { useApprovalsStore } from '../../approvals/store';
import { SandboxBadge } from './SandboxBadge';

/** How it was answered, with the answers' own verbs (as the run's timeline words it). */
const RESOLVED: Partial<Record<ChatStep['status'], string>> = {
  allowed: 'Allowed',
  denied: 'Denied',
  timeout: 'Denied: no answer in time',
};

/**
 * An approval request inline in the answer (DESIGN §4): the exact command, the sandbox tier,
 * why it asks and what the skill declares, and the answers. The approval dialog shows the same
 * request from the same store in the same words; answering either one answers both.
 */
export function ApprovalCard({ step }: { step: ChatStep }) {
  const id = step.approval_id ?? '';
  const { request, busy, notice, answer, review } = useApprovalsStore(
    useShallow((s) => ({
      request: s.queue.find((r) => r.id === id),
      busy: s.answering === id,
      notice: s.answering === null ? s.notice : null,
      answer: s.answer,
      review: s.review,
    })),
  );
  // Like the dialog: the allow buttons wake up a moment after the card appears, so a click
  // meant for what was under the pointer before cannot approve it.
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setArmed(true), ARM_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  const command = request?.command_line ?? step.output ?? '';

  if (step.status !== 'waiting') {
    return (
      <div className={`approval-row is-${step.status}`} data-testid="approval-card" data-status={step.status}>
        <ShieldIcon size={13} />
        <span data-testid="approval-outcome">{RESOLVED[step.status] ?? step.status}</span>
        <code className="approval-row__command">{command}</code>
        {step.error && <span className="approval-row__reason">{step.error}</span>}
      </div>
    );
  }

  const decide = (decision: ApprovalDecision) => void answer(id, decision);
  return (
    <section
      className="approval-card"
      role="group"
      aria-label={`Approval needed for ${step.name}`}
      data-testid="approval-card"
      data-status="waiting"
      data-approval-id={id}
    >
      <header className="approval-card__header">
        <ShieldIcon size={15} />
        <span data-testid="approval-question">
          Allow <strong>{step.name}</strong> to run this command?
        </span>
        {step.sandbox && <SandboxBadge sandbox={step.sandbox} />}
        {request && <Countdown expiresAt={request.expires_at} />}
      </header>
      <pre className="approval-card__command" data-testid="chat-approval-command">
        {command}
      </pre>
      {request && <CardFacts title="Why you are asked" lines={request.reasons} />}
      {request && <CardFacts title="What it declares it will do" lines={request.summary} />}
      {request && request.unenforced.length > 0 && (
        <p className="approval-card__warning">
          <WarningIcon size={13} />
          Not enforced on this machine: {request.unenforced.join('; ')}
        </p>
      )}
      <div className="approval-card__actions">
        <button
          type="button"
          className="button button--small"
          disabled={busy || !request}
          onClick={() => decide('deny')}
          data-testid="chat-approval-deny"
        >
          Deny
        </button>
        <button
          type="button"
          className="button button--small button--primary"
          disabled={busy || !armed || !request}
          onClick={() => decide('allow_once')}
          data-testid="chat-approval-allow"
        >
          Allow once
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={busy || !armed || !request}
          onClick={() => decide('allow_always')}
          title="Covers this version as declared: a changed or widened skill asks again. Revoke it in Settings → Approvals."
          data-testid="chat-approval-always"
        >
          Always allow this skill
        </button>
        <button
          type="button"
          className="link-button approval-card__review"
          disabled={!request}
          onClick={() => review(id)}
          data-testid="chat-approval-review"
        >
          Review all details…
        </button>
      </div>
      {notice && <p className="tone-red">{notice}</p>}
    </section>
  );
}

/** One of the dialog's fact headings over its lines, compact. */
function CardFacts({ title, lines }: { title: string; lines: string[] }) {
  if (lines.length === 0) return null;
  return (
    <div className="approval-card__facts">
      <h4 className="approval-card__facts-title">{title}</h4>
      <ul>
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </div>
  );
}
