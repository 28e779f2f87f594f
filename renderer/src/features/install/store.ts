import { create } from 'zustand';
import {
  UPLOAD_MAX_BYTES,
  type Events,
  type InstallPreview,
  type InstallResult,
  type InstallSource,
} from '../../../../shared/contract';
import { client, errorMessage } from '../../lib/client';
import { hasActiveFilters } from '../skills/search';
import { useSkillsStore } from '../skills/store';
import {
  EMPTY_FORM,
  buildSelection,
  defaultChoices,
  isArchiveName,
  sourceFromForm,
  toBase64,
  type CandidateChoice,
  type SourceForm,
  type SourceTab,
} from './model';

export type InstallPhase = 'form' | 'staging' | 'preview' | 'installing' | 'done';
export type InstallProgress = Events['install.progress'];

export interface InstallState {
  open: boolean;
  tab: SourceTab;
  form: SourceForm;
  phase: InstallPhase;
  /** A note shown over the form, e.g. why a dropped file could not be read. */
  notice: string | null;
  error: string | null;
  previewId: string | null;
  /** File name of an archive sent as bytes (dropped or picked), while it is staged. */
  upload: string | null;
  progress: InstallProgress | null;
  preview: InstallPreview | null;
  choices: Record<string, CandidateChoice>;
  result: InstallResult | null;
}

export interface InstallActions {
  openDialog(prefill?: { tab?: SourceTab; path?: string; notice?: string }): void;
  /** Closes, and drops a staged preview that was not installed. */
  close(): void;
  setTab(tab: SourceTab): void;
  setField(field: keyof SourceForm, value: string): void;
  /** Stages the source and shows its preview. */
  stage(): Promise<void>;
  /**
   * Stages a `.zip` / `.skill` File (dropped or picked) by sending its bytes; one larger than
   * the upload cap gets the "paste its path" notice instead.
   */
  stageFile(file: File): Promise<void>;
  /** Back to the form; the staged preview is dropped. */
  back(): void;
  setChoice(name: string, patch: Partial<CandidateChoice>): void;
  install(): Promise<void>;
  /** Shows an installed skill in the list and closes the dialog. */
  reveal(id: string): void;
}

/** Managed skill names: what a conflict or a rename is checked against. */
export const managedNames = (): Set<string> =>
  new Set(
    Object.values(useSkillsStore.getState().byId)
      .filter((s) => s.source === 'managed')
      .map((s) => s.name),
  );

/** A stable empty list, so selectors that fall back to it do not change on every call. */
export const NO_CANDIDATES: InstallPreview['candidates'] = [];

const newPreviewId = (): string => `ui-${crypto.randomUUID()}`;

const CLOSED = {
  phase: 'form',
  notice: null,
  error: null,
  previewId: null,
  upload: null,
  progress: null,
  preview: null,
  choices: {},
  result: null,
} satisfies Partial<InstallState>;

export const useInstallStore = create<InstallState & InstallActions>()((set, get) => {
  const dropStaged = () => {
    const { previewId, phase } = get();
    // Once installed the engine has removed the staging dir itself.
    if (previewId && phase !== 'done')
      void client()
        .invoke('install.cancel', { previewId })
        .catch(() => undefined);
  };

  /** Stages `source` under a fresh preview id and shows the preview (or the error). */
  const runPreview = async (source: InstallSource, upload: string | null = null) => {
    const previewId = newPreviewId();
    set({ phase: 'staging', previewId, upload, progress: null, error: null, notice: null });
    const off = client().on('install.progress', (progress) => {
      if (progress.previewId === get().previewId) set({ progress });
    });
    try {
      const preview = await client().invoke('install.preview', { source, previewId });
      // Closed or sent back while staging: nobody wants this preview any more.
      if (get().previewId !== previewId) {
        void client()
          .invoke('install.cancel', { previewId })
          .catch(() => undefined);
        return;
      }
      set({ phase: 'preview', preview, choices: defaultChoices(preview, managedNames()) });
    } catch (error) {
      if (get().previewId === previewId)
        set({ phase: 'form', previewId: null, upload: null, error: errorMessage(error) });
    } finally {
      off();
    }
  };

  return {
    open: false,
    tab: 'folder',
    form: EMPTY_FORM,
    ...CLOSED,

    openDialog(prefill) {
      dropStaged();
      set((s) => ({
        open: true,
        ...CLOSED,
        tab: prefill?.tab ?? s.tab,
        notice: prefill?.notice ?? null,
        form:
          prefill?.path !== undefined
            ? { ...s.form, [prefill.tab === 'archive' ? 'archive' : 'folder']: prefill.path }
            : s.form,
      }));
    },

    close() {
      dropStaged();
      set({ open: false, ...CLOSED });
    },

    setTab: (tab) => set({ tab, error: null }),
    setField: (field, value) => set((s) => ({ form: { ...s.form, [field]: value }, error: null })),

    async stage() {
      const { tab, form } = get();
      const parsed = sourceFromForm(tab, form);
      if ('error' in parsed) {
        set({ error: parsed.error });
        return;
      }
      await runPreview(parsed.source);
    },

    async stageFile(file) {
      if (!isArchiveName(file.name)) {
        set({ error: `“${file.name}” is not a .zip or .skill archive.` });
        return;
      }
      if (file.size > UPLOAD_MAX_BYTES) {
        set({
          tab: 'archive',
          error: null,
          notice: `“${file.name}” is larger than ${Math.floor(UPLOAD_MAX_BYTES / 1_000_000)} MB, too big to send from the page. Paste its full path below instead.`,
        });
        return;
      }
      let dataBase64: string;
      try {
        dataBase64 = toBase64(new Uint8Array(await file.arrayBuffer()));
      } catch (error) {
        set({ error: `Could not read “${file.name}”: ${errorMessage(error)}` });
        return;
      }
      await runPreview({ kind: 'upload', fileName: file.name, dataBase64 }, file.name);
    },

    back() {
      dropStaged();
      set({ ...CLOSED });
    },

    setChoice: (name, patch) =>
      set((s) => ({ choices: { ...s.choices, [name]: { ...s.choices[name], ...patch } } })),

    async install() {
      const { preview, choices, previewId } = get();
      if (!preview || !previewId) return;
      const { select, issues } = buildSelection(preview.candidates, choices, managedNames());
      if (issues.length > 0) return;
      set({ phase: 'installing', error: null });
      try {
        const result = await client().invoke('install.commit', { previewId, select });
        // The list re-loads on skills.changed too; loading here makes the links work at once.
        const skills = useSkillsStore.getState();
        await skills.load();
        set({ phase: 'done', result });
        const first = result.installed[0];
        if (first) skills.open(first.id);
      } catch (error) {
        set({ phase: 'preview', error: errorMessage(error) });
      }
    },

    reveal(id) {
      const skills = useSkillsStore.getState();
      // A search or filter could hide the new skill; the user asked to see it.
      if (skills.query.trim() || hasActiveFilters(skills.filters)) skills.clearFilters();
      skills.reveal(id);
      set({ open: false, ...CLOSED });
    },
  };
});
