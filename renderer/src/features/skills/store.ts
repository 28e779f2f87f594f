import { create } from 'zustand';
import type {
  SearchedFolder,
  SkillDetail,
  SkillFile,
  SkillList,
  SkillSource,
  SkillSummary,
  SkillType,
  ValidationReport,
} from '../../../../shared/contract';
import { client, errorMessage } from '../../lib/client';
import { createManageSlice, reconcileSwitches, type ManageSlice } from './manage';
import { NO_FILTERS, indexSkills, type IndexedSkill, type SkillFilters } from './search';

export type DetailTab =
  'overview' | 'run' | 'metadata' | 'files' | 'problems' | 'availability' | 'evals' | 'history';
export type Loadable<T> =
  { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; error: string };

export interface SkillsState {
  /** `ready` once the first `skills.list` arrived. */
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  reloading: boolean;
  index: IndexedSkill[];
  byId: Record<string, SkillSummary>;
  folders: SearchedFolder[];
  query: string;
  filters: SkillFilters;
  selectedId: string | null;
  /** Which side a window too narrow for both shows (skills.css): `open` turns to the detail. */
  pane: 'list' | 'detail';
  tab: DetailTab;
  details: Record<string, Loadable<SkillDetail>>;
  /** Keyed by `fileKey(id, path)`. */
  files: Record<string, Loadable<SkillFile>>;
  /** The file shown in the Files tab, per skill. */
  openFiles: Record<string, string>;
  validations: Record<string, Loadable<ValidationReport>>;
}

export interface SkillsActions {
  /** Loads the list and keeps it current on `skills.changed`; returns the unsubscribe. */
  start(): () => void;
  load(): Promise<void>;
  reload(): Promise<void>;
  setQuery(query: string): void;
  toggleSource(source: SkillSource): void;
  toggleType(type: SkillType): void;
  toggleProblems(): void;
  clearFilters(): void;
  /** Only this source's skills, the query cleared (the trust banner's "Review its skills"). */
  showSource(source: SkillSource): void;
  /** Moves the selection only; the detail pane loads it after a pause, so arrowing stays cheap. */
  select(id: string | null): void;
  /** Selects and loads at once (a click, Enter, a link). */
  open(id: string): void;
  /** Back from the detail to the list, in a window too narrow for both. */
  showList(): void;
  /** Selects and loads, and shows the list (a link's "Show in list"): a narrow window shows the list, not the detail. */
  reveal(id: string): void;
  setTab(tab: DetailTab): void;
  ensureDetail(id: string): Promise<void>;
  /** Shows `path` in the Files tab and loads it. */
  openFile(id: string, path: string): Promise<void>;
  ensureFile(id: string, path: string): Promise<void>;
  revalidate(id: string): Promise<void>;
}

export const fileKey = (id: string, path: string): string => `${id}\n${path}`;

const toggle = <T>(list: readonly T[], value: T): T[] =>
  list.includes(value) ? list.filter((v) => v !== value) : [...list, value];

const omitKeys = <T>(record: Record<string, T>, drop: (key: string) => boolean): Record<string, T> =>
  Object.fromEntries(Object.entries(record).filter(([key]) => !drop(key)));

