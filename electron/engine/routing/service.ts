import crypto from 'node:crypto';
import type {
  DescriptionTuning,
  EvalEdit,
  EvalReport,
  RouteEvent,
  RouteMetrics,
  RouteOutcome,
  RouteResult,
  WhyNot,
} from '../../../shared/contract';
import { EngineError, notFound } from '../errors';
import type { EngineEvents } from '../events';
import type { SettingsStore } from '../settings';
import type { SkillCatalog } from '../skills';
import { onPath } from '../skills/readiness';
import { computeMetrics, RouteLog, SkillStats } from '../telemetry';
import { removeTriggerEval, saveTriggerEval } from './evalCases';
import { readTriggerEvals, runTriggerEvals } from './evals';
import { improveDescription, writeDescription } from './describeTuning';
import { indexedSkills, RoutingIndex } from './lexicon';
import { applyArbiter, arbiterIgnored, arbiterJudged, ModelRouting, type RoutingModel } from './model';
import { flaggedHold } from './held';
import { whyNotRoutable } from './notRoutable';
import { autoSelectable } from './recall';
import { configFromSettings, route, whyNot } from './router';
import type { ScoreContext } from './score';

export interface RoutingDeps {
  home: string;
  catalog: SkillCatalog;
  settings: SettingsStore;
  events: EngineEvents;
  env?: NodeJS.ProcessEnv;
  /** PATH lookups are cached this long: installs change PATH rarely, keystrokes come often. */
  binCacheMs?: number;
  now?: () => Date;
  /** The configured model, for semantic recall and the arbiter on a send (issue 10 §4–5). */
  models?: RoutingModel;
  /** Skill names the user turned off in the open workspace only: never candidates here. */
  workspaceDisabled?: () => string[];
}

/**
 * Messages of the forms the router reads differently (a request, keywords, a question, a remark
 * with thanks, Chinese, a veto): each form's patterns once. About 0.5 s in a fresh process here,
 * against 0.2–0.25 s for the first route alone; the later routes of any form then take ms.
 */
const WARM_QUERIES = [
  'summarize the sales figures in report.csv by region and chart them',
  'weather in Paris',
  'what is the weather in Paris tomorrow?',
  'I think the new logo looks great, thanks!',
  '帮我把这份会议记录整理成待办清单，明天发给团队',
  'don’t use any skill for this, just tell me a joke',
];

/** A skill plain chat may offer the model, as the model sees it. */
export interface ChoosableSkill {
  id: string;
  name: string;
  description: string;
}

/**
 * The router as the engine exposes it: one index per catalog version, live settings, run
 * stats, the route log and trigger evals. Preview records nothing; commit records an event.
 */
export class RoutingService {
  readonly log: RouteLog;
  readonly stats: SkillStats;
  private cached: { version: number; index: RoutingIndex } | undefined;
  private modelRouting: ModelRouting | undefined;
  private readonly bins = new Map<string, { ok: boolean; at: number }>();
  private warmed = false;

  constructor(private readonly deps: RoutingDeps) {
    this.log = RouteLog.at(deps.home);
    this.stats = SkillStats.at(deps.home);
  }

  /** The routing index, rebuilt only when the catalog re-scanned. */
  index(): RoutingIndex {
    const version = this.deps.catalog.version;
    if (this.cached?.version !== version) {
      const index = new RoutingIndex(indexedSkills(this.deps.catalog));
      this.cached = { version, index };
      this.warm(index);
    }
    return this.cached.index;
  }

  /**
   * Builds the index and takes the router's cold paths once, before any message is timed: the
   * first route in a process compiled the router's patterns and loaded its word tables (the
   * Chinese segmenter's dictionary too), about 250 ms that the first keystroke in the window
   * waited for and that every `skilldeck route` reported as its latency. The window's engine
   * calls this at start, off the keystroke's path; the CLI pays it before its one route.
   */
  warm(index?: RoutingIndex): void {
    if (this.warmed) return;
    this.warmed = true;
    const built = index ?? this.index();
    const config = this.config();
    for (const query of WARM_QUERIES) route(built, query, config, this.context());
  }

