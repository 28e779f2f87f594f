import type { RepairTransition } from '../../../../../shared/contract';
import { formatDuration } from '../../runs/model';
import { REPAIR_STATE_LABELS } from '../model';

/**
 * A repair's state machine (routing spec §12) as steps that continue the run timeline: the
 * same dots and spacing, each step with its detail and the time spent before it.
 */
export function RepairSteps({ steps, running }: { steps: RepairTransition[]; running: boolean }) {
  return (
    <ol className="timeline repair-steps" aria-label="Repair steps" data-testid="repair-timeline">
      {steps.map((t, i) => {
        // A transition carries the time spent in the state before it: a step's own time is the next one's.
        const took = steps[i + 1]?.duration_ms;
        return (
          <li
            key={`${t.repair_id}:${t.seq}`}
            className={`timeline__step timeline__step--repair timeline__step--repair-${t.state}`}
            data-testid="repair-step"
            data-state={t.state}
            data-repair-id={t.repair_id}
          >
            <span className="timeline__dot" aria-hidden="true" />
            <div className="timeline__body">
              <div className="timeline__head">
                <strong className="timeline__state">{REPAIR_STATE_LABELS[t.state]}</strong>
                {t.attempt !== null && <span className="timeline__skill">attempt {t.attempt}</span>}
              </div>
              <p className="timeline__detail">{t.detail}</p>
              {took !== undefined && <span className="timeline__duration">took {formatDuration(took)}</span>}
            </div>
          </li>
        );
      })}
      {running && (
        <li className="timeline__step timeline__step--end" data-testid="repair-running">
          <span className="timeline__dot" aria-hidden="true" />
          <div className="timeline__body">
            <span className="timeline__detail">working…</span>
          </div>
        </li>
      )}
    </ol>
  );
}
