import { useShallow } from 'zustand/react/shallow';
import type { RunTransition } from '../../../../../shared/contract';
import { useNow } from '../../../lib/useNow';
import { describeResolution } from '../../approvals/queue';
import { useApprovalsStore } from '../../approvals/store';
import { formatDuration, offsets, scriptInDetail, stateDurations, stepLabels, type RunLook } from '../model';
import { SandboxBadge } from './SandboxBadge';
import { StatusBadge } from './StatusBadge';

interface RunTimelineProps {
  runId: string;
  timeline: RunTransition[];
  /** The run's end status once it ended; the timeline closes with it. */
  ended: RunLook | null;
}

/** The fallback machine's transitions (routing spec §10) with the time spent in each state. */
export function RunTimeline({ runId, timeline, ended }: RunTimelineProps) {
  const now = useNow(500, ended === null);
  const durations = stateDurations(timeline, ended !== null, now);
  const at = offsets(timeline);
  const labels = stepLabels(timeline, ended);
  // How each approval pause ended, in order; known for answers this window saw.
  const answers = useApprovalsStore(useShallow((s) => (s.resolutions[runId] ?? []).map(describeResolution)));
  let pauses = 0;

  if (timeline.length === 0) return <p className="timeline__empty">Starting…</p>;
  return (
    <ol className="timeline" aria-label="Timeline" data-testid="run-timeline">
      {timeline.map((t, i) => {
        const answer = t.state === 'awaiting_approval' ? answers[pauses++] : undefined;
        const duration = durations[i];
        return (
          <li
            key={t.seq}
            className={`timeline__step timeline__step--${t.state}`}
            data-testid="timeline-step"
            data-state={t.state}
          >
            <span className="timeline__dot" aria-hidden="true" />
            <div className="timeline__body">
              <div className="timeline__head">
                <strong className="timeline__state">{labels[i]}</strong>
                {t.skill && <code className="timeline__skill">{t.skill}</code>}
                {t.sandbox && <SandboxBadge sandbox={t.sandbox} ran="yes" />}
                <span className="timeline__at" title="Since the run started">
                  +{formatDuration(at[i])}
                </span>
              </div>
              <p className="timeline__detail">
                <StepDetail step={t} />
              </p>
              {answer && (
                <p className="timeline__answer" data-testid="timeline-answer">
                  {answer}
                </p>
              )}
              {duration !== null && (
                <span className="timeline__duration">
                  {ended === null && i === timeline.length - 1 ? 'for ' : 'took '}
                  {formatDuration(duration)}
                </span>
              )}
            </div>
          </li>
        );
      })}
      {ended && (
        <li className="timeline__step timeline__step--end" data-testid="timeline-end" data-status={ended}>
          <span className="timeline__dot" aria-hidden="true" />
          <div className="timeline__body">
            <StatusBadge look={ended} testId="timeline-status" />
          </div>
        </li>
      )}
    </ol>
  );
}

/** The detail, with the script a `running` step starts set as code. */
function StepDetail({ step }: { step: RunTransition }) {
  const parts = scriptInDetail(step);
  if (!parts) return step.detail;
  return (
    <>
      {parts.before}
      <code className="timeline__script" data-testid="timeline-script">
        {parts.script}
      </code>
      {parts.after}
    </>
  );
}
