/**
 * Install, remove, enable and diagnose skills (issue 3; DESIGN §2, §6).
 *
 * Methods:
 * - `install.preview`  { source, previewId? } → InstallPreview. Copies / extracts / clones the
 *   source (folder, archive path, uploaded archive bytes, git) into `$SKILLDECK_HOME/staging/<previewId>` (nothing else is written) and describes
 *   every skill found in it. Progress arrives as `install.progress` events; pass your own
 *   `previewId` to match them before the answer comes back.
 * - `install.commit`   { previewId, select[] } → { installed[], skipped[] }. Moves the chosen
 *   skills into `$SKILLDECK_HOME/skills/<name>` with an atomic rename; a replaced skill goes
 *   to the trash first (recoverable with `skills.restore`). The staging dir is removed.
 * - `install.cancel`   { previewId } → { cancelled }. Drops the staging dir.
 * - `skills.remove`    { id } → TrashItem. Managed skills only (others: `forbidden`, the
 *   message says where the skill lives).
 * - `skills.restore`   { trashId } → { id, name }. Undo of remove / replace.
 * - `trash.list`       {} → { items: TrashItem[] }, newest first.
 * - `trash.empty`      { trashId? } → { removed }. One item, or everything.
 * - `skills.setEnabled`    { name, enabled } → SkillSwitches (settings.skills.disabled).
 * - `skills.setAutoSelect` { name, autoSelect } → SkillSwitches (settings.skills.neverAutoSelect).
 * - `skills.diagnose`  { id } → Diagnosis: everything that keeps the skill out of routing.
 *
 * Events: `install.progress` (cloning, extracting, copying). Installs, removes, restores and
 * the file watcher announce `skills.changed` (see ./skills.ts).
 */
import { z } from 'zod';
import { Problem } from './common';
import { InstallHint, InstructionFinding, SkillSource } from './skills';

const PathString = z.string().min(1).max(4096);
/** Client-chosen or engine-made preview ids: safe as a folder name. */
export const PreviewId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'letters, digits, _ or -, 8–64 long');
/** A skill name as installed: the agentskills.io rule (lowercase, digits, hyphens). */
export const InstallName = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, 'lowercase letters, digits and hyphens, at most 64');

/**
 * Largest upload: the WebSocket carries at most 4 MiB a message (shared/rpc.ts), so the base64
 * text is capped at 4,000,000 characters, i.e. about 3 MB of archive bytes.
 */
export const UPLOAD_MAX_BASE64 = 4_000_000;
export const UPLOAD_MAX_BYTES = (UPLOAD_MAX_BASE64 / 4) * 3;
/** A bare file name (no folders) ending in `.zip` or `.skill`. */
export const UploadFileName = z
  .string()
  .min(5)
  .max(255)
  .regex(/^[^/\\\0]+\.(zip|skill)$/i, 'a file name (no folders) ending in .zip or .skill');

const sourceVariants = [
  /** A local folder: a skill, or a folder holding several. */
  z.object({ kind: z.literal('folder'), path: PathString }).strict(),
  /** A `.zip` or `.skill` archive on disk. */
  z.object({ kind: z.literal('archive'), path: PathString }).strict(),
  /** A git repository: https, ssh (`git@host:x/y`), or `file://`. */
  z
    .object({
      kind: z.literal('git'),
      url: z.string().min(1).max(2048),
      /** Branch, tag or commit sha; default branch when absent. */
      ref: z.string().min(1).max(256).optional(),
      /** Folder inside the repository to look in, `/`-separated. */
      subpath: z.string().min(1).max(1024).optional(),
    })
    .strict(),
] as const;

/** Where a skill comes from. */
export const InstallSource = z.discriminatedUnion('kind', [
  ...sourceVariants,
  /**
   * A `.zip` / `.skill` archive sent as bytes (a file dropped on or picked in a browser page,
   * which never learns the file's path). Staged and checked exactly like `archive`.
   */
  z
    .object({
      kind: z.literal('upload'),
      fileName: UploadFileName,
      dataBase64: z
        .string()
        .min(1)
        .max(UPLOAD_MAX_BASE64, 'archives over 3 MB: paste their path instead')
        .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64 text'),
    })
    .strict(),
]);
export type InstallSource = z.infer<typeof InstallSource>;

