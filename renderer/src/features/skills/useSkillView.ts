import { useDeferredValue, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { facetCounts, filterSkills, parseQuery, type Facets, type IndexedSkill } from './search';
import { selectListInputs } from './selectors';
import { useSkillsStore } from './store';

export interface SkillView {
  visible: IndexedSkill[];
  facets: Facets;
  total: number;
  withProblems: number;
  /** True while the list still shows the results of an older query. */
  pending: boolean;
}

/** The filtered list and its counts. The query is deferred so typing never waits for filtering. */
export function useSkillView(): SkillView {
  const { index, query, filters } = useSkillsStore(useShallow(selectListInputs));
  const deferredQuery = useDeferredValue(query);
  const withProblems = useMemo(() => index.filter((item) => item.skill.problems.length > 0).length, [index]);
  const filtered = useMemo(() => {
    const words = parseQuery(deferredQuery);
    return { visible: filterSkills(index, words, filters), facets: facetCounts(index, words, filters) };
  }, [index, deferredQuery, filters]);
  return { ...filtered, total: index.length, withProblems, pending: deferredQuery !== query };
}
