import os from 'node:os';
import path from 'node:path';
import type { AppInfo, Settings, SettingsPatch, SkillList } from '../../shared/contract';
import { EngineEvents } from './events';
import { createInstallApi, recoverInstalls, type InstallApi } from './install';
import { resolveHome } from './paths';
import { RoutingService } from './routing';
import { SettingsStore } from './settings';
import { SkillCatalog } from './skills';
import { watchSkillRoots, type SkillWatcher } from './skills/watcher';

export { EngineError } from './errors';
export { resolveHome } from './paths';
export { validateSkillDir, discoveryRoots, SkillCatalog } from './skills';

export interface EngineOptions {
  /** `$SKILLDECK_HOME`; defaults from the environment (see `resolveHome`). */
  home?: string;
  /** Where `~/.claude/skills` and `~/.agents/skills` are looked for; defaults to the OS home. */
  userHome?: string;
  /** The workspace whose `skills/`, `.claude/skills`, `.agents/skills` are searched; defaults to cwd. */
  workspace?: string;
  /** The app's bundled `skills/` folder, when the adapter ships one. */
  bundledDir?: string;
  /** Extra discovery folders (`--skills DIR`). */
  skillDirs?: string[];
  /** Search only `skillDirs`. */
  noDefaultPaths?: boolean;
  version?: string;
  /** Watch the discovery folders and reload on change (the app and `serve`; never a one-shot CLI). */
  watch?: boolean;
}

/** The one facade every adapter (Electron main, browser host, CLI) wraps. */
export interface Engine {
  readonly info: AppInfo;
  readonly skills: SkillCatalog;
  readonly events: EngineEvents;
  readonly settings: SettingsStore;
  /** The router, route log, stats, metrics and trigger evals (issue 4). */
  readonly routing: RoutingService;
  /** Install / remove / trash / per-skill switches / diagnosis (issue 3). */
  readonly install: InstallApi;
  /** Resolves once the file watcher (option `watch`) reports changes; at once without it. */
  readonly watching: Promise<void>;
  /** The skill list with each skill's settings switches (`enabled`, `autoSelect`) filled in. */
  listSkills(): SkillList;
  /** Merge a settings patch, persist it and announce it. */
  updateSettings(patch: SettingsPatch): Settings;
  /** Re-scan every discovery folder and announce what changed. */
  reloadSkills(): Promise<SkillList>;
  close(): Promise<void>;
}

export async function createEngine(options: EngineOptions = {}): Promise<Engine> {
  const home = path.resolve(options.home ?? resolveHome());
  const workspace = path.resolve(options.workspace ?? process.cwd());
  const settings = SettingsStore.at(home);
  // Before the first scan, so a skill put back by the repair is listed.
  recoverInstalls(home);
  const skills = await SkillCatalog.open({
    home,
    userHome: options.userHome ?? os.homedir(),
    workspace,
    bundledDir: options.bundledDir,
    extraDirs: [...settings.get().skills.extraDirs, ...(options.skillDirs ?? [])].map((dir) =>
      path.resolve(dir),
    ),
    noDefaultPaths: options.noDefaultPaths ?? false,
  });
  const events = new EngineEvents();
  const routing = new RoutingService({ home, catalog: skills, settings, events });
  const withSwitches = (list: SkillList): SkillList => {
    const { disabled, neverAutoSelect } = settings.get().skills;
    return {
      ...list,
      skills: list.skills.map((s) => ({
        ...s,
        enabled: !disabled.includes(s.name),
        autoSelect: !neverAutoSelect.includes(s.name),
      })),
    };
  };
  let watcher: SkillWatcher | undefined;
  const existingRoots = () =>
    skills
      .list()
      .folders.filter((f) => f.exists && !f.duplicateOf)
      .map((f) => f.path);
  const updateSettings = (patch: SettingsPatch): Settings => {
    const next = settings.update(patch);
    events.emit('settings.changed', next);
    return next;
  };
  const reloadSkills = async (): Promise<SkillList> => {
    const { list, diff } = await skills.reload();
    // A folder created since start-up (e.g. the managed one, by a first install) is watched from now on.
    watcher?.add(existingRoots());
    if (diff.added.length + diff.removed.length + diff.changed.length > 0) {
      events.emit('skills.changed', diff);
    }
    return withSwitches(list);
  };
  const install = createInstallApi({ home, skills, settings, events, reload: reloadSkills, updateSettings });
  if (options.watch)
    watcher = watchSkillRoots(existingRoots(), () => void reloadSkills().catch(() => undefined));
  const info: AppInfo = {
    name: 'SkillDeck',
    version: options.version ?? '0.0.0',
    platform: process.platform,
    home,
    workspace,
  };
  return {
    info,
    skills,
    events,
    settings,
    routing,
    install,
    watching: watcher?.ready ?? Promise.resolve(),
    listSkills: () => withSwitches(skills.list()),
    updateSettings,
    reloadSkills,
    async close() {
      await watcher?.close();
      await install.close();
    },
  };
}
