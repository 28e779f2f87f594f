import { Badge } from '../../../ui/Badge';
import { ErrorIcon, WarningIcon } from '../../../ui/icons';
import { plural } from '../../../lib/format';

interface ProblemIndicatorProps {
  errors: number;
  warnings: number;
  /** Show "2 errors" rather than just "2". */
  verbose?: boolean;
}

export function ProblemIndicator({ errors, warnings, verbose = false }: ProblemIndicatorProps) {
  if (errors + warnings === 0) return null;
  return (
    <span
      className="problem-indicator"
      data-testid="problem-indicator"
      data-errors={errors}
      data-warnings={warnings}
    >
      {errors > 0 && (
        <Badge tone="red" icon={<ErrorIcon size={12} />} title={plural(errors, 'error')}>
          {verbose ? plural(errors, 'error') : errors}
        </Badge>
      )}
      {warnings > 0 && (
        <Badge tone="amber" icon={<WarningIcon size={12} />} title={plural(warnings, 'warning')}>
          {verbose ? plural(warnings, 'warning') : warnings}
        </Badge>
      )}
    </span>
  );
}
