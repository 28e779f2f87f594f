import type { ModelStatus } from '../../../../../shared/contract';
import { ModelSettingsPatch } from '../../../../../shared/contract';
import { useModelsStore } from '../store';
import { CommitInput } from './CommitInput';

/** The contract's own rule (10 to 300 whole seconds) and its words, checked before anything is sent. */
const problemOf = (text: string): string | null => {
  const parsed = ModelSettingsPatch.safeParse({ stallSeconds: /^\d+$/.test(text) ? Number(text) : NaN });
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Enter whole seconds from 10 to 300.');
};

/** Settings → Model → Silence limit: how long a model may send nothing before its step ends. */
export function StallField({ model }: { model: ModelStatus }) {
  const update = useModelsStore((s) => s.update);
  const fromEnv = model.env.stallSeconds;
  return (
    <div className="model-field__control">
      <div className="model-field__inline model-stall">
        <CommitInput
          id="model-stall"
          className="field__input model-stall__input"
          inputMode="numeric"
          value={String(fromEnv ?? model.settings.stallSeconds)}
          disabled={fromEnv !== null}
          validate={problemOf}
          onCommit={(value) => void update({ stallSeconds: Number(value) })}
          testId="model-stall"
        />
        <span className="muted">seconds</span>
      </div>
      {fromEnv !== null && (
        <span className="field__hint" data-testid="model-stall-env">
          Set by <code>SKILLDECK_MODEL_STALL_SECONDS</code>; unset it to use this field.
        </span>
      )}
    </div>
  );
}
