import type { RunSandbox } from '../../../../../shared/contract';
import { Badge } from '../../../ui/Badge';
import { ShieldIcon, WarningIcon } from '../../../ui/icons';
import { TIERS } from '../../approvals/tiers';

/**
 * Which sandbox tier a step used (DESIGN §4: the UI always says which one ran), in the words
 * the approval dialog and the Runs view use. A run that executed nothing has no tier on its
 * card (chat/instruction.ts `ranIn`); turns kept from before may still say `none` for one, so
 * its title says both.
 */
export function SandboxBadge({ sandbox }: { sandbox: RunSandbox }) {
  const tier = TIERS[sandbox];
  const none = sandbox === 'none';
  return (
    <span data-testid="sandbox-tier" data-sandbox={sandbox}>
      <Badge
        tone={none ? 'neutral' : tier.tone}
        variant="outline"
        icon={tier.enforced ? <ShieldIcon size={11} /> : <WarningIcon size={11} />}
        title={
          none ? 'No command ran in a sandbox: none ran, or the skill asked to run without one' : tier.explain
        }
      >
        {none ? 'no sandbox' : tier.label}
      </Badge>
    </span>
  );
}
