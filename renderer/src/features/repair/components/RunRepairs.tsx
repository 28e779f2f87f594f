import { useShallow } from 'zustand/react/shallow';
import { ChevronIcon } from '../../../ui/icons';
import { repairEnded, repairsOf, reviewHash } from '../model';
import { useRepairStore } from '../store';
import { RepairSteps } from './RepairSteps';

const NONE: never[] = [];

/** The repairs of one run, in the run's timeline section, each leading to its review. */
export function RunRepairs({ runId }: { runId: string }) {
  const transitions = useRepairStore(useShallow((s) => s.transitions[runId] ?? NONE));
  const repairs = repairsOf(transitions);
  if (repairs.length === 0) return null;
  return (
    <div className="run-repairs" data-testid="run-repairs">
      {repairs.map(({ repairId, steps }) => (
        <div key={repairId} className="run-repairs__one" data-repair-id={repairId}>
          <RepairSteps steps={steps} running={!repairEnded(steps)} />
          <a
            className="link-button run-repairs__open"
            href={reviewHash(runId, repairId)}
            data-testid="repair-review-link"
          >
            Review this repair <ChevronIcon size={11} />
          </a>
        </div>
      ))}
    </div>
  );
}
