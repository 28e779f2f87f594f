import type { SkillDetail } from '../../../../../../shared/contract';
import { Spinner } from '../../../../ui/Spinner';
import { ErrorIcon, PencilIcon } from '../../../../ui/icons';
import { useFrontmatterFix } from './useFrontmatterFix';

/** Fix… on the Problems tab, for a SKILL.md the loader could not read because of its frontmatter. */
export function FrontmatterFixOffer({ detail }: { detail: SkillDetail }) {
  const { fixable, busy, error, fix } = useFrontmatterFix(detail);
  if (!fixable) return null;
  return (
    <div className="callout callout--info frontmatter-fix" data-testid="frontmatter-fix">
      <PencilIcon size={15} />
      <div>
        <p>
          SkillDeck can make this SKILL.md load with a mechanical edit. You review the change as a diff, and
          can edit it, before anything is written; applying it keeps the original, so it can be undone.
        </p>
        <FixButton busy={busy} onFix={() => void fix()} testId="frontmatter-fix-button" />
        {error && <FixError error={error} testId="frontmatter-fix-error" />}
      </div>
    </div>
  );
}

export function FixButton({ busy, onFix, testId }: { busy: boolean; onFix(): void; testId: string }) {
  return (
    <button
      type="button"
      className="button button--small"
      onClick={onFix}
      disabled={busy}
      data-testid={testId}
    >
      {busy && <Spinner label="Preparing the fix" />}
      Fix…
    </button>
  );
}

export function FixError({ error, testId }: { error: string; testId: string }) {
  return (
    <p className="tone-red" role="alert" data-testid={testId}>
      <ErrorIcon size={13} /> {error}
    </p>
  );
}
