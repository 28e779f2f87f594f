import type { CandidateStatus } from '../../../../../shared/contract';
import { Badge } from '../../../ui/Badge';
import { STATUS_META } from '../format';

export function StatusTag({ status }: { status: CandidateStatus }) {
  const meta = STATUS_META[status];
  return (
    <Badge tone={meta.tone} testId="candidate-status">
      {meta.label}
    </Badge>
  );
}
