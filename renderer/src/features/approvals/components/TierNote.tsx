import type { ApprovalRequest } from '../../../../../shared/contract';
import { ShieldIcon, WarningIcon } from '../../../ui/icons';
import { TIERS } from '../tiers';

/**
 * The sandbox that will hold the command. When it cannot enforce some rules here, one loud
 * warning lists them (DESIGN §4: never a silent downgrade; what-users-ask #12).
 */
export function TierNote({ request }: { request: ApprovalRequest }) {
  const tier = TIERS[request.sandbox];
  if (request.unenforced.length > 0) {
    return (
      <div
        className="approval-warning"
        role="note"
        data-testid="approval-sandbox"
        data-tier={request.sandbox}
        data-enforced="false"
      >
        <WarningIcon size={16} />
        <div>
          <strong>Sandbox: {tier.label}. Not enforced on this machine:</strong>
          <ul data-testid="approval-unenforced">
            {request.unenforced.map((rule) => (
              <li key={rule}>{rule}</li>
            ))}
          </ul>
          <span>
            It runs as you, in its own process group with a clean environment and a time limit. Allow it only
            if you trust this skill.
          </span>
        </div>
      </div>
    );
  }
  return (
    <div
      className={`approval-tier${tier.enforced ? '' : ' is-weak'}`}
      data-testid="approval-sandbox"
      data-tier={request.sandbox}
      data-enforced={tier.enforced}
    >
      {tier.enforced ? <ShieldIcon size={15} /> : <WarningIcon size={15} />}
      <span>
        <strong>Sandbox: {tier.label}.</strong> {tier.explain}
      </span>
    </div>
  );
}
