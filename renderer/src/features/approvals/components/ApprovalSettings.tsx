import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Spinner } from '../../../ui/Spinner';
import { useApprovalsStore } from '../store';
import { GrantRow } from './GrantRow';
import '../approvals.css';

/** Settings → Approvals: the stored "always allow" grants, each revocable (DESIGN §4). */
export function ApprovalSettings() {
  const { grants, status, error, revoking, loadGrants, revoke } = useApprovalsStore(
    useShallow((s) => ({
      grants: s.grants,
      status: s.grantsStatus,
      error: s.grantsError,
      revoking: s.revoking,
      loadGrants: s.loadGrants,
      revoke: s.revoke,
    })),
  );
  // The list also follows approval.grantsChanged; this load covers what was granted before.
  useEffect(() => void loadGrants(), [loadGrants]);

  return (
    <section className="settings-card" aria-labelledby="approvals-title" data-testid="approval-settings">
      <header className="settings-card__header">
        <div>
          <h2 id="approvals-title">Approvals</h2>
          <p className="muted">
            Skills you always allow. A grant covers one version of a skill as it declared its permissions, and
            its workspace paths in the folder you answered in; once its files change, it asks for more or it
            runs in another folder, it asks again.
          </p>
        </div>
      </header>
      {error && (
        <p className="callout callout--error" role="alert">
          {error}
        </p>
      )}
      {status === 'loading' && grants.length === 0 ? (
        <Spinner label="Loading grants" />
      ) : grants.length === 0 ? (
        <p className="grants__empty" data-testid="grants-empty">
          No skill is always allowed. Choose “Always allow this skill” in an approval request to stop being
          asked for that version.
        </p>
      ) : (
        <ul className="grants" data-testid="grants">
          {grants.map((grant) => (
            <GrantRow
              key={grant.skill}
              grant={grant}
              revoking={revoking === grant.skill}
              onRevoke={() => void revoke(grant.skill)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
