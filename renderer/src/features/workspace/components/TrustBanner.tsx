import { useShallow } from 'zustand/react/shallow';
import { plural } from '../../../lib/format';
import { ShieldIcon } from '../../../ui/icons';
import { useSkillsStore } from '../../skills/store';
import { useWorkspaceStore } from '../store';
import '../workspace.css';

/**
 * The folder-trust banner (what-users-ask §14; VS Code workspace trust, Claude Code's trust
 * dialog): shown while the open workspace ships skills the user has not trusted.
 */
export function TrustBanner() {
  const { status, busy, error, dismissed, trust, dismiss } = useWorkspaceStore(
    useShallow((s) => ({
      status: s.status,
      busy: s.busy,
      error: s.error,
      dismissed: s.dismissed,
      trust: s.trust,
      dismiss: s.dismiss,
    })),
  );
  const showOnly = useSkillsStore((s) => s.showSource);
  if (!status || status.trusted || status.skills.length === 0 || dismissed) return null;
  const review = () => {
    showOnly('workspace');
    location.hash = '#skills';
  };
  return (
    <div className="banner" role="region" aria-label="Workspace trust" data-testid="trust-banner">
      <ShieldIcon size={16} />
      <div className="banner__text">
        <strong>Do you trust this folder?</strong>{' '}
        <code className="trust-banner__path" data-testid="trust-banner-path">
          {status.path}
        </code>{' '}
        ships {plural(status.skills.length, 'skill')} of its own. Until you trust it, each asks before it
        runs, even one that declares <code>approval: auto</code>.
        {status.shadowing.length > 0 && (
          <span className="trust-banner__shadowing" data-testid="trust-banner-shadowing">
            {' '}
            It replaces {status.shadowing.length === 1 ? 'a skill' : 'skills'} of yours with the same name:{' '}
            {status.shadowing.map((name, i) => (
              <span key={name}>
                {i > 0 && ', '}
                <code>{name}</code>
              </span>
            ))}
            .
          </span>
        )}
        {error && (
          <span className="banner__error" role="alert">
            {' '}
            {error}
          </span>
        )}
      </div>
      <div className="banner__actions">
        <button type="button" className="button button--small" onClick={review} data-testid="trust-review">
          Review its skills
        </button>
        <button
          type="button"
          className="button button--small button--primary"
          onClick={() => void trust()}
          disabled={busy}
          data-testid="trust-folder"
        >
          {busy ? 'Trusting…' : 'Trust this folder'}
        </button>
        <button
          type="button"
          className="button button--small button--quiet"
          onClick={dismiss}
          title="Hide this banner for now; the folder stays untrusted"
          data-testid="trust-dismiss"
        >
          Not now
        </button>
      </div>
    </div>
  );
}
