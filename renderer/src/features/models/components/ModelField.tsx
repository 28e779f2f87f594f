import { useShallow } from 'zustand/react/shallow';
import type { ModelStatus } from '../../../../../shared/contract';
import { RefreshIcon } from '../../../ui/icons';
import { targetOf, useModelsStore } from '../store';
import { CommitInput } from './CommitInput';

const PLACEHOLDERS = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-sonnet-4-5',
  'openai-compatible': 'the server’s first model',
} as const;

/** A combobox: the provider's list as suggestions, any id typed by hand. */
export function ModelField({ model }: { model: ModelStatus }) {
  const { available, update, refreshModels } = useModelsStore(
    useShallow((s) => ({ available: s.available, update: s.update, refreshModels: s.refreshModels })),
  );
  const current = available.target === targetOf(model) ? available : null;
  const ids = current?.ids ?? [];
  const provider = model.effective?.provider ?? model.settings.provider ?? 'openai-compatible';
  const hint = current?.loading
    ? 'Asking the provider for its models…'
    : ids.length > 0
      ? `${ids.length} model${ids.length === 1 ? '' : 's'} from the provider; or type any id.`
      : (current?.message ?? 'Type the model id.');
  return (
    <div className="model-field__control">
      <div className="model-field__inline">
        <CommitInput
          id="model-id"
          list="model-options"
          value={model.settings.model ?? ''}
          placeholder={PLACEHOLDERS[provider]}
          commitOn={ids}
          onCommit={(value) => void update({ model: value || null })}
          testId="model-id"
        />
        <button
          type="button"
          className={`icon-button icon-button--bordered${current?.loading ? ' is-spinning' : ''}`}
          title="Refresh the model list"
          aria-label="Refresh the model list"
          disabled={!model.canListModels || current?.loading}
          onClick={refreshModels}
          data-testid="model-list-refresh"
        >
          <RefreshIcon size={14} />
        </button>
      </div>
      <datalist id="model-options" data-testid="model-options">
        {ids.map((id) => (
          <option key={id} value={id} />
        ))}
      </datalist>
      <span className="field__hint" data-testid="model-list-hint" data-count={ids.length}>
        {hint}
      </span>
    </div>
  );
}
