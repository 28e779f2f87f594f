import type { ApprovalRequest } from '../../../../../shared/contract';
import { ShieldIcon } from '../../../ui/icons';
import '../../workspace/workspace.css';

/** Why a skill of an untrusted workspace asks though it may declare `approval: auto` (what-users-ask §14). */
export function UntrustedNote({ request }: { request: ApprovalRequest }) {
  if (!request.untrusted_workspace) return null;
  return (
    <div className="workspace-trust-note" role="note" data-testid="approval-untrusted">
      <ShieldIcon size={16} />
      <span>
        <strong>{request.skill}</strong> came with the folder <code>{request.untrusted_workspace}</code>,
        which you have not trusted, so it asks before it runs, even if it declares <code>approval: auto</code>
        . Trust the folder (the banner at the top) to let its skills run as they declare.
      </span>
    </div>
  );
}
