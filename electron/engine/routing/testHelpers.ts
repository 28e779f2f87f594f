import path from 'node:path';
import { EngineEvents } from '../events';
import { ModelService, SecretStore } from '../llm';
import { SettingsStore } from '../settings';
import { SkillCatalog } from '../skills';
import { tempDir } from '../../testing/fixtures';
import { flaggedHold, flaggedOnDisk } from './held';
import { indexedSkills, RoutingIndex } from './lexicon';
import { configFromSettings, type RouterConfig } from './router';
import type { ScoreContext } from './score';
import { RoutingService } from './service';
import { Settings } from '../../../shared/contract';

/** The repository's bundled `skills/` folder. */
export const BUNDLED_DIR = path.resolve(__dirname, '../../../skills');

/** A catalog over exactly `dirs`, with a throwaway home (never the real one). */
export async function catalogOf(...dirs: string[]): Promise<SkillCatalog> {
  const home = tempDir('skilldeck-route-');
  return SkillCatalog.open({ home, userHome: home, workspace: home, extraDirs: dirs, noDefaultPaths: true });
}

/**
 * A routing service over exactly `dirs` whose model comes from `env` (a scripted server's
 * OPENAI_BASE_URL and SKILLDECK_MODEL), everything in a throwaway home.
 */
export async function modelRouting(
  env: NodeJS.ProcessEnv,
  dirs: string[],
  home = tempDir('skilldeck-model-routing-'),
) {
  const events = new EngineEvents();
  const settings = SettingsStore.at(home);
  const models = new ModelService({ settings, secrets: new SecretStore(home), events, env });
  const catalog = await SkillCatalog.open({
    home,
    userHome: home,
    workspace: home,
    extraDirs: dirs,
    noDefaultPaths: true,
  });
  const svc = new RoutingService({ home, catalog, settings, events, models, env: {} });
  return { home, events, settings, models, catalog, svc };
}

/** The routing index over a catalog. */
export function indexOf(catalog: SkillCatalog): RoutingIndex {
  return new RoutingIndex(indexedSkills(catalog));
}

/** Default router knobs, overridable. */
export const defaultConfig = (patch: Partial<RouterConfig> = {}): RouterConfig => ({
  ...configFromSettings(Settings.parse({})),
  ...patch,
});

/**
 * Default knobs with the product's hold on skills whose SKILL.md is flagged (held.ts), as the
 * engine's router has it: the quality evals route over third-party skills, lures among them.
 */
export const productConfig = (patch: Partial<RouterConfig> = {}): RouterConfig =>
  defaultConfig({ heldBack: flaggedHold(flaggedOnDisk()), ...patch });

/** A context where every prerequisite is met and nothing has history, unless overridden. */
export const readyContext = (patch: Partial<ScoreContext> = {}): ScoreContext => ({
  stats: () => ({ runs: 0, successes: 0 }),
  hasBin: () => true,
  env: {},
  ...patch,
});

/** A SKILL.md with a name, a description and a body ("Do the thing." unless given). */
export const skillMd = (name: string, description: string, body = 'Do the thing.') =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\n${body}\n`;
