import './switch.css';

interface SwitchProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  /** A short line under the label. */
  hint?: string;
  disabled?: boolean;
  testId?: string;
}

/** An on/off setting that takes effect at once (ARIA switch). */
export function Switch({ checked, onChange, label, hint, disabled, testId }: SwitchProps) {
  return (
    <label className={`switch${disabled ? ' is-disabled' : ''}`}>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        className="switch__track"
        onClick={() => onChange(!checked)}
        disabled={disabled}
        data-testid={testId}
        data-checked={checked}
      >
        <span className="switch__thumb" />
      </button>
      <span className="switch__text">
        <span className="switch__label">{label}</span>
        {hint && <span className="switch__hint">{hint}</span>}
      </span>
    </label>
  );
}
