import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ModelStatus } from '../../../../../shared/contract';
import { CheckIcon, KeyIcon } from '../../../ui/icons';
import { useModelsStore } from '../store';

const STORAGE = {
  keychain: 'in the system keychain',
  file: 'in a file only you can read (mode 0600)',
} as const;

/** Write-only: the key goes to the engine and is forgotten here; the engine never sends it back. */
export function ApiKeyField({ model }: { model: ModelStatus }) {
  const { setKey, clearKey, saving } = useModelsStore(
    useShallow((s) => ({ setKey: s.setKey, clearKey: s.clearKey, saving: s.saving })),
  );
  const [draft, setDraft] = useState('');
  const save = async () => {
    if (draft.trim() && (await setKey(draft.trim()))) setDraft('');
  };
  const optional = model.effective?.provider === 'openai-compatible';
  return (
    <div className="model-field__control">
      {model.hasKey && (
        <div className="model-key-state" data-testid="model-key-state" data-source={model.keySource}>
          {model.keySource === 'env' ? (
            <span>
              <KeyIcon size={13} />
              <span>
                From <code>{model.keyEnv}</code> in the environment: used as is, never stored
              </span>
            </span>
          ) : (
            <>
              <span>
                <CheckIcon size={13} />
                <span>Key stored {STORAGE[model.keyStorage]}</span>
              </span>
              <button
                type="button"
                className="button button--small button--quiet"
                onClick={() => void clearKey()}
                disabled={saving}
                data-testid="model-key-clear"
              >
                Clear
              </button>
            </>
          )}
        </div>
      )}
      <form
        className="model-field__inline"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <input
          id="model-key"
          className="field__input"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={draft}
          placeholder={model.keySource === 'stored' ? 'Enter a new key to replace it' : 'sk-…'}
          disabled={!model.effective}
          onChange={(event) => setDraft(event.target.value)}
          data-testid="model-key"
        />
        <button
          type="submit"
          className="button"
          disabled={!draft.trim() || saving || !model.effective}
          data-testid="model-key-save"
        >
          Save key
        </button>
      </form>
      {!model.hasKey && (
        <span className="field__hint">
          {optional
            ? 'Optional: local servers such as Ollama need none.'
            : 'Sent only to this provider; never shown again after saving.'}
        </span>
      )}
    </div>
  );
}
