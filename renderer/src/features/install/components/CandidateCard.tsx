import type { InstallCandidate } from '../../../../../shared/contract';
import { TruncatedPath } from '../../../ui/TruncatedPath';
import { WarningIcon } from '../../../ui/icons';
import { ProblemItem } from '../../skills/components/detail/ProblemItem';
import { CapabilitySheet } from './CapabilitySheet';
import { ConflictChoice } from './ConflictChoice';
import { FileTable } from './FileTable';
import { InstructionCheck } from './InstructionCheck';

/** Everything about one skill in the source, before anything is written. */
export function CandidateCard({ candidate }: { candidate: InstallCandidate }) {
  const errors = candidate.problems.filter((p) => p.severity === 'error').length;
  return (
    <article className="install-candidate" data-testid="install-candidate" data-skill-name={candidate.name}>
      <header className="install-candidate__header">
        <div className="install-candidate__name-line">
          <h3 className="install-candidate__name" data-testid="candidate-name">
            {candidate.name}
          </h3>
          {candidate.version && <span className="detail-header__version">v{candidate.version}</span>}
        </div>
        <p className="install-candidate__desc" data-testid="candidate-description">
          {candidate.description || <em className="tone-red">No description: the router cannot match it.</em>}
        </p>
        <dl className="install-candidate__facts">
          <div>
            <dt>Installs to</dt>
            <dd>
              <TruncatedPath path={candidate.targetPath} testId="candidate-target" />
            </dd>
          </div>
          {candidate.sourcePath && (
            <div>
              <dt>From</dt>
              <dd>
                <code>{candidate.sourcePath}</code>
              </dd>
            </div>
          )}
        </dl>
      </header>

      <ConflictChoice candidate={candidate} />
      <InstructionCheck candidate={candidate} />
      <CapabilitySheet candidate={candidate} />

      {candidate.unmet.length > 0 && (
        <section className="install-section" data-testid="install-unmet">
          <h3 className="install-section__title">Not ready on this machine</h3>
          <ul className="unmet-list">
            {candidate.unmet.map((line) => (
              <li key={line}>
                <WarningIcon size={14} />
                {line}
              </li>
            ))}
          </ul>
          <p className="muted install-section__note">
            It installs, but the router will not pick it until these are met.
          </p>
        </section>
      )}

      {candidate.problems.length > 0 && (
        <section className="install-section" data-testid="install-problems">
          <h3 className="install-section__title">
            Validation problems
            {errors > 0 && <span className="install-section__count tone-red">listed, never routed</span>}
          </h3>
          <ul className="problem-list problem-list--compact">
            {candidate.problems.map((problem, i) => (
              <ProblemItem key={`${problem.code}-${i}`} problem={problem} />
            ))}
          </ul>
        </section>
      )}

      <FileTable candidate={candidate} />
    </article>
  );
}
