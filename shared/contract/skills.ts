import { z } from 'zod';
import { Problem } from './common';

/** Where a skill was discovered, lowest precedence first (DESIGN §2). */
export const SkillSource = z.enum(['bundled', 'user', 'managed', 'workspace', 'extra']);
export type SkillSource = z.infer<typeof SkillSource>;

export const SkillType = z.enum(['instruction', 'script', 'direct']);
export type SkillType = z.infer<typeof SkillType>;

export const CostHint = z.enum(['low', 'medium', 'high']);

export const Entrypoint = z.object({
  name: z.string(),
  path: z.string(),
  description: z.string().optional(),
});

/**
 * Every field of every accepted skill format, normalized (DESIGN §2,
 * reference/skill-formats.md). Unknown fields are kept in `extra`.
 */
export const SkillMetadata = z.object({
  name: z.string(),
  description: z.string(),
  displayName: z.string().optional(),
  shortDescription: z.string().optional(),
  version: z.string().optional(),
  author: z.string().optional(),
  license: z.string().optional(),
  compatibility: z.string().optional(),
  homepage: z.string().optional(),
  emoji: z.string().optional(),
  icon: z.string().optional(),
  /** Codex `interface.icon_large`; `icon` holds `icon_small`. */
  iconLarge: z.string().optional(),
  brandColor: z.string().optional(),
  category: z.string().optional(),
  tags: z.array(z.string()),
  type: SkillType,
  whenToUse: z.string().optional(),
  argumentHint: z.string().optional(),
  defaultPrompt: z.string().optional(),
  triggers: z.array(z.string()),
  /** `triggers.hard` of `{ keywords, hard }` triggers; also included in `triggers`. */
  hardTriggers: z.array(z.string()).optional(),
  antiTriggers: z.array(z.string()),
  costHint: CostHint,
  parallelSafe: z.boolean(),
  always: z.boolean(),
  /** implicit: the router may pick it; user: `$name` / `/name` may invoke it. */
  invocation: z.object({ implicit: z.boolean(), user: z.boolean() }),
  requires: z.object({
    bins: z.array(z.string()),
    anyBins: z.array(z.string()),
    env: z.array(z.string()),
    config: z.array(z.string()),
    os: z.array(z.string()),
  }),
  install: z.array(z.record(z.string(), z.unknown())),
  /** OpenClaw `primaryEnv`: the env var bound to the skill's API key. */
  primaryEnv: z.string().optional(),
  /** OpenClaw / Clawdbot `toolHints`: tools the body expects to use. */
  toolHints: z.array(z.string()).optional(),
  allowedTools: z.array(z.string()),
  permissions: z.object({
    filesystem: z.object({ read: z.array(z.string()), write: z.array(z.string()) }),
    network: z.object({ outbound: z.union([z.boolean(), z.array(z.string())]) }),
    environment: z.object({ allow: z.array(z.string()) }),
    /** apex-bridge style free-form permission names. */
    named: z.array(z.string()),
  }),
  execution: z.object({
    sandbox: z.enum(['none', 'process', 'os']).optional(),
    approval: z.enum(['ask', 'auto', 'deny']).optional(),
    timeoutMs: z.number().optional(),
    dangerous: z.boolean(),
    confirm: z.boolean(),
    /** apex-bridge `confirm` given as text: the question to ask before running. */
    confirmMessage: z.string().optional(),
  }),
  entrypoints: z.array(Entrypoint),
  metadata: z.record(z.string(), z.unknown()),
  /** Fields no known format defines, kept as written. */
  extra: z.record(z.string(), z.unknown()),
  /** Which file each normalized field came from (`SKILL.md`, `skill.yaml`, `agents/openai.yaml`). */
  fieldSources: z.record(z.string(), z.string()),
});
export type SkillMetadata = z.infer<typeof SkillMetadata>;

/** One row of the skill list. `id` is the skill folder's absolute path. */
/**
 * One line of a skill's instructions (SKILL.md, references/*.md) that asks the agent for something
 * a user should see before installing it, or when inspecting one installed without that look
 * (what-users-ask §7): to hide what it does, run a downloaded
 * script, read or send keys, turn off a safety check, run an unknown program, fetch
 * instructions that can change after review, or destroy a home folder, a disk or the system.
 */
