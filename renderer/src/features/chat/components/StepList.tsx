import type { ChatStep } from '../../../../../shared/contract';
import { ApprovalCard } from './ApprovalCard';
import { ModelStepRow } from './ModelStepRow';
import { ToolCard } from './ToolCard';

/**
 * Everything a turn did, in order: model rounds, tool calls, approvals, skill runs. A lone
 * successful model call is plain chat's only step and says nothing the chip does not.
 */
export function StepList({ steps }: { steps: ChatStep[] }) {
  const visible = steps.filter(
    (s) => s.kind !== 'model' || steps.length > 1 || (s.status !== 'success' && s.status !== 'running'),
  );
  if (visible.length === 0) return null;
  return (
    <ol className="step-list" aria-label="Steps">
      {visible.map((step) => (
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
