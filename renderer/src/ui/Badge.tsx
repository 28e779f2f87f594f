import type { ReactNode } from 'react';

export type Tone = 'neutral' | 'accent' | 'red' | 'amber' | 'green' | 'blue' | 'violet' | 'teal' | 'orange';

interface BadgeProps {
  tone?: Tone;
  icon?: ReactNode;
  title?: string;
  /** Outlined badges for secondary facts, so tinted ones stand out. */
  variant?: 'soft' | 'outline';
  children: ReactNode;
  testId?: string;
}

export function Badge({ tone = 'neutral', icon, title, variant = 'soft', children, testId }: BadgeProps) {
  return (
    <span className={`badge badge--${variant} tone-${tone}`} title={title} data-testid={testId}>
      {icon}
      <span className="badge__label">{children}</span>
    </span>
  );
}
