import type { ReactNode } from 'react';
import { formatCount } from '../../../../lib/format';

interface FilterChipProps {
  active: boolean;
  count: number;
  onToggle: () => void;
  testId: string;
  title?: string;
  icon?: ReactNode;
  children: ReactNode;
}

export function FilterChip({ active, count, onToggle, testId, title, icon, children }: FilterChipProps) {
  return (
    <button
      type="button"
      className={`chip${active ? ' is-active' : ''}${count === 0 && !active ? ' is-empty' : ''}`}
      aria-pressed={active}
      onClick={onToggle}
      title={title}
      data-testid={testId}
      data-count={count}
    >
      {icon}
      <span className="chip__label">{children}</span>
      <span className="chip__count">{formatCount(count)}</span>
    </button>
  );
}
