import type { CSSProperties, ReactNode } from 'react';
import { NumberField } from './NumberField';

interface SliderRowProps {
  label: ReactNode;
  description: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange: (value: number) => void;
  /** `setting-threshold` → the number input; `setting-threshold-range` → the slider. */
  testId: string;
  /** Fill colour of the slider (a factor's colour). */
  accent?: string;
}

export function SliderRow({
  label,
  description,
  value,
  min,
  max,
  step,
  onChange,
  testId,
  accent,
}: SliderRowProps) {
  const name = typeof label === 'string' ? label : testId;
  return (
    <div className="slider-row" data-testid={`${testId}-row`}>
      <div className="slider-row__text">
        <span className="slider-row__label">{label}</span>
        <span className="slider-row__desc">{description}</span>
      </div>
      <input
        className="slider-row__range"
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        aria-label={name}
        style={
          {
            '--fill': `${((value - min) / (max - min)) * 100}%`,
            ...(accent && { '--slider': accent }),
          } as CSSProperties
        }
        onChange={(event) => onChange(Number(event.target.value))}
        data-testid={`${testId}-range`}
      />
      <NumberField
        value={value}
        min={min}
        max={max}
        step={step}
        label={name}
        onChange={onChange}
        testId={testId}
      />
    </div>
  );
}
