import type { InstallCandidate, SandboxTier } from '../../../../../shared/contract';
import { CheckIcon, ShieldIcon, WarningIcon } from '../../../ui/icons';
import { CapabilityList } from './CapabilityList';

const TIERS: Record<SandboxTier, { label: string; note: string; enforced: boolean }> = {
  bwrap: {
    label: 'bubblewrap sandbox',
    note: 'When its scripts run, file and network rules are enforced; everything else is read-only or hidden.',
    enforced: true,
  },
  seatbelt: {
    label: 'macOS sandbox-exec',
    note: 'When its scripts run, file and network rules are enforced by the OS sandbox.',
    enforced: true,
  },
  process: {
    label: 'process isolation only',
    note: 'This machine has no OS sandbox: file and network rules are not enforced. You approve every run.',
    enforced: false,
  },
};

/** The permission sheet: what the skill declares it will do, and how strongly this machine holds it to that. */
export function CapabilitySheet({ candidate }: { candidate: InstallCandidate }) {
  const tier = TIERS[candidate.sandboxTier];
  return (
    <section
      className="sheet capabilities"
      data-testid="install-capabilities"
      aria-label="What it will be able to do"
    >
      <h3 className="sheet__title">What it will be able to do</h3>
      {candidate.capabilities.length === 0 ? (
        <p className="capabilities__none" data-testid="capability-none">
          <CheckIcon size={15} />
          Declares no scripts, file writes, network or environment access: instructions for the model only.
        </p>
      ) : (
        <CapabilityList lines={candidate.capabilities} />
      )}
      <div
        className={`sandbox-tier${tier.enforced ? '' : ' is-weak'}`}
        data-testid="install-sandbox"
        data-tier={candidate.sandboxTier}
      >
        {tier.enforced ? <ShieldIcon size={15} /> : <WarningIcon size={15} />}
        <span>
          <strong>Sandbox here: {tier.label}.</strong> {tier.note}
        </span>
      </div>
    </section>
  );
}
