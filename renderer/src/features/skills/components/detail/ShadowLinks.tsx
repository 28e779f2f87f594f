import type { SkillSummary } from '../../../../../../shared/contract';
import { LayersOffIcon } from '../../../../ui/icons';
import { useSkillsStore } from '../../store';

/** The last two path segments tell same-named copies apart (`openclaw__skills/apple-mail`). */
const shortPath = (path: string): string => path.split(/[\\/]/).filter(Boolean).slice(-2).join('/');

export function SkillLink({ id, testId }: { id: string; testId: string }) {
  const target = useSkillsStore((s) => s.byId[id]);
  const openSkill = useSkillsStore((s) => s.open);
  return (
    <button
      type="button"
      className="shadow-link"
      onClick={() => openSkill(id)}
      title={target ? `${target.source}: ${target.path}` : id}
      data-testid={testId}
      data-skill-id={id}
    >
      {shortPath(target?.path ?? id)}
    </button>
  );
}

/** Precedence (DESIGN §2): a later source hides a same-named earlier one, and the UI says so. */
export function ShadowLinks({ summary }: { summary: SkillSummary }) {
  if (!summary.shadowedBy && summary.shadows.length === 0) return null;
  return (
    <span className="shadow-links">
      {summary.shadowedBy && (
        <span className="shadow-links__item is-shadowed" data-testid="shadowed-by">
          <LayersOffIcon size={12} />
          shadowed by <SkillLink id={summary.shadowedBy} testId="shadowed-by-link" />
        </span>
      )}
      {summary.shadows.length > 0 && (
        <span className="shadow-links__item" data-testid="shadows">
          shadows{' '}
          {summary.shadows.map((id, i) => (
            <span key={id}>
              {i > 0 && ', '}
              <SkillLink id={id} testId="shadows-link" />
            </span>
          ))}
        </span>
      )}
    </span>
  );
}