/** The source as a preview names it: an upload by its file name only (no bytes sent back). */
export const PreviewSource = z.discriminatedUnion('kind', [
  ...sourceVariants,
  z.object({ kind: z.literal('upload'), fileName: z.string() }).strict(),
]);
export type PreviewSource = z.infer<typeof PreviewSource>;

/** The strongest sandbox this machine gives a skill's scripts (DESIGN §4). */
export const SandboxTier = z.enum(['bwrap', 'seatbelt', 'process']);
export type SandboxTier = z.infer<typeof SandboxTier>;

export const InstallFile = z.object({
  /** Relative to the skill folder, `/`-separated. */
  path: z.string(),
  size: z.number().int(),
  executable: z.boolean(),
  /** Set for runnable scripts (`python`, `bash`, `node`, ...). */
  scriptLanguage: z.string().optional(),
});
export type InstallFile = z.infer<typeof InstallFile>;

/** A same-named skill that already exists in the managed folder. */
export const InstallConflict = z.object({
  existingId: z.string(),
  existingVersion: z.string().optional(),
});

/** One skill found in the source, as it will be installed. */
export const InstallCandidate = z.object({
  name: z.string(),
  description: z.string(),
  version: z.string().optional(),
  /** Folder of the skill inside the source, `/`-separated; `''` for the source's root. */
  sourcePath: z.string(),
  /** Where it would be installed: `$SKILLDECK_HOME/skills/<name>`. */
  targetPath: z.string(),
  files: z.array(InstallFile),
  totalBytes: z.number().int(),
  /** The runnable scripts, e.g. `{ path: 'scripts/run.py', language: 'python' }`. */
  scripts: z.array(z.object({ path: z.string(), language: z.string() })),
  /**
   * Plain-language summary of what it will be able to do, from its declared metadata:
   * "runs python scripts", "writes ./out/**", "reaches api.example.com", "reads env OPENAI_API_KEY".
   */
  capabilities: z.array(z.string()),
  /** What its instructions ask the agent to do that deserves a look, danger first. */
  instructions: z.array(InstructionFinding),
  sandboxTier: SandboxTier,
  /** Loader and validator problems; an `error` means it will be listed but never routed. */
  problems: z.array(Problem),
  /** Unmet requirements on this machine right now (bins not on PATH, env vars not set, os). */
  unmet: z.array(z.string()),
  /** A managed skill of that name already exists: choose replace, rename or cancel. */
  conflict: InstallConflict.nullable(),
});
export type InstallCandidate = z.infer<typeof InstallCandidate>;

export const InstallPreview = z.object({
  previewId: z.string(),
  source: PreviewSource,
  candidates: z.array(InstallCandidate),
  totalBytes: z.number().int(),
  fileCount: z.number().int(),
});
export type InstallPreview = z.infer<typeof InstallPreview>;

export const InstallSelection = z
  .object({
    /** A candidate's `name`. */
    name: z.string().min(1).max(128),
    /** What to do when a managed skill of that name exists (default `cancel`: skip it). */
    onConflict: z.enum(['replace', 'rename', 'cancel']).default('cancel'),
    /** Install under this name instead (required for `rename`); SKILL.md's `name` is rewritten. */
    newName: InstallName.optional(),
  })
  .strict();

export const InstalledSkill = z.object({
  id: z.string(),
  name: z.string(),
  path: z.string(),
  /** The skill this one replaced, moved to the trash (restore it with `skills.restore`). */
  replacedBackup: z.object({ trashId: z.string(), path: z.string() }).optional(),
});
export type InstalledSkill = z.infer<typeof InstalledSkill>;

export const InstallResult = z.object({
  installed: z.array(InstalledSkill),
  /** Selected but not installed, and why (conflict cancelled, unknown name). */
  skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
});
export type InstallResult = z.infer<typeof InstallResult>;

/** A removed or replaced skill kept in `$SKILLDECK_HOME/trash/<trashId>/`. */
export const TrashItem = z.object({
  trashId: z.string(),
  name: z.string(),
  version: z.string().optional(),
  /** Where it lived, and where `skills.restore` puts it back. */
  originalPath: z.string(),
  /** ISO time. */
  removedAt: z.string(),
  reason: z.enum(['removed', 'replaced']),
});
export type TrashItem = z.infer<typeof TrashItem>;

