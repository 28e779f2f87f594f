import type { ModelMessage } from 'ai';
import type {
  ApprovalResolution,
  ChatStep,
  ChatUsage,
  RunFile,
  RunSandbox,
  RunScript,
  RunStatus,
  SkillDetail,
  Violation,
} from '../../../shared/contract';
import { installHints } from '../skills/installHints';
import { describeUnmet, unmetRequirements } from '../skills/readiness';
import type { ApprovalAsk } from './approvals';
import type { Outcome } from './classify';
import { fillArgs, pickScript } from './entrypoints';
import type { GrantStore } from './grants';
import { emptyAttempt, runScript, type Widening } from './scriptAttempt';
import { fillTemplate } from './template';

/** One attempt of one skill: what the fallback machine sees. */
export interface AttemptResult {
  status: RunStatus;
  outcome: Outcome;
  output: string;
  error: string | null;
  exit_code: number | null;
  sandbox: RunSandbox;
  command: string[];
  cwd: string | null;
  stderr: string;
  truncated: boolean;
  files: RunFile[];
  violations: Violation[];
  duration_ms: number;
}

/** When a run is part of a chat turn: the conversation so far and where the turn's steps go. */
export interface ChatHooks {
  history: ModelMessage[];
  /** Prefix for step ids, unique within the turn. */
  stepPrefix: string;
  onStep(step: ChatStep): void;
  onDelta(text: string): void;
  addUsage(usage: ChatUsage): void;
  /**
   * The model cannot answer now: it went silent for the stall limit, or its endpoint refused the
   * key, is rate-limiting or cannot be reached (modelLoop.ts). The turn's fallback asks it nothing more.
   */
  onModelDown?(error: string): void;
}

/** What an attempt may use: folders, the host env, approvals, and hooks into the run's timeline. */
export interface AttemptEnv {
  home: string;
  workspace: string;
  /** `~` for grants and HOME inside the sandbox. */
  userHome: string;
  /** Every skill discovery folder: hidden inside the sandbox, but for the running skill's own folder. */
  skillRoots: string[];
  /** The discovery folders that do not exist yet: a run may not make them (sandbox/layout.ts). */
  absentSkillRoots?: string[];
  hostEnv: NodeJS.ProcessEnv;
  /**
   * The workspace folder when the user has not trusted it: its own skills (source `workspace`)
   * then ask before every run, whatever their `approval: auto` (what-users-ask §14).
   */
  untrustedWorkspace?: string;
  grants: GrantStore;
  maxOutputBytes: number;
  signal?: AbortSignal;
  approve(ask: ApprovalAsk): Promise<ApprovalResolution>;
  /** A line for the timeline (allowed by a grant, template fields missing …). */
  note(detail: string): void;
  /** The command starts now, in this sandbox; `script` relative to the skill folder. */
  running(tier: RunSandbox, script: string): void;
  /** A script ran (it exited, or was stopped): the run lists it, whoever asked for it. */
  ran?(script: RunScript): void;
  onOutput(stream: 'stdout' | 'stderr', chunk: string): void;
  grantsChanged(): void;
  /** Set when the run belongs to a chat turn. */
  chat?: ChatHooks;
}

export interface AttemptRequest {
  skill: SkillDetail;
  task: string;
  input: Record<string, unknown>;
  entrypoint?: string;
  runId: string;
  widen?: Widening;
  /** Delegation depth (0 for a skill the user or the router picked) and the chain so far (seed 002). */
  depth: number;
  chain: string[];
}

/** Runs an instruction skill through the model (the chat issue provides it). */
export type InstructionRunner = (req: AttemptRequest, env: AttemptEnv) => Promise<AttemptResult>;

/** An attempt that ended before anything ran, and is not retried. */
export const fatalAttempt = (status: RunStatus, error: string): AttemptResult => ({
  ...emptyAttempt('none', 0),
  status,
  outcome: 'fatal',
  error,
});

/** One attempt of a skill by its type (DESIGN §4 runners). Never throws. */
export async function attemptSkill(
  req: AttemptRequest,
  env: AttemptEnv,
  instruction?: InstructionRunner,
): Promise<AttemptResult> {
  const m = req.skill.metadata;
  const missing = unmetRequirements(m, env.hostEnv);
  const unmet = describeUnmet(missing);
  // routing spec §10: a missing prerequisite is a fatal failure, straight to fallback.
  if (unmet.length > 0) {
    const [first] = installHints(m.install, [...missing.bins, ...missing.anyBins]);
    const hint = first ? ` To install it: ${first.command}` : '';
    return fatalAttempt('failure', `Missing prerequisite for ${m.name}: ${unmet.join('; ')}.${hint}`);
  }
  const input = { ...req.input, task: req.input.task ?? req.task };
  if (m.type === 'direct') {
    const { text, missing } = fillTemplate(req.skill.body, {
      input,
      system: { cwd: env.workspace, timestamp: new Date().toISOString() },
    });
    if (missing.length) env.note(`left to fill in: ${missing.join(', ')}`);
    return { ...emptyAttempt('none', 0), output: text };
  }
  if (m.type === 'instruction') {
    if (instruction) return instruction({ ...req, input }, env);
    return fatalAttempt(
      'failure',
      `${m.name} needs a model to follow its instructions; configure one in Settings → Model (from a terminal: SKILLDECK_MODEL with OPENAI_BASE_URL and OPENAI_API_KEY).`,
    );
  }
  // The model follows SKILL.md (as in Agent Skills clients), when one is configured.
  const viaModel = async (): Promise<AttemptResult | null> => {
    if (!instruction) return null;
    const result = await instruction({ ...req, input }, env);
    return result.status === 'failure' && /no model/i.test(result.error ?? '') ? null : result;
  };
  // A script skill only because it has a scripts/ folder, in a chat: its SKILL.md says which
  // script to call and with what, which only a model can read. Declared entrypoints or a
  // declared type run directly, and so does every run outside a chat (`skilldeck run`).
  const declared = m.entrypoints.length > 0 || m.fieldSources.type !== undefined;
  if (!declared && !req.entrypoint && env.chat) {
    const followed = await viaModel();
    if (followed) return followed;
  }
  // DESIGN §4: a script skill runs its entrypoint, or the file in scripts/.
  const pick = pickScript(m, req.skill.files, req.skill.path, req.entrypoint, env.hostEnv);
  if (!pick.ok) {
    // Several scripts and nothing saying which: SKILL.md tells how to call them.
    if (!req.entrypoint && pick.choices.length > 1 && instruction) {
      const followed = env.chat && !declared ? null : await viaModel();
      if (followed) return followed;
      return fatalAttempt(
        'failure',
        `${pick.error} Or configure a model (Settings → Model) to follow its instructions.`,
      );
    }
    return fatalAttempt('failure', pick.error);
  }
  const filled = fillArgs(pick.script, {
    input,
    system: { cwd: env.workspace, timestamp: new Date().toISOString() },
  });
  if ('error' in filled) return fatalAttempt('failure', filled.error);
  return runScript(
    {
      skill: req.skill,
      script: { ...pick.script, args: filled.args },
      args: [],
      input,
      runId: req.runId,
      widen: req.widen,
    },
    env,
  );
}
