import type { SkillSummary, TrustedFolder, WorkspaceStatus } from '../../../shared/contract';
import { forbidden } from '../errors';
import type { EngineEvents } from '../events';
import { folderKey, WorkspaceStore } from './store';

export interface ScopeDeps {
  home: string;
  /** The open workspace folder (absolute). */
  workspace: string;
  /**
   * Trust the workspace for this engine's life without storing it: the CLI run in a folder (the
   * way Claude Code's headless `-p` skips the trust dialog: running it there is the user's act).
   */
  cliTrust?: boolean;
  /** The catalog's current list (the workspace's skills and what they shadow). */
  skills: () => SkillSummary[];
  events?: EngineEvents;
}

/**
 * The open workspace's trust and its per-workspace skill switches (what-users-ask §14). Until
 * the folder is trusted, its own skills run only after asking (scriptAttempt.ts); a skill turned
 * off here is never routed to here (routing/service.ts).
 */
export class WorkspaceScope {
  readonly store: WorkspaceStore;
  readonly path: string;

  constructor(private readonly deps: ScopeDeps) {
    this.store = WorkspaceStore.at(deps.home);
    this.path = folderKey(deps.workspace);
  }

  /** The user trusts the open workspace (stored, or the CLI's own folder). */
  trusted(): boolean {
    return this.deps.cliTrust === true || this.store.trustedAt(this.path) !== undefined;
  }

  /** The folder whose skills must ask first, or undefined when the workspace is trusted. */
  untrustedFolder(): string | undefined {
    return this.trusted() ? undefined : this.path;
  }

  /** Skill names turned off in this workspace. */
  disabled(): string[] {
    return this.store.disabled(this.path);
  }

  status(): WorkspaceStatus {
    const all = this.deps.skills();
    const byId = new Map(all.map((s) => [s.id, s]));
    const own = all.filter((s) => s.source === 'workspace');
    const shadowing = own
      .filter((s) =>
        s.shadows.some((id) => ['bundled', 'user', 'managed'].includes(byId.get(id)?.source ?? '')),
      )
      .map((s) => s.name);
    const storedAt = this.store.trustedAt(this.path);
    return {
      path: this.path,
      trusted: this.trusted(),
      trusted_by: storedAt ? 'stored' : this.deps.cliTrust ? 'cli' : null,
      trusted_at: storedAt ?? null,
      skills: own.map((s) => s.id),
      shadowing: [...new Set(shadowing)].sort(),
      disabled: this.disabled(),
    };
  }

  /**
   * Trust the open workspace. Only the folder this window shows can be trusted from it: a
   * request naming any other folder (a hostile page, a stale window) is refused.
   */
  trust(folder: string): WorkspaceStatus {
    if (folderKey(folder) !== this.path)
      throw forbidden(
        `Only the open workspace (${this.path}) can be trusted here; to trust another folder, open it, or run \`skilldeck trust DIR\` in a terminal.`,
      );
    this.store.trust(this.path);
    return this.changed();
  }

  /** Take back a folder's trust (the open one, or one Settings lists). */
  untrust(folder: string): { revoked: boolean; folders: TrustedFolder[] } {
    const revoked = this.store.untrust(folder);
    if (revoked && folderKey(folder) === this.path) this.changed();
    return { revoked, folders: this.store.trusted() };
  }

  trustedFolders(): TrustedFolder[] {
    return this.store.trusted();
  }

  /** Turn a skill off (or on again) in this workspace only. */
  setSkillEnabled(name: string, enabled: boolean): WorkspaceStatus {
    this.store.setEnabled(this.path, name, enabled);
    return this.changed();
  }

  private changed(): WorkspaceStatus {
    const status = this.status();
    this.deps.events?.emit('workspace.changed', status);
    return status;
  }
}
