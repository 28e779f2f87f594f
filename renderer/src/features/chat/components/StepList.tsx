import type { ChatStep } from '../../../../../shared/contract';
import { saidInNotice } from '../turnView';
import { ApprovalCard } from './ApprovalCard';
import { ModelStepRow } from './ModelStepRow';
import { ToolCard } from './ToolCard';

/**
 * Steps a turn took between two stretches of its text, in order: model rounds, tool calls,
 * approvals, skill runs (see answerParts for which are shown). `shownError`: the error the turn's
 * notice shows, which a model step's row then does not repeat.
 */
export function StepList({ steps, shownError = '' }: { steps: ChatStep[]; shownError?: string }) {
  return (
    <ol className="step-list" aria-label="Steps">
      {steps.map((step) => (
        <li key={step.id}>
          {step.kind === 'approval' ? (
            <ApprovalCard step={step} />
          ) : step.kind === 'model' ? (
            <ModelStepRow step={step} errorShown={saidInNotice(step, shownError)} />
          ) : (
            <ToolCard step={step} />
          )}
        </li>
      ))}
    </ol>
  );
}
