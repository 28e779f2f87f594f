import type { ModelStatus } from '../../../../../shared/contract';
import { InfoIcon } from '../../../ui/icons';

/** DESIGN §4: the environment configures the model when no provider is chosen; say which wins. */
export function EnvNote({ model }: { model: ModelStatus }) {
  if (model.source === 'env') {
    return (
      <div className="callout callout--info" data-testid="model-env-note">
        <InfoIcon size={14} />
        <span>
          Configured by the environment: <code>OPENAI_BASE_URL</code> {model.env.baseURL ?? '(OpenAI)'}
          {model.env.model && (
            <>
              , <code>SKILLDECK_MODEL</code> {model.env.model}
            </>
          )}
          . Choose a provider here to use something else.
        </span>
      </div>
    );
  }
  if (model.source === 'settings' && model.env.configures) {
    return (
      <p className="field__hint" data-testid="model-env-note">
        The environment’s <code>OPENAI_BASE_URL</code> / <code>SKILLDECK_MODEL</code> are ignored while a
        provider is chosen here.
      </p>
    );
  }
  return null;
}
