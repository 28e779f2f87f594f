import type { ReactNode } from 'react';

interface PlaceholderProps {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  tone?: 'muted' | 'error';
  testId?: string;
}

/** A centered message for empty, loading and failed panes. */
export function Placeholder({ icon, title, children, tone = 'muted', testId }: PlaceholderProps) {
  return (
    <div className={`placeholder placeholder--${tone}`} data-testid={testId}>
      {icon && <div className="placeholder__icon">{icon}</div>}
      <div className="placeholder__title">{title}</div>
      {children && <div className="placeholder__body">{children}</div>}
    </div>
  );
}
