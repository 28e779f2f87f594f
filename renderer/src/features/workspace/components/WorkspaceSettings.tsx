import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useWorkspaceStore } from '../store';
import '../workspace.css';

const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Settings → Workspaces: the trusted folders, each revocable, and the skills off in this folder. */
export function WorkspaceSettings() {
  const { status, folders, busy, error, loadFolders, untrust, setSkillEnabled } = useWorkspaceStore(
    useShallow((s) => ({
      status: s.status,
      folders: s.folders,
      busy: s.busy,
      error: s.error,
      loadFolders: s.loadFolders,
      untrust: s.untrust,
      setSkillEnabled: s.setSkillEnabled,
    })),
  );
  useEffect(() => void loadFolders(), [loadFolders]);

  return (
    <section className="settings-card" aria-labelledby="workspaces-title" data-testid="workspace-settings">
      <header className="settings-card__header">
        <div>
          <h2 id="workspaces-title">Workspaces</h2>
          <p className="muted">
            Folders you trust: the skills in their <code>skills/</code>, <code>.claude/skills</code> and{' '}
            <code>.agents/skills</code> run as they declare. In any other folder they ask before every run.
          </p>
        </div>
      </header>
      {error && (
        <p className="callout callout--error" role="alert">
          {error}
        </p>
      )}
      {folders.length === 0 ? (
        <p className="grants__empty" data-testid="trusted-empty">
          No folder is trusted.
        </p>
      ) : (
        <ul className="trusted-folders" data-testid="trusted-folders">
          {folders.map((folder) => (
            <li
              key={folder.path}
              className="trusted-folder"
              data-testid="trusted-folder"
              data-path={folder.path}
            >
              <div className="trusted-folder__main">
                <code>{folder.path}</code>
                <span className="trusted-folder__meta">
                  trusted {date.format(new Date(folder.trusted_at))}
                  {folder.path === status?.path ? ' · the open workspace' : ''}
                </span>
              </div>
              <button
                type="button"
                className="button button--small"
                disabled={busy}
                onClick={() => void untrust(folder.path)}
                aria-label={`Stop trusting ${folder.path}`}
                data-testid="trusted-revoke"
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      {status && status.disabled.length > 0 && (
        <div className="workspace-off" data-testid="workspace-off-list">
          <h3 className="approval-section__title">Turned off in this workspace</h3>
          <ul className="trusted-folders">
            {status.disabled.map((name) => (
              <li key={name} className="trusted-folder">
                <div className="trusted-folder__main">
                  <code>{name}</code>
                </div>
                <button
                  type="button"
                  className="button button--small"
                  disabled={busy}
                  onClick={() => void setSkillEnabled(name, true)}
                  data-testid="workspace-on"
                >
                  Turn on here
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
