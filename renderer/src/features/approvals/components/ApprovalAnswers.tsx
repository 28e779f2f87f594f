import { useEffect, useState, type FormEvent } from 'react';
import type { ApprovalDecision, ApprovalRequest } from '../../../../../shared/contract';
import { Kbd } from '../../../ui/Kbd';
import { Spinner } from '../../../ui/Spinner';
import { shortHash } from '../queue';

/**
 * Allow buttons wake up a moment after a request appears, so a click or keypress meant for
 * what was there before cannot approve it (the way browsers arm permission prompts).
 */
export const ARM_DELAY_MS = 600;

interface ApprovalAnswersProps {
  request: ApprovalRequest;
  busy: boolean;
  onAnswer: (decision: ApprovalDecision, reason?: string) => void;
}

/**
 * The three answers (DESIGN §4). The form submits as Deny, and Deny has the focus: Enter
 * never approves by accident. Allowing takes a click or its own accelerator (Alt+O, Alt+A).
 */
export function ApprovalAnswers({ request, busy, onAnswer }: ApprovalAnswersProps) {
  const [reason, setReason] = useState('');
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setArmed(true), ARM_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  const deny = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) onAnswer('deny', reason);
  };
  const version = request.version ? `v${request.version}` : 'this version';

  return (
    <form className="approval-answers" onSubmit={deny} data-testid="approval-answers" data-armed={armed}>
      <input
        className="field__input approval-answers__reason"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        placeholder="Reason for denying (optional; the model sees it)"
        aria-label="Reason for denying (optional)"
        maxLength={2000}
        data-testid="approval-reason"
      />
      <div className="approval-answers__row">
        <button type="submit" className="button" disabled={busy} data-autofocus data-testid="approval-deny">
          {busy && <Spinner label="Answering" />}
          Deny
        </button>
        <span className="approval-answers__spacer" />
        <button
          type="button"
          className="button button--primary"
          onClick={() => onAnswer('allow_once')}
          disabled={busy || !armed}
          aria-keyshortcuts="Alt+O"
          data-testid="approval-allow-once"
        >
          Allow once <Kbd decorative>Alt O</Kbd>
        </button>
        <button
          type="button"
          className="button"
          onClick={() => onAnswer('allow_always')}
          disabled={busy || !armed}
          aria-keyshortcuts="Alt+A"
          aria-describedby={`always-note-${request.id}`}
          data-testid="approval-allow-always"
        >
          Always allow this skill <Kbd decorative>Alt A</Kbd>
        </button>
      </div>
      <p className="approval-answers__note" id={`always-note-${request.id}`}>
        “Always” covers {version} as declared (content <code>{shortHash(request.content_hash)}</code>
        {request.widen ? `, plus ${request.widen.grant}` : ''}): a changed or widened skill asks again. Revoke
        it in Settings → Approvals.
      </p>
    </form>
  );
}

/** Alt+O / Alt+A anywhere in the dialog; by key position, so a layout or macOS Option never changes it. */
export function acceleratorDecision(event: {
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  code: string;
}): ApprovalDecision | null {
  if (!event.altKey || event.ctrlKey || event.metaKey) return null;
  if (event.code === 'KeyO') return 'allow_once';
  if (event.code === 'KeyA') return 'allow_always';
  return null;
}
