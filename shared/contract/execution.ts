import { z } from 'zod';

/**
 * Running skills (DESIGN §4, §7; routing spec §8–10): runs, their state-machine timeline,
 * approvals and always-allow grants. JSON keys are snake_case where the shape is printed
 * by `skilldeck run --json`.
 */

/** The sandbox that actually ran a command (`none`: the skill asked for no sandbox, or nothing ran). */
export const RunSandbox = z.enum(['bwrap', 'seatbelt', 'process', 'none']);
export type RunSandbox = z.infer<typeof RunSandbox>;

/** How a run ended. `blocked`: the sandbox stopped something outside the skill's grants. */
export const RunStatus = z.enum(['success', 'failure', 'denied', 'timeout', 'blocked', 'cancelled']);
export type RunStatus = z.infer<typeof RunStatus>;

/** Something the sandbox stopped, told exactly (never sent to repair). */
export const Violation = z.object({
  /** `own_folder`: a write into the skill's own folder, which stays read-only for its runs (DESIGN §4). */
  kind: z.enum(['write', 'read', 'network', 'exec', 'env', 'output', 'own_folder']),
  /** The path, host or variable the skill tried to reach. */
  target: z.string(),
  /** One sentence: "tried to write /etc/x, outside its write paths ./out/**". */
  message: z.string(),
  /**
   * false when no grant lets it through: a mount point the sandbox keeps in place (a write path
   * itself, a guarded .git) cannot be moved or removed whatever the skill declares.
   */
  grantable: z.boolean().optional(),
});
export type Violation = z.infer<typeof Violation>;

/**
 * What a user may grant a skill past a sandbox denial ("allow this for this skill?"); the other
 * kinds are limits that hold for every run (file size, memory, processes) and the skill's own
 * folder, which never becomes writable for its runs. A path is granted as an absolute one: a
 * write named relative to a folder the script changed to says where nothing can be allowed.
 */
export const WidenKind = z.enum(['write', 'read', 'network']);
export type WidenKind = z.infer<typeof WidenKind>;
export const widenable = (v: Violation): v is Violation & { kind: WidenKind } =>
  WidenKind.safeParse(v.kind).success &&
  v.grantable !== false &&
  (v.kind === 'network' || v.target.startsWith('/'));

/**
 * A file the run left in its working folder, or wrote or changed in one of its write folders
 * (the user's project under a `{workspace}/**` grant).
 */
export const RunFile = z.object({
  /**
   * Relative to the run's working folder, `/`-separated (e.g. `out/notes.md`); absolute for a
   * file in a write folder outside it.
   */
  path: z.string(),
  /** Absolute path on disk, for "open" / "reveal" links. */
  abs: z.string(),
  size: z.number().int(),
});
export type RunFile = z.infer<typeof RunFile>;

/** Fallback state machine states (routing spec §10), plus the approval pause. */
export const RunState = z.enum([
  'selected',
  'awaiting_approval',
  'running',
  'success',
  'retryable_failure',
  'fatal_failure',
  'fallback',
  'exit',
]);
export type RunState = z.infer<typeof RunState>;

/** One transition of the state machine; the window draws these as a timeline. */
export const RunTransition = z.object({
  run_id: z.string(),
  /** 0, 1, 2 … within the run. */
  seq: z.number().int(),
  state: RunState,
  /** The skill this step is about, when there is one (`generic_chat` / `ask_user` otherwise). */
  skill: z.string().nullable(),
  /** ISO 8601. */
  at: z.string(),
  /** Plain words: "exit 1: KeyError 'Amount'", "retrying once", "falling back to csv-summary". */
  detail: z.string(),
  /** The sandbox in effect for a `running` step. */
  sandbox: RunSandbox.optional(),
  /** Time spent in the previous state, ms. */
  duration_ms: z.number().optional(),
  /** On `retryable_failure` / `fatal_failure`: how the attempt ended (`denied`, `blocked`, `timeout` …). */
  status: RunStatus.optional(),
  /** The script a `running` step starts, relative to its skill folder (`scripts/draft.sh`). */
  script: z.string().optional(),
});
export type RunTransition = z.infer<typeof RunTransition>;

/**
 * One run's result: the DESIGN §7 `run --json` shape (`status`, `output`, `error`,
 * `sandbox`, `duration_ms`) and what the window shows beside it.
 */
const RunResultFields = z.object({
  run_id: z.string(),
  /** The skill that produced this result (after fallback, not necessarily the one asked for). */
  skill: z.string(),
  skill_id: z.string(),
  status: RunStatus,
  /** stdout (script), the filled template (direct) or the model's answer (instruction). */
  output: z.string(),
  /** What went wrong, in words that say what to do next; null on success. */
  error: z.string().nullable(),
  sandbox: RunSandbox,
  duration_ms: z.number(),
  exit_code: z.number().int().nullable(),
  /** The command line as run (argv), when a command ran. */
  command: z.array(z.string()),
  cwd: z.string().nullable(),
  stderr: z.string(),
  /** Output was cut at the cap. */
  truncated: z.boolean(),
  files: z.array(RunFile),
  violations: z.array(Violation),
  /** A skill from the plan's fallback chain, or plain chat, produced the result. */
  fallback_used: z.boolean(),
  timeline: z.array(RunTransition),
  /** The route this run executes, when it came from routing. */
  route_id: z.string().optional(),
});