export const InstructionFinding = z.object({
  /** `danger`: asks for the harmful act itself; `caution`: a risky habit worth a look. */
  severity: z.enum(['danger', 'caution']),
  kind: z.enum([
    'conceal',
    'no-consent',
    'remote-code',
    'secrets',
    'safety-off',
    'unknown-binary',
    'untrusted-host',
    'remote-instructions',
    'destructive',
  ]),
  /** The file in the skill, `/`-separated (`SKILL.md`, `references/setup.md`). */
  file: z.string(),
  /** 1-based line in that file. */
  line: z.number().int(),
  /** The line, whitespace collapsed, cut to about 180 characters. */
  excerpt: z.string(),
  /** One plain sentence: what the line asks the agent to do and why it matters. */
  reason: z.string(),
});
export type InstructionFinding = z.infer<typeof InstructionFinding>;

export const SkillSummary = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  displayName: z.string().optional(),
  emoji: z.string().optional(),
  version: z.string().optional(),
  author: z.string().optional(),
  path: z.string(),
  file: z.string(),
  source: SkillSource,
  root: z.string(),
  type: SkillType,
  triggers: z.array(z.string()),
  tags: z.array(z.string()),
  /** False when an error, an `os` that excludes this platform, or shadowing keeps the skill out of routing. */
  routable: z.boolean(),
  problems: z.array(Problem),
  /** Id of the same-named skill of higher precedence that hides this one. */
  shadowedBy: z.string().optional(),
  /** Ids of same-named skills of lower precedence this one hides. */
  shadows: z.array(z.string()),
  /** False when settings disable this skill's name (`skills.setEnabled`). */
  enabled: z.boolean().optional(),
  /** False when only `$name` may invoke it (`skills.setAutoSelect`, or `flagged` and not allowed). */
  autoSelect: z.boolean().optional(),
  /**
   * The first line of SKILL.md that asks the agent for a harmful act (a `danger` finding of the
   * instruction scan). The router holds such a skill back from automatic selection until the user
   * allows it (`skills.setAutoSelect`). Filled in with the switches; the bare catalog list omits it.
   */
  flagged: InstructionFinding.optional(),
  /**
   * True for a skill of the open workspace's own skill folders while the user has not trusted the
   * folder: it never runs without asking (its `approval: auto` counts as `ask`).
   */
  untrusted: z.boolean().optional(),
  /** False when the user turned it off in this workspace only (`workspace.setSkillEnabled`). */
  workspaceEnabled: z.boolean().optional(),
});
export type SkillSummary = z.infer<typeof SkillSummary>;

export const SearchedFolder = z.object({
  path: z.string(),
  source: SkillSource,
  exists: z.boolean(),
  skillCount: z.number().int(),
  /** Set when this folder is the same (realpath) as an earlier one, which was searched instead. */
  duplicateOf: z.string().optional(),
  /** Scan diagnostics for the folder itself, e.g. the scan limit was reached. */
  problems: z.array(Problem).optional(),
});
export type SearchedFolder = z.infer<typeof SearchedFolder>;

export const FileEntry = z.object({
  /** Path relative to the skill folder, `/`-separated. */
  path: z.string(),
  kind: z.enum(['file', 'dir']),
  size: z.number().int(),
  executable: z.boolean(),
  /** Script language when the file is a runnable script (`python`, `bash`, `node`, ...). */
  scriptLanguage: z.string().optional(),
});
export type FileEntry = z.infer<typeof FileEntry>;

export const ValidationReport = z.object({
  valid: z.boolean(),
  errors: z.array(z.string()),
});
export type ValidationReport = z.infer<typeof ValidationReport>;

