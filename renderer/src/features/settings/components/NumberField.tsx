import { useState } from 'react';

interface NumberFieldProps {
  value: number;
  min: number;
  max: number;
  step: number;
  label: string;
  onChange: (value: number) => void;
  testId: string;
}

/** A number input that lets a half-typed value (`0.`) stand until it parses, then commits it. */
export function NumberField({ value, min, max, step, label, onChange, testId }: NumberFieldProps) {
  const [text, setText] = useState<string | null>(null);
  const decimals = step < 1 ? 2 : 0;
  const parse = (raw: string): number | null => {
    const parsed = Number(raw);
    return raw.trim() !== '' && Number.isFinite(parsed) && parsed >= min && parsed <= max ? parsed : null;
  };
  const invalid = text !== null && parse(text) === null;
  return (
    <input
      className={`number-field${invalid ? ' is-invalid' : ''}`}
      aria-invalid={invalid}
      title={invalid ? `Between ${min} and ${max}` : undefined}
      type="number"
      inputMode="decimal"
      min={min}
      max={max}
      step={step}
      aria-label={label}
      value={text ?? value.toFixed(decimals)}
      onChange={(event) => {
        setText(event.target.value);
        const parsed = parse(event.target.value);
        if (parsed !== null) onChange(step < 1 ? parsed : Math.round(parsed));
      }}
      onBlur={() => setText(null)}
      data-testid={testId}
    />
  );
}
