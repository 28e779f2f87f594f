import type { ReactNode } from 'react';
import type { InstructionFinding } from '../../../shared/contract';
import { ErrorIcon, WarningIcon } from './icons';
import './instructionFindings.css';

const KIND_LABELS: Record<InstructionFinding['kind'], string> = {
  conceal: 'keeps things from you',
  'no-consent': 'acts without asking',
  'remote-code': 'runs downloaded code',
  secrets: 'keys and credentials',
  'safety-off': 'turns off safety',
  'unknown-binary': 'unknown program',
  'untrusted-host': 'untrusted server',
  'remote-instructions': 'instructions from the network',
  destructive: 'destroys files or disks',
};

function FindingItem({ finding }: { finding: InstructionFinding }) {
  const { severity, kind, file, line, excerpt, reason } = finding;
  return (
    <li
      className={`instruction-finding instruction-finding--${severity}`}
      data-testid="instruction-finding"
      data-severity={severity}
      data-kind={kind}
    >
      <span className="instruction-finding__icon" role="img" aria-label={severity}>
        {severity === 'danger' ? <ErrorIcon size={16} /> : <WarningIcon size={16} />}
      </span>
      <div className="instruction-finding__body">
        <p className="instruction-finding__reason">{reason}</p>
        <code className="instruction-finding__excerpt" data-testid="instruction-excerpt">
          {excerpt}
        </code>
        <div className="instruction-finding__meta">
          <span className="instruction-finding__kind">{KIND_LABELS[kind]}</span>
          <span>
            {file}:{line}
          </span>
        </div>
      </div>
    </li>
  );
}

interface InstructionFindingsProps {
  findings: InstructionFinding[];
  title: string;
  testId: string;
  /** Below the list: the install dialog's "install anyway", the skill detail's note. */
  children?: ReactNode;
}

/**
 * What a skill's instructions ask the agent to do that deserves a look (danger first, as the
 * engine sorts them): in the install preview and in the detail of any listed skill. Nothing when
 * the scan found nothing.
 */
export function InstructionFindings({ findings, title, testId, children }: InstructionFindingsProps) {
  if (findings.length === 0) return null;
  const dangers = findings.filter((f) => f.severity === 'danger').length;
  return (
    <section
      className={`sheet instruction-findings${dangers ? ' has-danger' : ''}`}
      data-testid={testId}
      aria-label={title}
    >
      <h3 className="sheet__title instruction-findings__title">
        {title}
        <span className="instruction-findings__count">
          {dangers > 0 && <span className="tone-red">{dangers} dangerous</span>}
          {findings.length - dangers > 0 && <span>{findings.length - dangers} to check</span>}
        </span>
      </h3>
      <ul className="instruction-findings__list">
        {findings.map((f) => (
          <FindingItem key={`${f.file}:${f.line}:${f.kind}`} finding={f} />
        ))}
      </ul>
      {children && <div className="instruction-findings__footer">{children}</div>}
    </section>
  );
}
