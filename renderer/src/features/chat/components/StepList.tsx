import type { ChatStep } from '../../../../../shared/contract';
import { ApprovalCard } from './ApprovalCard';
import { ModelStepRow } from './ModelStepRow';
import { ToolCard } from './ToolCard';

/**
 * Steps a turn took between two stretches of its text, in order: model rounds, tool calls,
 * approvals, skill runs (see answerParts for which are shown).
 */
export function StepList({ steps }: { steps: ChatStep[] }) {
  return (
    <ol className="step-list" aria-label="Steps">
      {steps.map((step) => (
        <li key={step.id}>
          {step.kind === 'approval' ? (
            <ApprovalCard step={step} />
          ) : step.kind === 'model' ? (
            <ModelStepRow step={step} />
          ) : (
            <ToolCard step={step} />
          )}
        </li>
      ))}
    </ol>
  );
}
