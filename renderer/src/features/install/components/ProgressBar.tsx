import { progressShare } from '../model';

interface ProgressBarProps {
  done: number;
  total: number;
  label: string;
}

/** Determinate when the total is known; an indeterminate sweep while it is not (a clone). */
export function ProgressBar({ done, total, label }: ProgressBarProps) {
  const share = progressShare(done, total);
  return (
    <div
      className={`install-progress${share === null ? ' is-indeterminate' : ''}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={share === null ? undefined : Math.round(share * 100)}
      data-testid="install-progress"
    >
      <div
        className="install-progress__fill"
        style={share === null ? undefined : { width: `${share * 100}%` }}
      />
    </div>
  );
}
