import type { RunSandbox } from '../../../../../shared/contract';
import { Badge } from '../../../ui/Badge';
import { ShieldIcon, WarningIcon } from '../../../ui/icons';
import { NOTHING_RAN, TIERS } from '../../approvals/tiers';
import type { Ran } from '../model';

/**
 * The sandbox a run used (DESIGN §4: the window always says which one ran). Nothing is shown
 * before the command starts; `none` without a command means nothing was executed, which is
 * not the same as running unsandboxed.
 */
export function SandboxBadge({ sandbox, ran }: { sandbox: RunSandbox; ran: Ran }) {
  if (ran === 'pending') return null;
  if (ran === 'no')
    return (
      <Badge variant="outline" title="No command was executed" testId="run-sandbox">
        {NOTHING_RAN}
      </Badge>
    );
  // A list row without its record cannot tell the two kinds of `none` apart: say only that.
  if (sandbox === 'none' && ran === 'unknown')
    return (
      <Badge
        variant="outline"
        title="Nothing ran, or the skill asked to run without a sandbox"
        testId="run-sandbox"
      >
        none
      </Badge>
    );
  const tier = TIERS[sandbox];
  return (
    <Badge
      variant="outline"
      tone={tier.tone}
      icon={tier.enforced ? <ShieldIcon size={12} /> : <WarningIcon size={12} />}
      title={tier.explain}
      testId="run-sandbox"
    >
      {tier.label}
    </Badge>
  );
}
