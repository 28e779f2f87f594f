import type { RouteCandidate } from '../../../../../shared/contract';
import { barScale, weightSum } from '../factors';
import { CandidateRow } from './CandidateRow';
import { ThresholdAxis } from './ThresholdAxis';

interface CandidateListProps {
  selected: RouteCandidate[];
  misses: RouteCandidate[];
  threshold: number;
  primaryId: string | null;
  /** The below-T candidate the model ran when the router chose none. */
  chosenId?: string | null;
}

/** Selected candidates first; near-misses and the ones kept out below a divider, dimmed. */
export function CandidateList({ selected, misses, threshold, primaryId, chosenId }: CandidateListProps) {
  const first = selected[0] ?? misses[0];
  const scale = first ? barScale(weightSum(first.factors)) : 1;
  return (
    <ol className="candidate-list" data-testid="candidate-list">
      <li className="candidate-list__axis" aria-hidden="true">
        <ThresholdAxis threshold={threshold} scale={scale} />
      </li>
      {selected.map((c) => (
        <CandidateRow key={c.id} candidate={c} threshold={threshold} primary={c.id === primaryId} />
      ))}
      {misses.length > 0 && (
        <li className="candidate-list__divider" aria-hidden="true">
          <span>Not selected</span>
        </li>
      )}
      {misses.map((c) => (
        <CandidateRow
          key={c.id}
          candidate={c}
          threshold={threshold}
          primary={false}
          chosenByModel={c.id === chosenId}
        />
      ))}
    </ol>
  );
}
