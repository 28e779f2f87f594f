import type { SkillDetail } from '../../../../../../shared/contract';
import { plural } from '../../../../lib/format';
import { CheckIcon, ErrorIcon, RefreshIcon } from '../../../../ui/icons';
import { useSkillsStore } from '../../store';
import { FrontmatterFixOffer } from './FrontmatterFixOffer';
import { ProblemItem } from './ProblemItem';

export function ProblemsTab({ detail }: { detail: SkillDetail }) {
  const rerun = useSkillsStore((s) => s.validations[detail.id]);
  const revalidate = useSkillsStore((s) => s.revalidate);
  const validation = rerun?.status === 'ready' ? rerun.data : detail.validation;
  const problems = [...detail.problems].sort((a, b) =>
    a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1,
  );

  return (
    <div className="problems-tab">
      <section className="problems-tab__section">
        <h3>Load problems</h3>
        {problems.length === 0 ? (
          <p className="ok-line">
            <CheckIcon size={16} /> Loaded cleanly: no errors or warnings.
          </p>
        ) : (
          <ul className="problem-list">
            {problems.map((problem, i) => (
              <ProblemItem key={`${problem.code}-${i}`} problem={problem} />
            ))}
          </ul>
        )}
        <FrontmatterFixOffer detail={detail} />
      </section>

      <section
        className="problems-tab__section"
        data-testid="validation-report"
        data-valid={validation.valid}
      >
        <div className="problems-tab__heading">
          <h3>Strict validation</h3>
          <button
            type="button"
            className="button button--small"
            onClick={() => void revalidate(detail.id)}
            disabled={rerun?.status === 'loading'}
            data-testid="revalidate"
          >
            <RefreshIcon size={13} /> Re-run
          </button>
        </div>
        <p className="muted">The agentskills.io reference rules. Loading is lenient; this report is not.</p>
        {rerun?.status === 'error' && <p className="tone-red">{rerun.error}</p>}
        {validation.valid ? (
          <p className="ok-line">
            <CheckIcon size={16} /> Passes strict validation.
          </p>
        ) : (
          <>
            <p className="fail-line">
              <ErrorIcon size={16} /> Fails strict validation with {plural(validation.errors.length, 'error')}
              .
            </p>
            <ul className="validation-list">
              {validation.errors.map((error, i) => (
                <li key={i} data-testid="validation-error">
                  {error}
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
    </div>
  );
}
