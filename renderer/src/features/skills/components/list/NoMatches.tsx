import { useSkillsStore } from '../../store';
import { Placeholder } from '../../../../ui/Placeholder';
import { SearchIcon } from '../../../../ui/icons';

export function NoMatches() {
  const clearFilters = useSkillsStore((s) => s.clearFilters);
  return (
    <Placeholder icon={<SearchIcon size={22} />} title="No skills match" testId="no-matches">
      <p>Every word must match the name, description, a trigger or a tag.</p>
      <button type="button" className="button" onClick={clearFilters}>
        Clear search and filters
      </button>
    </Placeholder>
  );
}
