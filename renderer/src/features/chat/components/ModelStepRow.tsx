import type { ChatStep } from '../../../../../shared/contract';
import { Spinner } from '../../../ui/Spinner';
import { SparkIcon } from '../../../ui/icons';

/**
 * One model round: compact, it only marks where the model spoke between tool calls. `errorShown`:
 * the turn's notice says its error, so the row does not say it again.
 */
export function ModelStepRow({ step, errorShown = false }: { step: ChatStep; errorShown?: boolean }) {
  return (
    <div className={`model-step is-${step.status}`} data-testid="model-step" data-status={step.status}>
      <SparkIcon size={12} />
      <span className="model-step__name">{step.name}</span>
      {step.status === 'running' ? <Spinner label="The model is answering" /> : <span>{step.status}</span>}
      {step.error && !errorShown && <span className="model-step__error">{step.error}</span>}
    </div>
  );
}
