import type { SkillsActions, SkillsState } from './store';

type Store = SkillsState & SkillsActions;

export const selectListInputs = (s: Store) => ({ index: s.index, query: s.query, filters: s.filters });
export const selectLoadState = (s: Store) => ({
  status: s.status,
  error: s.error,
  skillCount: s.index.length,
});
export const selectFilterActions = (s: Store) => ({
  toggleSource: s.toggleSource,
  toggleType: s.toggleType,
  toggleProblems: s.toggleProblems,
  clearFilters: s.clearFilters,
});
export const selectDetailState = (s: Store) => ({
  selectedId: s.selectedId,
  tab: s.tab,
  detail: s.selectedId ? s.details[s.selectedId] : undefined,
  summary: s.selectedId ? s.byId[s.selectedId] : undefined,
});
export const selectSkillById = (id: string | undefined) => (s: Store) => (id ? s.byId[id] : undefined);