export const SkillSwitches = z.object({
  name: z.string(),
  enabled: z.boolean(),
  autoSelect: z.boolean(),
});
export type SkillSwitches = z.infer<typeof SkillSwitches>;

/** One thing that keeps a skill out of routing. */
export const DiagnosisReason = z.object({
  code: z.enum([
    'parse-error',
    'missing-bin',
    'missing-any-bin',
    'missing-env',
    'os-excluded',
    'shadowed',
    'disabled',
    /** Turned off in the open workspace only (`workspace.setSkillEnabled`). */
    'disabled-here',
    'never-auto-select',
    'implicit-off',
    'instructions-flagged',
  ]),
  /** `all`: never used; `auto`: only `$name` / `/name` can use it. */
  blocks: z.enum(['all', 'auto']),
  message: z.string(),
  /** How to fix it, when there is a way. */
  fix: z.string().optional(),
  /** What is missing or who shadows: bin names, env var names, a skill id. */
  detail: z.array(z.string()).optional(),
  /** For a missing program: how to install it, from the skill's own install entries. */
  install: z.array(InstallHint).optional(),
});
export type DiagnosisReason = z.infer<typeof DiagnosisReason>;

export const Diagnosis = z.object({
  id: z.string(),
  name: z.string(),
  source: SkillSource,
  /** True when nothing blocks automatic selection (the router may still score it low). */
  autoSelectable: z.boolean(),
  /** True when `$name` can still run it. */
  invocable: z.boolean(),
  reasons: z.array(DiagnosisReason),
});
export type Diagnosis = z.infer<typeof Diagnosis>;

const SkillId = z.object({ id: PathString }).strict();
const SkillName = z.string().min(1).max(128);

export const installRequests = {
  /** Stage a source and describe every skill in it; nothing is installed yet. */
  'install.preview': {
    input: z.object({ source: InstallSource, previewId: PreviewId.optional() }).strict(),
    output: InstallPreview,
  },
  /** Install the chosen candidates of a preview (atomic per skill). */
  'install.commit': {
    input: z.object({ previewId: PreviewId, select: z.array(InstallSelection).min(1).max(500) }).strict(),
    output: InstallResult,
  },
  /** Drop a preview's staging dir. */
  'install.cancel': {
    input: z.object({ previewId: PreviewId }).strict(),
    output: z.object({ cancelled: z.boolean() }),
  },
  /** Move a managed skill to the trash. */
  'skills.remove': { input: SkillId, output: TrashItem },
  /** Put a trashed skill back where it was; a skill in its place goes to the trash (`replaced`). */
  'skills.restore': {
    input: z.object({ trashId: z.string().min(1).max(128) }).strict(),
    output: z.object({ id: z.string(), name: z.string(), replaced: TrashItem.optional() }),
  },
  /** Everything in the trash, newest first. */
  'trash.list': { input: z.object({}).strict(), output: z.object({ items: z.array(TrashItem) }) },
  /** Delete one trash item for good, or all of them. */
  'trash.empty': {
    input: z.object({ trashId: z.string().min(1).max(128).optional() }).strict(),
    output: z.object({ removed: z.number().int() }),
  },
  /** Enable or disable a skill by name (persisted in settings). */
  'skills.setEnabled': {
    input: z.object({ name: SkillName, enabled: z.boolean() }).strict(),
    output: SkillSwitches,
  },
  /** Allow or forbid automatic selection by name; `$name` still works (persisted in settings). */
  'skills.setAutoSelect': {
    input: z.object({ name: SkillName, autoSelect: z.boolean() }).strict(),
    output: SkillSwitches,
  },
  /** "Why isn't it used?": every reason that keeps the skill out of routing. */
  'skills.diagnose': { input: SkillId, output: Diagnosis },
} as const;

export const installEvents = {
  /** Progress of a preview's staging (clone, extraction, copy). */
  'install.progress': z.object({
    previewId: z.string(),
    phase: z.enum(['cloning', 'extracting', 'copying', 'scanning', 'done']),
    done: z.number(),
    /** 0 when unknown (a clone's size is not known up front). */
    total: z.number(),
    message: z.string(),
  }),
} as const;
