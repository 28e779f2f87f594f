import { randomBytes } from 'node:crypto';
import type {
  ActivationPlan,
  RunRecord,
  RunResult,
  RunSandbox,
  RunScript,
  RunSummary,
} from '../../../shared/contract';
import { EngineError, notFound } from '../errors';
import type { EngineEvents } from '../events';
import type { RoutingService } from '../routing';
import type { SkillCatalog } from '../skills';
import {
  attemptSkill,
  fatalAttempt,
  type AttemptEnv,
  type AttemptResult,
  type ChatHooks,
  type InstructionRunner,
} from './attempt';
import { executePlan, type MachineIO, type SkillStep, type TurnFailures } from './fallback';
import { GrantStore } from './grants';
import { readSkillDetail } from '../skills/detailFromDir';
import { RunStore } from './runStore';
import { Timeline } from './timeline';
import { withWrittenElsewhere } from './workdir';
import { ApprovalBroker, describeAnswer } from './approvals';
import { grantFor, type Widening } from './scriptAttempt';

export interface ExecutionDeps {
  home: string;
  workspace: string;
  userHome: string;
  catalog: SkillCatalog;
  events: EngineEvents;
  routing: RoutingService;
  hostEnv?: NodeJS.ProcessEnv;
  /** No answer within this long is a deny (default 120 s). */
  approvalTimeoutMs?: number;
  /** How long pending approvals outlive the last window (default 5 s: a reload comes back sooner). */
  approvalGraceMs?: number;
  /** stdout + stderr bytes kept per run (default 1 MiB). */
  maxOutputBytes?: number;
  /** The open workspace's folder while the user has not trusted it, else undefined (read per run). */
  untrustedWorkspace?: () => string | undefined;
}

export interface RunRequest {
  /** Skill id (its folder path). */
  id: string;
  task: string;
  entrypoint?: string;
  input?: Record<string, unknown>;
  widen?: Widening;
  /** The recorded route this run executes; its outcome is attached to it. */
  routeId?: string;
  /** Set when the run belongs to a chat turn. */
  chat?: ChatHooks;
  /** Run the skill from this folder instead of its catalog copy (a repair's patched scratch copy). */
  skillDir?: string;
}

/** A run id that sorts by start time (the Runs view lists newest first). */
const newRunId = () => `${Date.now().toString(36).padStart(9, '0')}-${randomBytes(4).toString('hex')}`;

/**
 * The executor as the engine exposes it (DESIGN §4): runs with their state-machine
 * timeline and records, the approval broker, always-allow grants, Stop.
 */
export class ExecutionService {
  readonly broker: ApprovalBroker;
  readonly grants: GrantStore;
  readonly store: RunStore;
  private readonly controllers = new Map<string, AbortController>();
  private instruction: InstructionRunner | undefined;

  constructor(private readonly deps: ExecutionDeps) {
    this.grants = GrantStore.at(deps.home);
    this.store = RunStore.at(deps.home);
    this.broker = new ApprovalBroker({
      events: deps.events,
      timeoutMs: deps.approvalTimeoutMs ?? 120_000,
      graceMs: deps.approvalGraceMs ?? 5_000,
    });
  }

  /** The chat installs the model-driven runner for instruction skills. */
  setInstructionRunner(runner: InstructionRunner | undefined): void {
    this.instruction = runner;
  }

  /** Start a run and return its id at once; events tell the rest. */
  start(req: RunRequest): { run_id: string; done: Promise<RunResult> } {
    const summary = this.deps.catalog.list().skills.find((s) => s.id === req.id);
    if (!summary)
      throw notFound(`No skill with id "${req.id.slice(0, 200)}"; list the skills to get valid ids.`);
    const plan: Pick<ActivationPlan, 'parallel_groups' | 'skills' | 'skill_ids' | 'fallback_chain'> = {
      skills: [summary.name],
      skill_ids: [summary.id],
      parallel_groups: [[summary.name]],
      fallback_chain: [],
    };
    return this.launch(plan, req);
  }

  /** Run an ActivationPlan through the fallback machine (the chat's routed turns). */
  startPlan(
    plan: ActivationPlan,
    req: Omit<RunRequest, 'id'>,
    failures?: TurnFailures,
    generic?: MachineIO['generic'],
  ) {
    if (!plan.primary_id) throw new EngineError('invalid_params', 'The plan selects no skill.');
    return this.launch(plan, { ...req, id: plan.primary_id }, failures, generic);
  }

  /** Same skill, task and input as an earlier run; optionally asking to widen one grant. */
  retry(runId: string, widen?: Widening): { run_id: string; done: Promise<RunResult> } {
    const record = this.store.get(runId);
    const req: RunRequest = {
      id: record.summary.skill_id,
      task: record.summary.task,
      input: record.input,
      ...(widen ? { widen: grantFor(widen) } : {}),
    };
    if (record.entrypoint) req.entrypoint = record.entrypoint;
    return this.start(req);
  }

