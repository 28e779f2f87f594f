import os from 'node:os';
import path from 'node:path';
import type { AppInfo, Settings, SettingsPatch, SkillList } from '../../shared/contract';
import { EngineEvents } from './events';
import { resolveHome } from './paths';
import { SettingsStore } from './settings';
import { SkillCatalog } from './skills';

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
}

/** The one facade every adapter (Electron main, browser host, CLI) wraps. */
export interface Engine {
  readonly info: AppInfo;
  readonly skills: SkillCatalog;
  readonly events: EngineEvents;
  readonly settings: SettingsStore;
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
  const skills = await SkillCatalog.open({
    home,
    userHome: options.userHome ?? os.homedir(),
    workspace,
    bundledDir: options.bundledDir,
    extraDirs: [...settings.get().skills.extraDirs, ...(options.skillDirs ?? [])].map((dir) => path.resolve(dir)),
    noDefaultPaths: options.noDefaultPaths ?? false,
  });
  const events = new EngineEvents();
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
    updateSettings(patch) {
      const next = settings.update(patch);
      events.emit('settings.changed', next);
      return next;
    },
    async reloadSkills() {
      const { list, diff } = await skills.reload();
      if (diff.added.length + diff.removed.length + diff.changed.length > 0) {
        events.emit('skills.changed', diff);
      }
      return list;
    },
    async close() {},
  };
}
