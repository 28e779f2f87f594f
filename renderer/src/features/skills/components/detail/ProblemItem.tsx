import type { Problem } from '../../../../../../shared/contract';
import { InlineCode } from '../../../../ui/InlineCode';
import { ErrorIcon, WarningIcon } from '../../../../ui/icons';

export function ProblemItem({ problem }: { problem: Problem }) {
  const { severity, code, message, field, line } = problem;
  return (
    <li
      className={`problem problem--${severity}`}
      data-testid="problem-item"
      data-severity={severity}
      data-code={code}
    >
      <span className="problem__icon" role="img" aria-label={severity}>
        {severity === 'error' ? <ErrorIcon size={16} /> : <WarningIcon size={16} />}
      </span>
      <div className="problem__body">
        <div className="problem__message">
          <InlineCode text={message} />
        </div>
        <div className="problem__meta">
          <code className="problem__code">{code}</code>
          {field && (
            <span>
              field <code>{field}</code>
            </span>
          )}
          {line !== undefined && <span>line {line}</span>}
        </div>
      </div>
    </li>
  );
}
