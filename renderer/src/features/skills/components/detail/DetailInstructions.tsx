import type { SkillDetail } from '../../../../../../shared/contract';
import { InstructionFindings } from '../../../../ui/InstructionFindings';
import { useSkillsStore } from '../../store';

/**
 * The install preview's instruction scan, for any listed skill: one read from a shared folder or
 * installed before the scan existed never passed the preview. Nothing to confirm here.
 */
export function DetailInstructions({ detail }: { detail: SkillDetail }) {
  const setTab = useSkillsStore((s) => s.setTab);
  return (
    <InstructionFindings
      findings={detail.instructions}
      title="What its instructions ask the agent to do"
      testId="detail-instructions"
    >
      <p className="detail-instructions__note">
        An agent that uses this skill reads these lines as instructions.{' '}
        <button type="button" className="link-button" onClick={() => setTab('availability')}>
          Turn it off
        </button>{' '}
        until you trust them.
      </p>
    </InstructionFindings>
  );
}