export const SkillDetail = SkillSummary.extend({
  metadata: SkillMetadata,
  /** The frontmatter exactly as written (between the `---` lines). */
  rawFrontmatter: z.string(),
  /** The Markdown body, frontmatter removed. */
  body: z.string(),
  sidecars: z.array(z.object({ file: z.string(), raw: z.string() })),
  files: z.array(FileEntry),
  filesTruncated: z.boolean(),
  /** sha256 over every file of the skill (paths and bytes). */
  contentHash: z.string(),
  validation: ValidationReport,
  /**
   * What its instructions (SKILL.md, references/**.md) ask the agent to do that deserves a look,
   * danger first: the install preview's scan, read when the detail is asked for.
   */
  instructions: z.array(InstructionFinding),
});
export type SkillDetail = z.infer<typeof SkillDetail>;

export const SkillFile = z.object({
  path: z.string(),
  size: z.number().int(),
  binary: z.boolean(),
  truncated: z.boolean(),
  content: z.string(),
  /** Set when the bytes were not valid UTF-8 and were read as this legacy encoding instead. */
  encoding: z.literal('windows-1252').optional(),
});
export type SkillFile = z.infer<typeof SkillFile>;

export const SkillList = z.object({
  skills: z.array(SkillSummary),
  folders: z.array(SearchedFolder),
});
export type SkillList = z.infer<typeof SkillList>;

const SkillRef = z.object({ id: z.string().min(1).max(4096) }).strict();

/** What running one of a skill's install hints did (`skills.installDependency`). */
export const DependencyInstall = z.object({
  /** The hint's command, as it ran. */
  command: z.string(),
  /** The installer exited 0. */
  ok: z.boolean(),
  /** null when it did not exit on its own (it could not start, or was stopped). */
  exit_code: z.number().int().nullable(),
  /** The end of what the installer printed (stdout and stderr), terminal escapes removed. */
  output: z.string(),
  duration_ms: z.number(),
  /** The programs the skill still misses after it (checked on PATH again). */
  missing: z.array(z.string()),
  /** Why it did not finish, when it did not (could not start, timed out). */
  error: z.string().optional(),
});
export type DependencyInstall = z.infer<typeof DependencyInstall>;

export const skillsRequests = {
  /** Every skill found, with its problems and shadowing, and the folders searched. */
  'skills.list': { input: z.object({}).strict(), output: SkillList },
  /** Re-scan every discovery folder, then list. */
  'skills.reload': { input: z.object({}).strict(), output: SkillList },
  /** Full detail of one skill: body, metadata, raw frontmatter, files, hash, validation. */
  'skills.get': { input: SkillRef, output: SkillDetail },
  /** One file of a skill, read-only; paths are confined to the skill folder. */
  'skills.readFile': {
    input: z.object({ id: z.string().min(1).max(4096), path: z.string().min(1).max(4096) }).strict(),
    output: SkillFile,
  },
  /** The strict reference validator's report for one skill. */
  'skills.validate': { input: SkillRef, output: ValidationReport },
  /**
   * Run one of the skill's `runnable` install hints (by its exact command) for a program it
   * misses, outside the sandbox, as the user asked; then check its requirements again.
   */
  'skills.installDependency': {
    input: z.object({ id: z.string().min(1).max(4096), command: z.string().min(1).max(2000) }).strict(),
    output: DependencyInstall,
  },
} as const;

export const skillsEvents = {
  /** The set of skills changed (reload, install, edit on disk). */
  'skills.changed': z.object({
    added: z.array(z.string()),
    removed: z.array(z.string()),
    changed: z.array(z.string()),
  }),
  /**
   * What a running install (`skills.installDependency`) has printed since the last such event,
   * terminal escapes removed: a brew or cargo install takes minutes, and the user sees it working.
   */
  'skills.dependencyOutput': z.object({ id: z.string(), command: z.string(), chunk: z.string() }),
} as const;

/**
 * One way to install a program a skill needs, from the skill's own `install` entries (OpenClaw
 * metadata): its label and the command to type. Shown with a copy button; `runnable` ones (the
 * user's package manager, found on PATH, no sudo) the app can run when the user asks
 * (`skills.installDependency`), and `command` is then exactly what runs.
 */
export const InstallHint = z.object({
  label: z.string().optional(),
  command: z.string(),
  runnable: z.boolean().optional(),
});
export type InstallHint = z.infer<typeof InstallHint>;
