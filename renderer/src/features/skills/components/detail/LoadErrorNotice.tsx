import type { SkillDetail } from '../../../../../../shared/contract';
import { plural } from '../../../../lib/format';
import { ErrorIcon } from '../../../../ui/icons';
import { InlineCode } from '../../../../ui/InlineCode';
import { useSkillsStore } from '../../store';
import { FixButton, FixError } from './FrontmatterFixOffer';
import { useFrontmatterFix } from './useFrontmatterFix';

/**
 * On the Overview of a skill an error keeps out of routing: that it is never picked, the error,
 * and the way out (Fix… when a mechanical edit makes it load, else the Problems tab's hints).
 * Before, the Overview showed the instructions as if the skill worked, the reason one badge away.
 */
export function LoadErrorNotice({ detail }: { detail: SkillDetail }) {
  const setTab = useSkillsStore((s) => s.setTab);
  const { fixable, busy, error, fix } = useFrontmatterFix(detail);
  const errors = detail.problems.filter((p) => p.severity === 'error');
  if (errors.length === 0) return null;
  const more = errors.length - 1;
  return (
    <div className="callout callout--error load-error" data-testid="load-error-notice">
      <ErrorIcon size={15} />
      <div className="load-error__body">
        <p>
          <strong>Listed but never routed:</strong> <InlineCode text={errors[0].message} />
          {more > 0 && ` (and ${plural(more, 'more error')})`}
        </p>
        <div className="load-error__actions">
          {fixable && <FixButton busy={busy} onFix={() => void fix()} testId="load-error-fix" />}
          <button
            type="button"
            className="link-button"
            onClick={() => setTab('problems')}
            data-testid="load-error-problems"
          >
            {fixable ? 'See the problem' : 'How to fix it'}
          </button>
        </div>
        {error && <FixError error={error} testId="load-error-fix-error" />}
      </div>
    </div>
  );
}