  /** Forget which programs were on PATH (an installer ran): readiness is checked afresh. */
  forgetPrograms(): void {
    this.bins.clear();
  }

  private context(): ScoreContext {
    const env = this.deps.env ?? process.env;
    const ttl = this.deps.binCacheMs ?? 10_000;
    return {
      env,
      stats: (name) => this.stats.get(name),
      hasBin: (bin) => {
        const now = Date.now();
        const hit = this.bins.get(bin);
        if (hit && now - hit.at < ttl) return hit.ok;
        const ok = onPath(bin, env);
        this.bins.set(bin, { ok, at: now });
        return ok;
      },
    };
  }

  private config() {
    const settings = this.deps.settings.get();
    const catalog = this.deps.catalog;
    const here = this.deps.workspaceDisabled?.() ?? [];
    const config = configFromSettings(settings);
    return {
      ...config,
      disabled: new Set([...config.disabled, ...here]),
      workspaceDisabled: new Set(here),
      heldBack: flaggedHold((doc) => catalog.flagged(doc.id), new Set(settings.skills.allowFlagged)),
      whyNotRoutable: (name: string) =>
        whyNotRoutable(catalog.list().skills, name, { settings: config.disabled, workspace: new Set(here) }),
    };
  }

  /**
   * The skills a model may choose on its own when the router chose none (issue 10 §5): routable,
   * enabled, and not explicit-only (`disable-model-invocation`, never auto-select, flagged
   * instructions the user has not allowed).
   */
  choosable(): ChoosableSkill[] {
    const config = this.config();
    return this.index()
      .docs.filter((d) => !config.disabled.has(d.name) && autoSelectable(d, config) && !config.heldBack(d))
      .map((d) => ({ id: d.id, name: d.name, description: d.metadata.description }));
  }

  /** Route without recording (the live score panel). */
  preview(query: string): RouteResult {
    return route(this.index(), query, this.config(), this.context());
  }

  /** One skill's breakdown and the rule that kept it out. */
  whyNot(query: string, id: string): WhyNot {
    return whyNot(this.index(), query, id, this.config(), this.context());
  }

  /** Route and record the event (`route.recorded`). */
  commit(query: string, origin: RouteEvent['origin']): RouteEvent {
    return this.record(this.preview(query), origin);
  }

  /**
   * A send (issue 10 §4–5): with a model configured, semantic recall from a fresh query
   * embedding (short timeout) fused with the lexical ranking, then the arbiter when the best
   * candidates sit in the gray zone. Any failure or timeout leaves the local result standing;
   * the live preview never comes here.
   */
  async commitWithModel(query: string, origin: RouteEvent['origin']): Promise<RouteEvent> {
    if (!this.deps.models) return this.commit(query, origin);
    this.modelRouting ??= new ModelRouting({ home: this.deps.home, model: this.deps.models });
    const index = this.index();
    const config = this.config();
    const model: NonNullable<RouteResult['model']> = {};
    const semantic = await this.modelRouting.recallFor(index, query);
    if (semantic) {
      config.semanticRecall = semantic.recall;
      config.semanticSimilarity = new Map(Object.entries(semantic.assist.similarity));
      model.embedding = semantic.assist;
    }
    let result = route(index, query, config, this.context());
    const arbiter = await this.modelRouting.arbitrate(result, index, undefined, config.heldBack);
    if (arbiter) {
      // Asked is recorded with its cost whatever came back; only a clear answer decides.
      result = arbiterJudged(arbiter) ? applyArbiter(result, arbiter) : arbiterIgnored(result, arbiter);
      model.arbiter = arbiter;
    }
    if (model.embedding || model.arbiter) result = { ...result, model };
    return this.record(result, origin);
  }

