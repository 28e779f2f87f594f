import { z } from 'zod';

/**
 * Workspace trust (what-users-ask §14; VS Code workspace trust, Claude Code's folder-trust
 * dialog): the skills a folder ships in its `skills/`, `.claude/skills` and `.agents/skills`
 * came with the folder (a cloned repository), not from the user. Until the user trusts the
 * folder, none of them runs without asking: their `approval: auto` counts as `ask`.
 */
export const WorkspaceStatus = z.object({
  /** The workspace folder, absolute. */
  path: z.string(),
  /** The user trusts this folder (stored per absolute path in $SKILLDECK_HOME), or ran the CLI in it. */
  trusted: z.boolean(),
  /** `stored`: trusted in the app or with `skilldeck trust`; `cli`: the CLI's own folder, for that command only. */
  trusted_by: z.enum(['stored', 'cli']).nullable(),
  /** When the stored trust was given (ISO time), or null. */
  trusted_at: z.string().nullable(),
  /** Ids of the skills found in the folder's own skill folders. */
  skills: z.array(z.string()),
  /** Names of workspace skills that hide a same-named bundled, user or managed skill. */
  shadowing: z.array(z.string()),
  /** Skill names the user turned off in this workspace only (the router skips them here). */
  disabled: z.array(z.string()),
});
export type WorkspaceStatus = z.infer<typeof WorkspaceStatus>;

/** One folder the user trusts (Settings lists them, each revocable). */
export const TrustedFolder = z.object({ path: z.string(), trusted_at: z.string() });
export type TrustedFolder = z.infer<typeof TrustedFolder>;

const FolderPath = z.string().min(1).max(4096);

export const workspaceRequests = {
  /** The open workspace: trusted or not, its skills, and the skills turned off here. */
  'workspace.status': { input: z.object({}).strict(), output: WorkspaceStatus },
  /**
   * Trust the open workspace. `path` must be the folder `workspace.status` showed: no other
   * folder can be trusted from a window, so a message naming another one is refused.
   */
  'workspace.trust': { input: z.object({ path: FolderPath }).strict(), output: WorkspaceStatus },
  /** Take back the trust given to a folder (the open one or any listed in Settings). */
  'workspace.untrust': {
    input: z.object({ path: FolderPath }).strict(),
    output: z.object({ revoked: z.boolean(), folders: z.array(TrustedFolder) }),
  },
  /** Every folder the user trusts. */
  'workspace.trusted': {
    input: z.object({}).strict(),
    output: z.object({ folders: z.array(TrustedFolder) }),
  },
  /** Turn one skill (by name) off or on again in the open workspace only. */
  'workspace.setSkillEnabled': {
    input: z.object({ name: z.string().min(1).max(200), enabled: z.boolean() }).strict(),
    output: WorkspaceStatus,
  },
} as const;

export const workspaceEvents = {
  /** The open workspace's trust or its per-workspace switches changed. */
  'workspace.changed': WorkspaceStatus,
} as const;
