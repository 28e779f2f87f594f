import { BaseUrl } from '../../../../../shared/contract';
import { useModelsStore } from '../store';
import { CommitInput } from './CommitInput';

/** Where the common local servers and DeepSeek listen by default. */
export const BASE_URL_PRESETS = [
  { name: 'Ollama', url: 'http://127.0.0.1:11434/v1' },
  { name: 'LM Studio', url: 'http://127.0.0.1:1234/v1' },
  { name: 'vLLM', url: 'http://127.0.0.1:8000/v1' },
  { name: 'llama.cpp', url: 'http://127.0.0.1:8080/v1' },
  { name: 'DeepSeek', url: 'https://api.deepseek.com/v1' },
] as const;

const validate = (value: string) => {
  const parsed = BaseUrl.safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Not a URL');
};

export function BaseUrlField({ baseURL }: { baseURL: string | null }) {
  const update = useModelsStore((s) => s.update);
  return (
    <div className="model-field__control">
      <CommitInput
        id="model-base-url"
        value={baseURL ?? ''}
        placeholder="http://127.0.0.1:11434/v1"
        validate={validate}
        onCommit={(value) => void update({ baseURL: value || null })}
        testId="model-base-url"
      />
      <div className="model-presets" role="group" aria-label="Common servers">
        {BASE_URL_PRESETS.map((preset) => (
          <button
            key={preset.name}
            type="button"
            className={`model-preset${baseURL === preset.url ? ' is-active' : ''}`}
            title={preset.url}
            onClick={() => void update({ baseURL: preset.url })}
            data-testid="model-base-url-preset"
            data-preset={preset.name}
          >
            {preset.name}
          </button>
        ))}
      </div>
    </div>
  );
}