  private record(result: RouteResult, origin: RouteEvent['origin']): RouteEvent {
    const event: RouteEvent = {
      route_id: crypto.randomUUID(),
      ts: (this.deps.now?.() ?? new Date()).toISOString(),
      origin,
      ...result,
    };
    this.log.append(event);
    this.deps.events.emit('route.recorded', event);
    return event;
  }

  /** Attach an execution outcome; counts a run for the skill that ran (success_rate, cold start). */
  recordResult(routeId: string, result: RouteOutcome): RouteEvent {
    const event = this.log.get(routeId);
    if (!event) throw notFound(`No recorded route "${routeId.slice(0, 128)}".`);
    if (event.result) throw new EngineError('invalid_params', `Route ${routeId} already has an outcome.`);
    const primaryId = event.plan.primary_id ?? undefined;
    const skillId = result.skill_id ?? (result.fallback_used ? undefined : primaryId);
    const nameOf = (id: string | undefined) =>
      id ? event.candidates.find((c) => c.id === id)?.name : undefined;
    const name = nameOf(skillId);
    if (name && result.status !== 'cancelled' && result.status !== 'denied') {
      this.stats.record(name, result.status === 'success');
    }
    // A fallback answered (another skill, or plain chat): the skill asked for failed.
    const primary = nameOf(primaryId);
    if (result.fallback_used && primary && primaryId !== skillId) this.stats.record(primary, false);
    const updated = this.log.appendResult(routeId, result) ?? { ...event, result };
    this.deps.events.emit('route.completed', updated);
    return updated;
  }

  activity(limit: number, before?: string): { events: RouteEvent[]; has_more: boolean } {
    return this.log.page(limit, before);
  }

  activityGet(routeId: string): RouteEvent {
    const event = this.log.get(routeId);
    if (!event) throw notFound(`No recorded route "${routeId.slice(0, 128)}".`);
    return event;
  }

  metrics(): RouteMetrics {
    return computeMetrics(this.log.all());
  }

  /** A listed skill's trigger evals through the router. */
  runEvals(id: string): EvalReport {
    const index = this.listedIndex(id);
    let evals;
    try {
      evals = readTriggerEvals(id);
    } catch (error) {
      throw new EngineError('invalid_params', (error as Error).message);
    }
    return runTriggerEvals(index, id, evals, this.config());
  }

  /** Saves a query as one of a listed skill's trigger-eval cases, then runs them (what-users-ask §15). */
  saveEval(id: string, query: string, shouldTrigger: boolean): EvalEdit {
    this.listedIndex(id);
    const change = saveTriggerEval(id, query, shouldTrigger);
    return { change, report: this.runEvals(id) };
  }

  /** Removes a listed skill's trigger-eval case by its query, then runs the rest. */
  removeEval(id: string, query: string): EvalEdit {
    this.listedIndex(id);
    const change = removeTriggerEval(id, query);
    return { change, report: this.runEvals(id) };
  }

  /** Tunes a listed skill's description against its trigger evals with the configured model. */
  improveDescription(id: string, rounds = 3): Promise<DescriptionTuning> {
    this.listedIndex(id);
    const skills = indexedSkills(this.deps.catalog);
    return improveDescription({ skills, id, config: this.config(), models: this.deps.models, rounds });
  }

  /** Writes a tuned description into a listed skill's SKILL.md (the version the tuning read). */
  writeDescription(id: string, description: string, contentHash: string): void {
    const listed = this.listedIndex(id).all.get(id)!;
    writeDescription(listed.summary.file, description, contentHash);
  }

  /** The routing index, once `id` is known to name a listed skill (its folder). */
  private listedIndex(id: string): RoutingIndex {
    const index = this.index();
    if (!index.all.has(id))
      throw notFound(`No skill with id "${id.slice(0, 200)}"; list the skills to get valid ids.`);
    return index;
  }
}