export const useSkillsStore = create<SkillsState & SkillsActions & ManageSlice>()((set, get, api) => {
  const applyList = (list: SkillList) =>
    set((state) => ({
      status: 'ready',
      error: null,
      index: indexSkills(list.skills),
      byId: Object.fromEntries(list.skills.map((s) => [s.id, s])),
      folders: list.folders,
      switches: reconcileSwitches(state.switches, list.skills),
    }));

  /** Fetches a skill's detail; what was shown stays until the newest answer replaces it. */
  const asked = new Map<string, number>();
  const refreshDetail = async (id: string) => {
    const ask = (asked.get(id) ?? 0) + 1;
    asked.set(id, ask);
    let next: Loadable<SkillDetail>;
    try {
      next = { status: 'ready', data: await client().invoke('skills.get', { id }) };
    } catch (error) {
      next = { status: 'error', error: errorMessage(error) };
    }
    // Two edits in a row: an answer to the first must not replace the second's.
    if (asked.get(id) === ask) set((s) => ({ details: { ...s.details, [id]: next } }));
  };
  const fail = (error: unknown) => {
    if (get().status !== 'ready') set({ status: 'error', error: errorMessage(error) });
  };

  return {
    ...createManageSlice(set, get, api),
    status: 'idle',
    error: null,
    reloading: false,
    index: [],
    byId: {},
    folders: [],
    query: '',
    filters: NO_FILTERS,
    selectedId: null,
    pane: 'list',
    tab: 'overview',
    details: {},
    files: {},
    openFiles: {},
    validations: {},

    start() {
      // Stale entries are dropped; whatever is on screen reloads them (the detail pane, the file viewer).
      // The open skill's detail stays up until its new one arrives: an edit on disk, or an eval
      // case saved from its own tab, must not blank the pane it is looked at in.
      const off = client().on('skills.changed', ({ removed, changed }) => {
        const stale = new Set([...removed, ...changed]);
        const { selectedId, details } = get();
        const shown =
          selectedId && changed.includes(selectedId) && details[selectedId]?.status === 'ready'
            ? selectedId
            : null;
        set((s) => ({
          details: omitKeys(s.details, (id) => stale.has(id) && id !== shown),
          validations: omitKeys(s.validations, (id) => stale.has(id)),
          files: omitKeys(s.files, (key) => stale.has(key.slice(0, key.indexOf('\n')))),
          // Shadowing and readiness depend on the other skills too.
          diagnoses: {},
        }));
        void get().load();
        if (shown) void refreshDetail(shown);
      });
      void get().load();
      return off;
    },

    async load() {
      if (get().status === 'idle') set({ status: 'loading' });
      try {
        applyList(await client().invoke('skills.list', {}));
      } catch (error) {
        fail(error);
      }
    },

    async reload() {
      set({ reloading: true });
      try {
        applyList(await client().invoke('skills.reload', {}));
      } catch (error) {
        fail(error);
      } finally {
        set({ reloading: false });
      }
    },

    setQuery: (query) => set({ query }),
    toggleSource: (source) =>
      set((s) => ({ filters: { ...s.filters, sources: toggle(s.filters.sources, source) } })),
    toggleType: (type) => set((s) => ({ filters: { ...s.filters, types: toggle(s.filters.types, type) } })),
    toggleProblems: () => set((s) => ({ filters: { ...s.filters, problemsOnly: !s.filters.problemsOnly } })),
    clearFilters: () => set({ filters: NO_FILTERS, query: '' }),
    showSource: (source) => set({ filters: { ...NO_FILTERS, sources: [source] }, query: '' }),

    select: (id) => set({ selectedId: id }),

    open(id) {
      set({ selectedId: id, pane: 'detail' });
      void get().ensureDetail(id);
    },

    showList: () => set({ pane: 'list' }),

    reveal(id) {
      set({ selectedId: id, pane: 'list' });
      void get().ensureDetail(id);
    },

    setTab: (tab) => set({ tab }),

    ensureDetail(id) {
      const current = get().details[id];
      if (current && current.status !== 'error') return Promise.resolve();
      set((s) => ({ details: { ...s.details, [id]: { status: 'loading' } } }));
      return refreshDetail(id);
    },

    async openFile(id, path) {
      set((s) => ({ openFiles: { ...s.openFiles, [id]: path } }));
      await get().ensureFile(id, path);
    },

    async ensureFile(id, path) {
      const key = fileKey(id, path);
      const current = get().files[key];
      if (current && current.status !== 'error') return;
      set((s) => ({ files: { ...s.files, [key]: { status: 'loading' } } }));
      try {
        const data = await client().invoke('skills.readFile', { id, path });
        set((s) => ({ files: { ...s.files, [key]: { status: 'ready', data } } }));
      } catch (error) {
        set((s) => ({ files: { ...s.files, [key]: { status: 'error', error: errorMessage(error) } } }));
      }
    },

    async revalidate(id) {
      set((s) => ({ validations: { ...s.validations, [id]: { status: 'loading' } } }));
      try {
        const data = await client().invoke('skills.validate', { id });
        set((s) => ({ validations: { ...s.validations, [id]: { status: 'ready', data } } }));
      } catch (error) {
        set((s) => ({
          validations: { ...s.validations, [id]: { status: 'error', error: errorMessage(error) } },
        }));
      }
    },
  };
});
