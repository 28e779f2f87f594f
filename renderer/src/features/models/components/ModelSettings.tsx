import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { WarningIcon } from '../../../ui/icons';
import { useModelsStore } from '../store';
import { ApiKeyField } from './ApiKeyField';
import { CommitInput } from './CommitInput';
import { BaseUrlField } from './BaseUrlField';
import { ConnectionTest } from './ConnectionTest';
import { EnvNote } from './EnvNote';
import { ModelField } from './ModelField';
import { ModelRow as Row } from './ModelRow';
import { ProviderSelect } from './ProviderSelect';
import { StallField } from './StallField';
import '../models.css';

/** Settings → Model (issue 8): provider, endpoint, model, key and a connection test. */
export function ModelSettings() {
  const { model, error, start, update } = useModelsStore(
    useShallow((s) => ({ model: s.model, error: s.error, start: s.start, update: s.update })),
  );
  useEffect(start, [start]);
  if (!model) return null;
  const provider = model.settings.provider;
  const showEndpointFields = provider !== null || model.source === 'env';

  return (
    <section
      className="settings-card"
      id="model-settings"
      aria-labelledby="model-settings-title"
      data-testid="model-settings"
    >
      <header className="settings-card__header">
        <div>
          <h2 id="model-settings-title">Model</h2>
          <p className="muted">
            Instruction skills and plain chat run on this model. Routing, script and direct skills work
            without one.
          </p>
        </div>
      </header>
      <EnvNote model={model} />
      <div className="settings-card__group">
        <Row label="Provider" htmlFor="model-provider">
          <ProviderSelect model={model} />
        </Row>
        {provider === 'openai-compatible' && (
          <Row label="Base URL" htmlFor="model-base-url" hint="The server’s /v1 endpoint.">
            <BaseUrlField baseURL={model.settings.baseURL} />
          </Row>
        )}
        {provider !== null && (
          <Row label="Model" htmlFor="model-id">
            <ModelField model={model} />
          </Row>
        )}
        {(provider === 'openai' || provider === 'openai-compatible') && (
          <Row label="Embedding model" htmlFor="model-embedding" hint="Optional: semantic recall.">
            <div className="model-field__control">
              <CommitInput
                id="model-embedding"
                value={model.settings.embeddingModel ?? ''}
                placeholder={provider === 'openai' ? 'text-embedding-3-small' : 'nomic-embed-text'}
                onCommit={(value) => void update({ embeddingModel: value || null })}
                testId="model-embedding"
              />
            </div>
          </Row>
        )}
        {showEndpointFields && (
          <Row label="API key" htmlFor="model-key">
            <ApiKeyField model={model} />
          </Row>
        )}
        {showEndpointFields && (
          <Row
            label="Unsure routes"
            htmlFor="model-arbiter"
            hint="Optional: one more request on such messages."
          >
            <label className="model-field__control model-check">
              <input
                id="model-arbiter"
                type="checkbox"
                checked={model.settings.arbiter}
                onChange={(e) => void update({ arbiter: e.target.checked })}
                data-testid="model-arbiter"
              />
              Ask the model which skill fits before it answers
            </label>
          </Row>
        )}
        {showEndpointFields && (
          <Row
            label="Silence limit"
            htmlFor="model-stall"
            hint="How long to wait for a model that sends nothing."
          >
            <StallField model={model} />
          </Row>
        )}
      </div>
      {(model.problem || error) && (
        <p className="model-problem" data-testid="model-problem">
          <WarningIcon size={13} /> {error ?? model.problem}
        </p>
      )}
      {showEndpointFields && <ConnectionTest disabled={!model.effective || model.problem !== null} />}
    </section>
  );
}
