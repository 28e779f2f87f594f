import type { DiagnosisReason } from '../../../../../../shared/contract';
import { InlineCode } from '../../../../ui/InlineCode';
import { ErrorIcon, WarningIcon } from '../../../../ui/icons';
import { useSkillsStore } from '../../store';
import { useWorkspaceStore } from '../../../workspace/store';
import { InstallHints } from '../../../../ui/InstallHints';
import { SkillLink } from './ShadowLinks';
import { InstallDependency } from '../InstallDependency';

const BINS = new Set<DiagnosisReason['code']>(['missing-bin', 'missing-any-bin']);

function Details({ reason }: { reason: DiagnosisReason }) {
  const detail = reason.detail ?? [];
  if (detail.length === 0) return null;
  if (reason.code === 'shadowed') {
    return (
      <div className="why-reason__detail">
        by{' '}
        {detail.map((id) => (
          <SkillLink key={id} id={id} testId="reason-shadow-link" />
        ))}
      </div>
    );
  }
  return (
    <div className="why-reason__detail">
      {BINS.has(reason.code) ? 'not on PATH:' : reason.code === 'missing-env' ? 'not set:' : ''}
      {detail.map((item) => (
        <code key={item} className="token">
          {item}
        </code>
      ))}
    </div>
  );
}

/** The switches can undo their own reasons right here. */
function QuickFix({ reason, skillName }: { reason: DiagnosisReason; skillName: string }) {
  const setEnabled = useSkillsStore((s) => s.setEnabled);
  const setAutoSelect = useSkillsStore((s) => s.setAutoSelect);
  const setHere = useWorkspaceStore((s) => s.setSkillEnabled);
  if (reason.code === 'disabled-here') {
    return (
      <button
        type="button"
        className="button button--small"
        onClick={() => void setHere(skillName, true)}
        data-testid="reason-enable-here"
      >
        Turn on here
      </button>
    );
  }
  if (reason.code === 'disabled') {
    return (
      <button
        type="button"
        className="button button--small"
        onClick={() => void setEnabled(skillName, true)}
        data-testid="reason-enable"
      >
        Enable
      </button>
    );
  }
  if (reason.code === 'instructions-flagged') {
    return (
      <button
        type="button"
        className="button button--small"
        onClick={() => void setAutoSelect(skillName, true)}
        data-testid="reason-allow-flagged"
      >
        Allow auto-select anyway
      </button>
    );
  }
  if (reason.code === 'never-auto-select') {
    return (
      <button
        type="button"
        className="button button--small"
        onClick={() => void setAutoSelect(skillName, true)}
        data-testid="reason-auto-select"
      >
        Allow auto-select
      </button>
    );
  }
  return null;
}

export function ReasonItem({
  reason,
  skillId,
  skillName,
}: {
  reason: DiagnosisReason;
  skillId: string;
  skillName: string;
}) {
  return (
    <li
      className={`why-reason why-reason--${reason.blocks}`}
      data-testid="diagnosis-reason"
      data-code={reason.code}
    >
      <span className="why-reason__icon">
        {reason.blocks === 'all' ? <ErrorIcon size={16} /> : <WarningIcon size={16} />}
      </span>
      <div className="why-reason__body">
        <div className="why-reason__message">
          <InlineCode text={reason.message} />
          <span className="why-reason__scope">
            {reason.blocks === 'all' ? 'blocks every use' : 'blocks auto-select'}
          </span>
        </div>
        <Details reason={reason} />
        {reason.fix && (
          <div className="why-reason__fix">
            <InlineCode text={reason.fix} />
          </div>
        )}
        <InstallHints
          name={skillName}
          install={reason.install}
          action={(hint) => <InstallDependency id={skillId} name={skillName} hint={hint} />}
        />
      </div>
      <QuickFix reason={reason} skillName={skillName} />
    </li>
  );
}
