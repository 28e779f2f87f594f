import { useState } from 'react';
import type { RouteCandidate } from '../../../../../shared/contract';
import { InlineCode } from '../../../ui/InlineCode';
import { InstallHints } from '../../../ui/InstallHints';
import { InstallDependency } from '../../skills/components/InstallDependency';
import { ChevronIcon } from '../../../ui/icons';
import { formatScore, STATUS_META, statusReason } from '../format';
import { EvidenceList } from './EvidenceList';
import { FactorTable } from './FactorTable';
import { ScoreBar } from './ScoreBar';
import { SourceTag } from './SourceTag';
import { StatusTag } from './StatusTag';

interface CandidateRowProps {
  candidate: RouteCandidate;
  threshold: number;
  primary: boolean;
  /** The router kept it under T, and the model ran it from the skills plain chat offered. */
  chosenByModel?: boolean;
}

export function CandidateRow({ candidate, threshold, primary, chosenByModel = false }: CandidateRowProps) {
  const [open, setOpen] = useState(false);
  const { name, source, status, score, reason, missing } = candidate;
  const dim = STATUS_META[status].dim;

  return (
    <li
      className={`candidate${dim ? ' is-dim' : ''}${primary ? ' is-primary' : ''}`}
      data-testid="candidate"
      data-skill-name={name}
      data-status={status}
      data-source={source}
      data-primary={primary}
      data-chosen-by-model={chosenByModel || undefined}
    >
      <button
        type="button"
        className="candidate__head"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        title="Show the factor breakdown"
      >
        <ChevronIcon size={12} className="candidate__chevron" />
        <span className="candidate__name">{name}</span>
        {primary && <span className="candidate__primary">Primary</span>}
        {chosenByModel && (
          <span
            className="candidate__primary is-model"
            title="The model ran it from the skills plain chat offered"
          >
            Model’s pick
          </span>
        )}
        <SourceTag source={source} />
        <StatusTag status={status} />
        <span className="candidate__score" data-testid="candidate-score">
          {formatScore(score)}
        </span>
      </button>
      <ScoreBar
        factors={candidate.factors}
        threshold={threshold}
        label={`${name} score ${formatScore(score)}`}
      />
      <p className="candidate__reason" data-testid="candidate-reason">
        {/* An unavailable skill's reason is the list of what is missing: shown once, as chips. */}
        {missing && missing.length > 0 ? 'missing' : <InlineCode text={statusReason(reason)} />}
        {missing && missing.length > 0 && (
          <span className="candidate__missing">
            {missing.map((item) => (
              <code key={item}>{item}</code>
            ))}
          </span>
        )}
      </p>
      <InstallHints
        name={name}
        install={candidate.install}
        action={(hint) => <InstallDependency id={candidate.id} name={name} hint={hint} />}
      />
      <EvidenceList evidence={candidate.evidence ?? []} />
      {open && <FactorTable factors={candidate.factors} />}
    </li>
  );
}
