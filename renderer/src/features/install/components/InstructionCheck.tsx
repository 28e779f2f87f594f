import type { InstallCandidate } from '../../../../../shared/contract';
import { InstructionFindings } from '../../../ui/InstructionFindings';
import { useInstallStore } from '../store';

/** The instruction scan before install: a danger finding asks for an explicit "install anyway". */
export function InstructionCheck({ candidate }: { candidate: InstallCandidate }) {
  const accepted = useInstallStore((s) => s.choices[candidate.name]?.acceptDanger ?? false);
  const setChoice = useInstallStore((s) => s.setChoice);
  const danger = candidate.instructions.some((f) => f.severity === 'danger');
  return (
    <InstructionFindings
      findings={candidate.instructions}
      title="What its instructions ask for"
      testId="install-instructions"
    >
      {danger && (
        <label className="instruction-findings__accept">
          <input
            type="checkbox"
            checked={accepted}
            onChange={(event) => setChoice(candidate.name, { acceptDanger: event.target.checked })}
            data-testid="instructions-accept"
          />
          <span>I have read these lines and still want to install “{candidate.name}”.</span>
        </label>
      )}
    </InstructionFindings>
  );
}
