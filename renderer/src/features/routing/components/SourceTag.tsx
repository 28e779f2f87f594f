import type { CandidateSource } from '../../../../../shared/contract';
import { Badge } from '../../../ui/Badge';
import { SOURCE_META } from '../format';

export function SourceTag({ source }: { source: CandidateSource }) {
  const meta = SOURCE_META[source];
  return (
    <Badge tone={meta.tone} variant="outline" title={meta.help} testId="candidate-source">
      {meta.label}
    </Badge>
  );
}
