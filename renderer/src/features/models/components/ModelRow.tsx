import type { ReactNode } from 'react';

interface ModelRowProps {
  label: string;
  htmlFor?: string;
  hint?: string;
  children: ReactNode;
}

/** A label (and hint) on the left, the control on the right, like the routing rows. */
export function ModelRow({ label, htmlFor, hint, children }: ModelRowProps) {
  return (
    <div className="model-row">
      <div className="model-row__text">
        <label className="slider-row__label" htmlFor={htmlFor}>
          {label}
        </label>
        {hint && <span className="slider-row__desc">{hint}</span>}
      </div>
      {children}
    </div>
  );
}
