import type { ModelProvider, ModelStatus } from '../../../../../shared/contract';
import { useModelsStore } from '../store';

const OPTIONS: Array<{ value: ModelProvider; label: string }> = [
  { value: 'openai', label: 'OpenAI' },
  { value: 'anthropic', label: 'Anthropic' },
  { value: 'openai-compatible', label: 'OpenAI-compatible server' },
];

/** Switching provider clears the model and base URL: an id or URL of one provider means nothing to another. */
export function ProviderSelect({ model }: { model: ModelStatus }) {
  const update = useModelsStore((s) => s.update);
  const noneLabel = model.env.configures ? 'None here (use the environment)' : 'None';
  return (
    <select
      className="field__input model-select"
      id="model-provider"
      value={model.settings.provider ?? ''}
      onChange={(event) => {
        const provider = (event.target.value || null) as ModelProvider | null;
        void update({ provider, baseURL: null, model: null });
      }}
      data-testid="model-provider"
    >
      <option value="">{noneLabel}</option>
      {OPTIONS.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}