  /**
   * The same task, input and entrypoint as an earlier run, against another copy of the
   * skill (a repair's patched scratch folder), in the same sandbox and under the same
   * approval rules (DESIGN §5: replayed before the user sees the patch).
   */
  replay(record: RunRecord, skillDir: string): Promise<RunResult> {
    const req: RunRequest = {
      id: record.summary.skill_id,
      task: record.summary.task,
      input: record.input,
      skillDir,
    };
    if (record.entrypoint) req.entrypoint = record.entrypoint;
    return this.start(req).done;
  }

  cancel(runId: string): boolean {
    const controller = this.controllers.get(runId);
    if (!controller) return false;
    controller.abort();
    return true;
  }

  /** Revoke a skill's "always allow"; its next run asks again. */
  revoke(skill: string): boolean {
    const revoked = this.grants.revoke(skill);
    if (revoked) this.deps.events.emit('approval.grantsChanged', { grants: this.grants.list() });
    return revoked;
  }

  /** Shutdown: stop every run and deny what still waits for an answer. */
  close(): void {
    for (const controller of this.controllers.values()) controller.abort();
    this.broker.denyAll('policy', 'SkillDeck is shutting down');
  }

  list(limit: number): RunSummary[] {
    return this.store.list(limit);
  }

  get(runId: string): RunRecord {
    return this.store.get(runId);
  }

  private launch(
    plan: Pick<ActivationPlan, 'parallel_groups' | 'skills' | 'skill_ids' | 'fallback_chain'>,
    req: RunRequest,
    failures?: TurnFailures,
    generic?: MachineIO['generic'],
  ): { run_id: string; done: Promise<RunResult> } {
    const runId = newRunId();
    const controller = new AbortController();
    this.controllers.set(runId, controller);
    const first = this.deps.catalog.list().skills.find((s) => s.id === req.id);
    const record: RunRecord = {
      summary: {
        run_id: runId,
        skill: first?.name ?? plan.skills[0],
        skill_id: req.id,
        task: req.task,
        status: 'running',
        sandbox: 'none',
        started_at: new Date().toISOString(),
        duration_ms: null,
      },
      result: null,
      timeline: [],
      input: req.input ?? {},
      entrypoint: req.entrypoint ?? null,
    };
    this.store.save(record);
    this.store.prune();
    const done = this.execute(runId, record, plan, req, controller, failures ?? new Map(), generic).finally(
      () => this.controllers.delete(runId),
    );
    return { run_id: runId, done };
  }

