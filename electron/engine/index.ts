import os from 'node:os';
import path from 'node:path';
import type { AppInfo, Settings, SettingsPatch, SkillList } from '../../shared/contract';
import { ChatService } from './chat/service';
import { createInstructionRunner } from './chat/instruction';
import { runModelLoop, type ModelChoice } from './chat/modelLoop';
import { EngineEvents } from './events';
import { ExecutionService } from './execution/service';
import { autoSelectOf, createInstallApi, recoverInstalls, type InstallApi } from './install';
import { ModelService, SecretStore, type SecretCipher } from './llm';
import { resolveHome } from './paths';
import { recoverRepairs, RepairService } from './repair';
import { RoutingService } from './routing';
import { SettingsStore } from './settings';
import { SkillCatalog } from './skills';
import { watchSkillRoots, type SkillWatcher } from './skills/watcher';
import { WorkspaceScope } from './workspace/scope';

export { EngineError } from './errors';
export { homeWriteProblem, resolveHome } from './paths';
export { validateSkillDir, discoveryRoots, SkillCatalog } from './skills';
export {
  ModelService,
  describeModelError,
  type ModelDescription,
  type ModelErrorInfo,
  type ResolvedModel,
  type SecretCipher,
} from './llm';

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
  /** No answer to an approval request within this long is a deny (default 120 s). */
  approvalTimeoutMs?: number;
  /** How long pending approvals outlive the last window or connection (default 5 s). */
  approvalGraceMs?: number;
  /** The OS keychain for API keys (Electron's safeStorage); without it keys go in a 0600 file. */
  cipher?: SecretCipher;
  /**
   * Trust the workspace for this engine's life without asking or storing it: the one-shot CLI in
   * its own folder (what-users-ask §14). The app and `serve` leave it off: there the user trusts
   * a folder in the window, remembered per folder.
   */
  trustWorkspace?: boolean;
  /** The environment the engine reads (`OPENAI_BASE_URL`, `OPENAI_API_KEY`, `SKILLDECK_MODEL`, PATH); default `process.env`. */
  env?: NodeJS.ProcessEnv;
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
  /** Runs, approvals and always-allow grants (issue 7). */
  readonly execution: ExecutionService;
  /** Conversations and the agent loop (issue 8). */
  readonly chat: ChatService;
  /** Repair proposals, revisions and undo (issue 9); `start` needs the executor wired in. */
  readonly repair: RepairService;
  /** Model settings, keys, `resolve()` for the agent loop, connection tests, embeddings (issue 8). */
  readonly models: ModelService;
  /** The open workspace's trust and its per-workspace skill switches (what-users-ask §14). */
  readonly workspace: WorkspaceScope;
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
  const userHome = options.userHome ?? os.homedir();
  const settings = SettingsStore.at(home);
  // Before the first scan, so a skill put back by the repair is listed.
  recoverInstalls(home);
  // Likewise: an apply cut short is rolled back before anyone reads the skill.
  recoverRepairs(home);
  const skills = await SkillCatalog.open({
    home,
    userHome,
    workspace,
    bundledDir: options.bundledDir,
    extraDirs: [...settings.get().skills.extraDirs, ...(options.skillDirs ?? [])].map((dir) =>
      path.resolve(dir),
    ),
    noDefaultPaths: options.noDefaultPaths ?? false,
  });
  const events = new EngineEvents();
  const scope = new WorkspaceScope({
    home,
    workspace,
    cliTrust: options.trustWorkspace ?? false,
    skills: () => skills.list().skills,
    events,
  });
  const models = new ModelService({
    settings,
    secrets: new SecretStore(home, options.cipher),
    events,
    env: options.env,
  });
  const routing = new RoutingService({
    home,
    catalog: skills,
    settings,
    events,
    env: options.env,
    models,
    workspaceDisabled: () => scope.disabled(),
  });
  const execution = new ExecutionService({
    home,
    workspace,
    userHome,
    catalog: skills,
    events,
    routing,
    hostEnv: options.env,
    approvalTimeoutMs: options.approvalTimeoutMs,
    approvalGraceMs: options.approvalGraceMs,
    untrustedWorkspace: () => scope.untrustedFolder(),
  });
  // The chat model, resolved at each use (settings and keys can change while the app runs).
  const model = async (): Promise<ModelChoice> => {
    const resolved = await models.resolve();
    if (!resolved.ok) return { error: resolved.reason };
    const d = resolved.description;
    return {
      model: resolved.model,
      id: `${d.provider}/${d.model}`,
      describeError: resolved.describeError,
      stallMs: models.stallMs(),
    };
  };
  execution.setInstructionRunner(
    createInstructionRunner({ catalog: skills, model, choosable: () => routing.choosable() }),
  );
  const chat = new ChatService({
    home,
    events,
    routing,
    execution,
    model,
  });
  const withSwitches = (list: SkillList): SkillList => {
    const switches = settings.get().skills;
    const untrusted = !scope.trusted();
    const offHere = new Set(scope.disabled());
    return {
      ...list,
      skills: list.skills.map((s) => {
        // Known once readFlags() (below) or the router read it; the list never waits for it.
        const flagged = skills.knownFlag(s.id) ?? null;
        return {
          ...s,
          enabled: !switches.disabled.includes(s.name),
          autoSelect: autoSelectOf(switches, s.name, flagged !== null),
          ...(flagged ? { flagged } : {}),
          ...(untrusted && s.source === 'workspace' ? { untrusted: true } : {}),
          ...(offHere.has(s.name) ? { workspaceEnabled: false } : {}),
        };
      }),
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
  // The list marks flagged skills (SkillSummary.flagged) once their SKILL.md files are read: in
  // the background, a second after the first list was answered, so that nothing at start-up
  // waits for it (a corpus-sized app spent seconds there), then the app is told to list again.
  let flagRead: NodeJS.Timeout | undefined;
  const scheduleFlagRead = () => {
    if (flagRead) return;
    flagRead = setTimeout(() => {
      void skills
        .readFlags()
        .then((flagged) => {
          if (flagged.length > 0) events.emit('skills.changed', { added: [], removed: [], changed: flagged });
        })
        .catch(() => undefined);
    }, 1000);
    flagRead.unref();
  };
  const reloadSkills = async (): Promise<SkillList> => {
    const { list, diff } = await skills.reload();
    // What a reload found is listed with its flags: only new and edited SKILL.md files are read.
    await skills.readFlags();
    // A folder created since start-up (e.g. the managed one, by a first install) is watched from now on.
    watcher?.add(existingRoots());
    if (diff.added.length + diff.removed.length + diff.changed.length > 0) {
      events.emit('skills.changed', diff);
    }
    return withSwitches(list);
  };
  const install = createInstallApi({
    home,
    skills,
    settings,
    events,
    reload: reloadSkills,
    updateSettings,
    env: options.env,
    programsChanged: () => routing.forgetPrograms(),
    workspaceDisabled: () => scope.disabled(),
  });
  // Issue 9: pass `runs` (the executor) and `complete` (the model) here once they land.
  const repair = new RepairService({ home, catalog: skills, events, reload: reloadSkills });
  repair.connect({
    runs: { get: (runId) => execution.get(runId), replay: (record, dir) => execution.replay(record, dir) },
    // Streamed through chat's model loop (no tools): its stall limit and its redacted wording (a
    // 401 body echoes the key) hold for a repair's model call too.
    complete: async ({ system, user }, signal) => {
      const choice = await model();
      if ('error' in choice) throw new Error(choice.error);
      const result = await runModelLoop({
        handle: choice,
        system,
        messages: [{ role: 'user', content: user }],
        stepPrefix: 'repair:',
        signal,
        onDelta: () => undefined,
        onStep: () => undefined,
      });
      if (result.status !== 'success') throw new Error(result.error ?? 'the model call failed');
      if (!result.cut) return result.text;
      // The note chat shows where an answer stops is no part of a diff; a diff the output
      // limit cut is no diff, and the next attempt is told so rather than 'does not apply'.
      const text = result.text.slice(0, result.text.length - result.cut.note.length);
      const fences = text.split('\n').filter((line) => line.trimStart().startsWith('```')).length;
      if (result.cut.finish === 'length' && fences % 2 === 1)
        throw new Error(
          `its answer was cut off at the model's output limit before its diff ended (${text.length} characters came); a shorter diff (only the lines that change, 3 lines of context) fits`,
        );
      return text;
    },
  });
  if (options.watch)
    watcher = watchSkillRoots(existingRoots(), () => void reloadSkills().catch(() => undefined));
  // A window's first keystroke does not wait for the router's first route (RoutingService.warm).
  const warming = options.watch ? setTimeout(() => routing.warm(), 0) : undefined;
  const info: AppInfo = {
    name: 'SkillDeck',
    version: options.version ?? '0.0.0',
    platform: process.platform,
    home,
    workspace,
    ...(settings.loadProblem ? { settingsProblem: settings.loadProblem } : {}),
  };
  return {
    info,
    skills,
    events,
    settings,
    routing,
    install,
    execution,
    chat,
    repair,
    models,
    workspace: scope,
    watching: watcher?.ready ?? Promise.resolve(),
    listSkills: () => {
      scheduleFlagRead();
      return withSwitches(skills.list());
    },
    updateSettings,
    reloadSkills,
    async close() {
      clearTimeout(flagRead);
      clearTimeout(warming);
      chat.close();
      execution.close();
      await watcher?.close();
      await install.close();
    },
  };
}
