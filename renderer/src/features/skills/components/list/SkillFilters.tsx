import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { WarningIcon } from '../../../../ui/icons';
import { SOURCES, TYPES, type Facets } from '../../search';
import { selectFilterActions } from '../../selectors';
import { useSkillsStore } from '../../store';
import { SOURCE_HELP } from '../SourceBadge';
import { TYPE_HELP, TypeIcon } from '../TypeBadge';
import { FilterChip } from './FilterChip';

/** Chip counts are facets: what clicking the chip would show, given the query and the other groups. */
export function SkillFilters({ facets }: { facets: Facets }) {
  const filters = useSkillsStore((s) => s.filters);
  const index = useSkillsStore((s) => s.index);
  const { toggleSource, toggleType, toggleProblems } = useSkillsStore(useShallow(selectFilterActions));
  // A source chip only for sources that have skills at all; five mostly-zero chips are noise.
  const sources = useMemo(() => {
    const present = new Set(index.map((item) => item.skill.source));
    return SOURCES.filter((source) => present.has(source) || filters.sources.includes(source));
  }, [index, filters.sources]);

  return (
    <div className="filters" role="group" aria-label="Filters">
      <div className="filters__group" role="group" aria-label="Source">
        {sources.map((source) => (
          <FilterChip
            key={source}
            active={filters.sources.includes(source)}
            count={facets.source[source]}
            onToggle={() => toggleSource(source)}
            title={SOURCE_HELP[source]}
            testId={`filter-source-${source}`}
          >
            {source}
          </FilterChip>
        ))}
      </div>
      <div className="filters__group" role="group" aria-label="Type">
        {TYPES.map((type) => (
          <FilterChip
            key={type}
            active={filters.types.includes(type)}
            count={facets.type[type]}
            onToggle={() => toggleType(type)}
            title={TYPE_HELP[type]}
            icon={<TypeIcon type={type} />}
            testId={`filter-type-${type}`}
          >
            {type}
          </FilterChip>
        ))}
        <FilterChip
          active={filters.problemsOnly}
          count={facets.problems}
          onToggle={toggleProblems}
          title="Only skills with errors or warnings"
          icon={<WarningIcon size={12} />}
          testId="filter-problems"
        >
          has problems
        </FilterChip>
      </div>
    </div>
  );
}
