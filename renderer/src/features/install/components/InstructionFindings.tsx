import type { InstallCandidate, InstructionFinding } from '../../../../../shared/contract';
import { ErrorIcon, WarningIcon } from '../../../ui/icons';
import { useInstallStore } from '../store';
import '../instructions.css';

const KIND_LABELS: Record<InstructionFinding['kind'], string> = {
  conceal: 'keeps things from you',
  'no-consent': 'acts without asking',
  'remote-code': 'runs downloaded code',
  secrets: 'keys and credentials',
  'safety-off': 'turns off safety',
  'unknown-binary': 'unknown program',
  'untrusted-host': 'untrusted server',
  'remote-instructions': 'instructions from the network',
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
      <span className="instruction-finding__icon" aria-label={severity}>
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

/**
 * What the skill's instructions ask the agent to do that deserves a look (danger first, as the
 * engine sorts them). A danger finding asks for an explicit "install anyway" before Install works.
 */
export function InstructionFindings({ candidate }: { candidate: InstallCandidate }) {
  const accepted = useInstallStore((s) => s.choices[candidate.name]?.acceptDanger ?? false);
  const setChoice = useInstallStore((s) => s.setChoice);
  const findings = candidate.instructions;
  if (findings.length === 0) return null;
  const dangers = findings.filter((f) => f.severity === 'danger').length;
  return (
    <section
      className={`instruction-findings${dangers ? ' has-danger' : ''}`}
      data-testid="install-instructions"
      aria-label="What its instructions ask for"
    >
      <h3 className="instruction-findings__title">
        What its instructions ask for
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
      {dangers > 0 && (
        <label className="instruction-findings__accept">
          <input
            type="checkbox"
            checked={accepted}
            onChange={(event) => setChoice(candidate.name, { acceptDanger: event.target.checked })}
            data-testid="instructions-accept"
          />
          <span>I have read these lines and still want to install “{candidate.name}”.</span>
        </label>
      )}
    </section>
  );
}