/** How the skill asked for failed, when a fallback answered instead (what a repair works on). */
export const RunFailure = RunResultFields.pick({
  skill: true,
  skill_id: true,
  status: true,
  output: true,
  error: true,
  sandbox: true,
  exit_code: true,
  command: true,
  cwd: true,
  stderr: true,
  truncated: true,
  violations: true,
});
export type RunFailure = z.infer<typeof RunFailure>;

/** A script that ran during a run: the skill's own, or one the model ran through its tools. */
export const RunScript = z.object({
  /** The skill whose script it is (a delegated skill's, for `run_skill`). */
  skill: z.string(),
  /** Relative to the skill folder, `/`-separated (`scripts/draft.sh`). */
  script: z.string(),
  /** The command line as run (argv). */
  command: z.array(z.string()),
  sandbox: RunSandbox,
  status: RunStatus,
  exit_code: z.number().int().nullable(),
  duration_ms: z.number(),
  /**
   * The files in the run's working folder it wrote or changed (the run's `files` lists what they
   * all left). Absent in records from before it was kept.
   */
  files: z.array(RunFile).optional(),
});
export type RunScript = z.infer<typeof RunScript>;

export const RunResult = RunResultFields.extend({
  /**
   * When a fallback produced the result: how the skill asked for failed, so the window can
   * say so and a repair works on that failure, not on the fallback's success.
   */
  primary_failure: RunFailure.optional(),
  /**
   * The plan's other skills that ran beside the one this result is of (a parallel group, or
   * several skills named in one message), in plan order, each with its own outcome.
   */
  also_ran: z.array(RunFailure).optional(),
  /**
   * Every script that ran during the run, in order, retries too: an instruction skill's
   * `run_skill_script` calls have no `command` of the run's own. Absent when none ran, and in
   * records from before it was kept.
   */
  scripts: z.array(RunScript).optional(),
});
export type RunResult = z.infer<typeof RunResult>;

/** A run in the Runs view list. */
export const RunSummary = z.object({
  run_id: z.string(),
  skill: z.string(),
  skill_id: z.string(),
  task: z.string(),
  /** `running` while it is under way. */
  status: z.union([RunStatus, z.literal('running')]),
  sandbox: RunSandbox,
  started_at: z.string(),
  duration_ms: z.number().nullable(),
});
export type RunSummary = z.infer<typeof RunSummary>;

export const RunRecord = z.object({
  summary: RunSummary,
  /** Present once the run ended. */
  result: RunResult.nullable(),
  /** Transitions so far (also for a run under way). */
  timeline: z.array(RunTransition),
  input: z.record(z.string(), z.unknown()),
  entrypoint: z.string().nullable(),
});
export type RunRecord = z.infer<typeof RunRecord>;

/** Everything a user needs to decide, told exactly (DESIGN §4 approval broker). */
export const ApprovalRequest = z.object({
  id: z.string(),
  run_id: z.string(),
  skill: z.string(),
  skill_id: z.string(),
  version: z.string().nullable(),
  /**
   * sha256 over the skill's files, joined with a stat fingerprint of its node_modules and .git
   * when it has them (the listing skips them, a script may load code from them); an always-allow
   * grant binds to it.
   */
  content_hash: z.string(),
  /** The exact argv that will run. */
  command: z.array(z.string()),
  /** The same, shell-quoted for display. */
  command_line: z.string(),
  cwd: z.string(),
  /** Paths it may read / write, as declared and as resolved on this machine. */
  reads: z.array(z.string()),
  writes: z.array(z.string()),
  /** false: no network; true: any host; a list: only these hosts. */
  network: z.union([z.boolean(), z.array(z.string())]),
  /** Names of the environment variables passed in (never their values). */
  env: z.array(z.string()),
  sandbox: RunSandbox,
  /** Rules this sandbox cannot enforce here ("file permissions are not enforced"). Empty under bwrap. */
  unenforced: z.array(z.string()),
  /** Plain-language capability summary ("runs python scripts", "writes ./out/**"). */
  summary: z.array(z.string()),
  /** Why approval is asked ("runs a command", "the skill is marked dangerous", its `confirm` text). */
  reasons: z.array(z.string()),
  /** Set when this asks to widen a grant after a blocked run ("allow this for this skill?"). */
  widen: z.object({ kind: WidenKind, target: z.string(), grant: z.string() }).optional(),
  /** Set when the skill comes from the open workspace's folder, which the user has not trusted. */
  untrusted_workspace: z.string().optional(),
  requested_at: z.string(),
  /** After this moment no answer is a deny. */
  expires_at: z.string(),
});
export type ApprovalRequest = z.infer<typeof ApprovalRequest>;

