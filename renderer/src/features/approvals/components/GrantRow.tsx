import type { ApprovalGrant } from '../../../../../shared/contract';
import { shortHash } from '../queue';

const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const EXTRA_LABELS = { write: 'may also write', read: 'may also read', network: 'may also reach' } as const;

interface GrantRowProps {
  grant: ApprovalGrant;
  revoking: boolean;
  onRevoke: () => void;
}

export function GrantRow({ grant, revoking, onRevoke }: GrantRowProps) {
  const extras = (['write', 'read', 'network'] as const).filter((k) => grant.extra[k].length > 0);
  return (
    <li className="grant" data-testid="grant" data-skill={grant.skill}>
      <div className="grant__main">
        <div className="grant__title">
          <strong>{grant.skill}</strong>
          <span className="grant__meta">
            since {date.format(new Date(grant.granted_at))} · content{' '}
            <code title={grant.content_hash}>{shortHash(grant.content_hash)}</code>
          </span>
        </div>
        {grant.summary.length > 0 && <p className="grant__summary">{grant.summary.join(' · ')}</p>}
        {extras.map((kind) => (
          <p key={kind} className="grant__extra" data-testid="grant-extra">
            {EXTRA_LABELS[kind]}{' '}
            {grant.extra[kind].map((p) => (
              <code key={p}>{p}</code>
            ))}
          </p>
        ))}
      </div>
      <button
        type="button"
        className="button button--small"
        onClick={onRevoke}
        disabled={revoking}
        aria-label={`Revoke the always-allow grant of ${grant.skill}`}
        data-testid="grant-revoke"
      >
        {revoking ? 'Revoking…' : 'Revoke'}
      </button>
    </li>
  );
}
