import type {
  DependencyInstall,
  Diagnosis,
  InstallPreview,
  InstallResult,
  InstallSource,
  Settings,
  SkillSwitches,
  TrashItem,
} from '../../../shared/contract';
import type { EngineEvents } from '../events';
import type { SettingsStore } from '../settings';
import type { SkillCatalog } from '../skills';
import { diagnoseSkill } from '../skills/diagnose';
import { installDependency } from '../skills/dependencies';
import { EngineError, notFound } from '../errors';
import { Installer } from './installer';

export { recoverInstalls } from './installer';

export { INSTALL_LIMITS } from './limits';
export { detectSandboxTier } from './sandboxTier';

/** Install, remove, trash, per-skill switches and diagnosis, as the engine facade offers them. */
export interface InstallApi {
  preview(source: InstallSource, previewId?: string): Promise<InstallPreview>;
  commit(
    previewId: string,
    select: { name: string; onConflict: 'replace' | 'rename' | 'cancel'; newName?: string }[],
  ): Promise<InstallResult>;
  cancel(previewId: string): Promise<boolean>;
  remove(id: string): Promise<TrashItem>;
  restore(trashId: string): Promise<{ id: string; name: string; replaced?: TrashItem }>;
  trashList(): TrashItem[];
  emptyTrash(trashId?: string): number;
  setSwitches(name: string, change: { enabled?: boolean; autoSelect?: boolean }): SkillSwitches;
  diagnose(id: string): Diagnosis;
  /** Runs one of the skill's runnable install hints, by its exact command (users' ask #13). */
  installDependency(id: string, command: string): Promise<DependencyInstall>;
  /** Drops open previews' staging dirs (called by `engine.close()`). */
  close(): Promise<void>;
}

export interface InstallApiDeps {
  home: string;
  skills: SkillCatalog;
  settings: SettingsStore;
  events: EngineEvents;
  /** Skill names turned off in the open workspace only. */
  workspaceDisabled?: () => string[];
  /** Re-scan and announce `skills.changed` (the facade's `reloadSkills`). */
  reload(): Promise<unknown>;
  /** Persist a settings patch and announce it (the facade's `updateSettings`). */
  updateSettings(patch: {
    skills: { disabled?: string[]; neverAutoSelect?: string[]; allowFlagged?: string[] };
  }): void;
  /** The environment installers run in and requirements are checked against; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** What is on PATH may have changed (an installer ran): drop what was cached about it. */
  programsChanged?(): void;
}

const toggle = (list: string[], name: string, present: boolean): string[] =>
  present ? [...new Set([...list, name])] : list.filter((n) => n !== name);

/**
 * Whether the router may pick skills of this name on their own: not set to never auto-select,
 * and, when its SKILL.md is flagged (SkillSummary.flagged), allowed anyway by the user.
 */
export function autoSelectOf(s: Settings['skills'], name: string, flagged: boolean): boolean {
  return !s.neverAutoSelect.includes(name) && (!flagged || s.allowFlagged.includes(name));
}

/** Wires the installer to the catalog, settings and events; every change ends in a reload. */
export function createInstallApi(deps: InstallApiDeps): InstallApi {
  const { skills, settings } = deps;
  /** The command of the dependency install that is running; one at a time. */
  let installing: string | null = null;
  const installer = new Installer({
    home: deps.home,
    versionOf: (dir) => skills.metadata(dir)?.version,
    progress: (payload) => deps.events.emit('install.progress', payload),
    listedElsewhere: (name) => {
      const other = skills
        .list()
        .skills.find((s) => s.name === name && s.source !== 'managed' && !s.shadowedBy);
      return other ? { path: other.path, source: other.source } : undefined;
    },
  });
  const summary = (id: string) => {
    const found = skills.list().skills.find((s) => s.id === id);
    if (!found) throw notFound(`No skill with id "${id.slice(0, 200)}"; list the skills to get valid ids.`);
    return found;
  };
  /** The flagged line of the skill that answers to `name` (the one no other shadows), if any. */
  const flaggedByName = (name: string) => {
    const routed = skills.list().skills.find((s) => s.name === name && !s.shadowedBy);
    return routed ? skills.flagged(routed.id) : null;
  };
  const switches = (name: string): SkillSwitches => {
    const s = settings.get().skills;
    return {
      name,
      enabled: !s.disabled.includes(name),
      autoSelect: autoSelectOf(s, name, flaggedByName(name) !== null),
    };
  };
  return {
    preview: (source, previewId) => installer.preview(source, previewId),
    async commit(previewId, select) {
      const result = await installer.commit(previewId, select);
      // The reload re-reads requirements too: readiness is re-checked after every install.
      await deps.reload();
      return result;
    },
    cancel: (previewId) => installer.cancel(previewId),
    async remove(id) {
      const s = summary(id);
      const item = installer.remove(s.id, s.name, s.source);
      await deps.reload();
      return item;
    },
    async restore(trashId) {
      const restored = installer.restore(trashId);
      await deps.reload();
      return restored;
    },
    trashList: () => installer.trash.list(),
    emptyTrash: (trashId) => installer.trash.empty(trashId),
    setSwitches(name, change) {
      const current = settings.get().skills;
      const patch: { disabled?: string[]; neverAutoSelect?: string[]; allowFlagged?: string[] } = {};
      if (change.enabled !== undefined) patch.disabled = toggle(current.disabled, name, !change.enabled);
      if (change.autoSelect !== undefined) {
        patch.neverAutoSelect = toggle(current.neverAutoSelect, name, !change.autoSelect);
        // Allowing a flagged skill is remembered as such; turning it off forgets the allowance.
        patch.allowFlagged = toggle(
          current.allowFlagged,
          name,
          change.autoSelect && flaggedByName(name) !== null,
        );
      }
      deps.updateSettings({ skills: patch });
      return switches(name);
    },
    close: () => installer.cancelAll(),
    async installDependency(id, command) {
      const s = summary(id);
      if (installing)
        throw new EngineError('unavailable', `An install is running (${installing}); wait for it to finish.`);
      installing = command.slice(0, 200);
      try {
        const result = await installDependency(skills.metadata(id)!, command, deps.env, (chunk) =>
          deps.events.emit('skills.dependencyOutput', { id: s.id, command, chunk }),
        );
        deps.programsChanged?.();
        deps.events.emit('skills.changed', { added: [], removed: [], changed: [s.id] });
        return result;
      } finally {
        installing = null;
      }
    },
    diagnose(id) {
      const s = summary(id);
      // A listed skill has metadata: both come from the same catalog entry.
      const metadata = skills.metadata(id)!;
      const sw = switches(s.name);
      const never = settings.get().skills.neverAutoSelect.includes(s.name);
      return diagnoseSkill({
        summary: s,
        metadata,
        disabled: !sw.enabled,
        disabledHere: deps.workspaceDisabled?.().includes(s.name) ?? false,
        neverAutoSelect: never,
        env: deps.env,
        // Held back only while the user has not allowed it (a never-auto-select says enough then).
        flagged: !never && !sw.autoSelect ? skills.flagged(id) : null,
      });
    },
  };
}