export const ApprovalDecision = z.enum(['allow_once', 'allow_always', 'deny']);
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

export const ApprovalResolution = z.object({
  id: z.string(),
  run_id: z.string(),
  decision: ApprovalDecision,
  /** Who decided: the user, the timeout, a lost connection or closed window, a stored grant, the CLI flag. */
  by: z.enum(['user', 'timeout', 'disconnect', 'grant', 'flag', 'policy']),
  reason: z.string().optional(),
});
export type ApprovalResolution = z.infer<typeof ApprovalResolution>;

/** An "always allow" answer: bound to the skill's content hash and declared permissions. */
export const ApprovalGrant = z.object({
  skill: z.string(),
  skill_id: z.string(),
  content_hash: z.string(),
  /** A digest of the declared permissions at grant time; a widened skill asks again. */
  permissions_digest: z.string(),
  /** What was granted, for the Settings list. */
  summary: z.array(z.string()),
  granted_at: z.string(),
  /** Grants added by "allow this for this skill?" after a blocked run. */
  extra: z.object({
    read: z.array(z.string()),
    write: z.array(z.string()),
    network: z.array(z.string()),
  }),
});
export type ApprovalGrant = z.infer<typeof ApprovalGrant>;

const Id = z.string().min(1).max(4096);
const RunId = z.string().min(1).max(128);

export const executionRequests = {
  /**
   * Start a run of one skill. Resolves at once with the run id; `run.output`,
   * `run.transition`, `approval.requested` and finally `run.finished` follow as events.
   */
  'run.start': {
    input: z
      .object({
        id: Id,
        task: z.string().max(20_000).default(''),
        /** Entrypoint name or path; the first one when omitted. */
        entrypoint: z.string().max(4096).optional(),
        /** Extra `INPUT_JSON` fields (merged over `{ task }`). */
        input: z.record(z.string(), z.unknown()).optional(),
      })
      .strict(),
    output: z.object({ run_id: z.string() }),
  },
  /**
   * Run a finished run again with the same skill, task and input. With `widen` (one of the
   * run's violations), the new run asks to allow that path or host for this skill first.
   */
  'run.retry': {
    input: z
      .object({
        run_id: RunId,
        widen: z
          .object({ kind: WidenKind, target: z.string().min(1).max(4096) })
          .strict()
          .optional(),
      })
      .strict(),
    output: z.object({ run_id: z.string() }),
  },
  /** Stop a run: kills its whole process tree. */
  'run.cancel': {
    input: z.object({ run_id: RunId }).strict(),
    output: z.object({ cancelled: z.boolean() }),
  },
  /** Recent runs, newest first. */
  'runs.list': {
    input: z.object({ limit: z.number().int().min(1).max(500).default(50) }).strict(),
    output: z.object({ runs: z.array(RunSummary) }),
  },
  /** One run with its timeline, result and input. */
  'runs.get': { input: z.object({ run_id: RunId }).strict(), output: RunRecord },
  /** Approval requests still waiting for an answer (a reloaded window shows them again). */
  'approvals.pending': {
    input: z.object({}).strict(),
    output: z.object({ requests: z.array(ApprovalRequest) }),
  },
  /** Answer one approval request. */
  'approvals.answer': {
    input: z
      .object({
        id: z.string().min(1).max(128),
        decision: ApprovalDecision,
        reason: z.string().max(2000).optional(),
      })
      .strict(),
    output: ApprovalResolution,
  },
  /** The stored "always allow" grants (Settings lists them). */
  'approvals.grants': { input: z.object({}).strict(), output: z.object({ grants: z.array(ApprovalGrant) }) },
  /** Revoke a skill's "always allow" grant; its next run asks again. */
  'approvals.revoke': {
    input: z.object({ skill: z.string().min(1).max(256) }).strict(),
    output: z.object({ revoked: z.boolean() }),
  },
} as const;

export const executionEvents = {
  /** A run moved to a new state (routing spec §10). */
  'run.transition': RunTransition,
  /** A chunk of a running command's output. */
  'run.output': z.object({ run_id: z.string(), stream: z.enum(['stdout', 'stderr']), chunk: z.string() }),
  /** A run ended. */
  'run.finished': RunResult,
  /** A run waits for the user's answer. */
  'approval.requested': ApprovalRequest,
  /** An approval request was answered (by the user, a grant, a flag, the timeout or a lost connection). */
  'approval.resolved': ApprovalResolution,
  /** The always-allow grants changed. */
  'approval.grantsChanged': z.object({ grants: z.array(ApprovalGrant) }),
} as const;