  private async execute(
    runId: string,
    record: RunRecord,
    plan: Pick<ActivationPlan, 'parallel_groups' | 'skills' | 'skill_ids' | 'fallback_chain'>,
    req: RunRequest,
    controller: AbortController,
    failures: TurnFailures,
    generic: MachineIO['generic'],
  ): Promise<RunResult> {
    const started = Date.now();
    let sandbox: RunSandbox = 'none';
    const scripts: RunScript[] = [];
    const timeline = new Timeline(
      record,
      (r) => this.store.save(r),
      (t) => this.deps.events.emit('run.transition', t),
    );
    const emit = timeline.emit.bind(timeline);
    const idOf = new Map(plan.skills.map((name, i) => [name, plan.skill_ids[i]]));
    const io: MachineIO = {
      emit: (state, skill, detail, status) => emit(state, skill, detail, undefined, status),
      cancelled: () => controller.signal.aborted,
      generic,
      attempt: async (step: SkillStep) => {
        let current = step.name;
        const env = this.attemptEnv(runId, controller.signal, req.chat, {
          note: (detail) => timeline.note(detail),
          running: (tier, script) => {
            sandbox = tier;
            record.summary.sandbox = tier;
            emit('running', current, `running ${script} in the ${tier} sandbox`, tier, undefined, script);
          },
          awaiting: (detail) => emit('awaiting_approval', current, detail),
          ran: (script) => scripts.push(script),
        });
        try {
          // A repair's patched copy keeps its skill's source: an untrusted folder's skill asks there too.
          const source = () => this.deps.catalog.list().skills.find((s) => s.id === step.id)?.source;
          const skill =
            req.skillDir && step.id === req.id
              ? await readSkillDetail(req.skillDir, source())
              : await this.deps.catalog.get(step.id);
          current = skill.name;
          return await attemptSkill(
            {
              skill,
              task: req.task,
              input: req.input ?? {},
              entrypoint: req.entrypoint,
              runId,
              widen: req.widen,
              depth: 0,
              chain: [skill.name],
            },
            env,
            this.instruction,
          );
        } catch (error) {
          return fatalAttempt('failure', `${step.name} could not be loaded: ${(error as Error).message}`);
        }
      },
    };
    const groups = plan.parallel_groups.map((g) => g.map((name) => ({ name, id: idOf.get(name) ?? req.id })));
    const machine = await executePlan(groups, plan.fallback_chain, io, failures);
    const r: AttemptResult = machine.result;
    const result: RunResult = {
      run_id: runId,
      skill: machine.skill?.name ?? record.summary.skill,
      skill_id: machine.skill?.id ?? req.id,
      status: r.status,
      output: r.output,
      error: r.error,
      sandbox: r.sandbox === 'none' ? sandbox : r.sandbox,
      duration_ms: Date.now() - started,
      exit_code: r.exit_code,
      command: r.command,
      cwd: r.cwd,
      stderr: r.stderr,
      truncated: r.truncated,
      files: withWrittenElsewhere(r.files, scripts),
      violations: r.violations,
      fallback_used: machine.fallbackUsed,
      timeline: record.timeline,
    };
    if (req.routeId) result.route_id = req.routeId;
    if (scripts.length > 0) result.scripts = scripts;
    const failed = machine.fallbackUsed ? machine.primaryFailure : undefined;
    if (failed)
      result.primary_failure = {
        skill: failed.skill.name,
        skill_id: failed.skill.id,
        status: failed.result.status,
        output: failed.result.output,
        error: failed.result.error,
        sandbox: failed.result.sandbox === 'none' ? sandbox : failed.result.sandbox,
        exit_code: failed.result.exit_code,
        command: failed.result.command,
        cwd: failed.result.cwd,
        stderr: failed.result.stderr,
        truncated: failed.result.truncated,
        violations: failed.result.violations,
      };
    // The plan's other skills that ran: not the one this result is of, nor the failure above.
    const others = machine.ran.filter(
      (r) => r.skill.id !== machine.skill?.id && r.skill.id !== failed?.skill.id,
    );
    if (others.length > 0)
      result.also_ran = others.map(({ skill, result: o }) => ({
        skill: skill.name,
        skill_id: skill.id,
        status: o.status,
        output: o.output,
        error: o.error,
        sandbox: o.sandbox === 'none' ? sandbox : o.sandbox,
        exit_code: o.exit_code,
        command: o.command,
        cwd: o.cwd,
        stderr: o.stderr,
        truncated: o.truncated,
        violations: o.violations,
      }));
    record.result = result;
    record.summary.status = result.status;
    record.summary.duration_ms = result.duration_ms;
    record.summary.sandbox = result.sandbox;
    this.store.save(record);
    // A chat turn records its route's outcome itself, with the tokens the turn cost.
    if (!req.chat) this.recordStats(result, req.routeId);
    this.deps.events.emit('run.finished', result);
    return result;
  }

  /** Runs feed the success factor (DESIGN §3) and, when routed, the route event. */
  private recordStats(result: RunResult, routeId?: string): void {
    if (routeId) {
      try {
        this.deps.routing.recordResult(routeId, {
          status: result.status,
          skill_id: result.skill_id,
          fallback_used: result.fallback_used,
          duration_ms: result.duration_ms,
        });
      } catch {
        // The route log lost the event (rotated, corrupt): the run itself still counts below.
      }
      return;
    }
    if (result.status !== 'cancelled' && result.status !== 'denied')
      this.deps.routing.stats.record(result.skill, result.status === 'success');
  }

  private attemptEnv(
    runId: string,
    signal: AbortSignal,
    chat: ChatHooks | undefined,
    hooks: Pick<AttemptEnv, 'note' | 'running' | 'ran'> & { awaiting(d: string): void },
  ): AttemptEnv {
    return {
      home: this.deps.home,
      workspace: this.deps.workspace,
      userHome: this.deps.userHome,
      ...skillFolders(this.deps.catalog.list().folders),
      hostEnv: this.deps.hostEnv ?? process.env,
      untrustedWorkspace: this.deps.untrustedWorkspace?.(),
      grants: this.grants,
      maxOutputBytes: this.deps.maxOutputBytes ?? 1024 * 1024,
      signal,
      approve: async (ask) => {
        hooks.awaiting(`waiting for your approval: ${ask.command_line}`);
        const answer = await this.broker.ask(ask, signal);
        // Kept in the record, so the timeline says who decided after a reload too.
        hooks.note(describeAnswer(answer));
        return answer;
      },
      note: hooks.note,
      running: hooks.running,
      ran: hooks.ran,
      onOutput: (stream, chunk) => this.deps.events.emit('run.output', { run_id: runId, stream, chunk }),
      grantsChanged: () => this.deps.events.emit('approval.grantsChanged', { grants: this.grants.list() }),
      ...(chat ? { chat } : {}),
    };
  }
}

/** The discovery folders: those that exist are hidden from runs, the others kept from being made. */
function skillFolders(folders: readonly { path: string; exists: boolean }[]) {
  return {
    skillRoots: folders.filter((f) => f.exists).map((f) => f.path),
    absentSkillRoots: folders.filter((f) => !f.exists).map((f) => f.path),
  };
}
