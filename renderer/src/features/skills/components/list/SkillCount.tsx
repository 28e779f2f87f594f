import { useShallow } from 'zustand/react/shallow';
import { formatCount, plural } from '../../../../lib/format';
import { hasActiveFilters } from '../../search';
import { useSkillsStore } from '../../store';
import type { SkillView } from '../../useSkillView';
import { TrashButton } from './TrashButton';

export function SkillCount({ view }: { view: SkillView }) {
  const { narrowed, clearFilters } = useSkillsStore(
    useShallow((s) => ({
      narrowed: s.query.trim() !== '' || hasActiveFilters(s.filters),
      clearFilters: s.clearFilters,
    })),
  );
  return (
    <div className="skill-count">
      <span data-testid="skill-count" data-total={view.total} data-visible={view.visible.length}>
        {narrowed && <>{formatCount(view.visible.length)} of </>}
        {plural(view.total, 'skill')}
        <span className="skill-count__sep">{' · '}</span>
        <span className={view.withProblems > 0 ? 'skill-count__problems' : undefined}>
          {formatCount(view.withProblems)} with problems
        </span>
      </span>
      {narrowed && (
        <button type="button" className="link-button" onClick={clearFilters} data-testid="clear-filters">
          Clear
        </button>
      )}
      <TrashButton />
    </div>
  );
}
