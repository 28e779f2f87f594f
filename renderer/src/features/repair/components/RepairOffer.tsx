import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { InlineCode } from '../../../ui/InlineCode';
import { Spinner } from '../../../ui/Spinner';
import { ChevronIcon, ErrorIcon, InfoIcon, SparkIcon } from '../../../ui/icons';
import { repairsOf, reviewHash } from '../model';
import { useRepairStore } from '../store';
import '../repair.css';
import '../review.css';
import '../hunks.css';
import '../history.css';

const NONE: never[] = [];

/**
 * "Repair…" on a failed run (issue 9 item 5), with the eligibility reason either way: a
 * failure that nearly worked is offered a repair; anything else (a sandbox denial, a missing
 * binary, a timeout) says why not. `compact` is the chat tool card's smaller form.
 */
export function RepairOffer({
  runId,
  compact = false,
  whenEligible = false,
}: {
  runId: string;
  compact?: boolean;
  /** For a run that succeeded: say nothing unless a repair can help (a file its SKILL.md names is missing). */
  whenEligible?: boolean;
}) {
  const { start, assess, startRepair, verdict, starting, startError, transitions } = useRepairStore(
    useShallow((s) => ({
      start: s.start,
      assess: s.assess,
      startRepair: s.startRepair,
      verdict: s.assessments[runId],
      starting: !!s.starting[runId],
      startError: s.startErrors[runId],
      transitions: s.transitions[runId] ?? NONE,
    })),
  );
  useEffect(start, [start]);
  useEffect(() => void assess(runId), [assess, runId]);
  const latest = repairsOf(transitions).at(-1);
  if (whenEligible && (verdict?.status !== 'ready' || !verdict.data.eligible)) return null;

  if (!verdict || verdict.status === 'loading')
    return (
      <p className="repair-offer repair-offer--checking" data-testid="repair-offer" data-eligible="">
        <Spinner label="Checking whether a repair can help" /> Checking whether a repair can help…
      </p>
    );
  if (verdict.status === 'error')
    return (
      <p className="repair-offer is-ineligible" data-testid="repair-offer" data-eligible="false">
        <InfoIcon size={14} />
        <span data-testid="repair-reason">No repair offered: {verdict.error}</span>
      </p>
    );

  const { eligible, reason, category, progress } = verdict.data;
  const repair = async () => {
    const id = await startRepair(runId);
    if (id) location.hash = reviewHash(runId, id);
  };
  return (
    <section
      className={`repair-offer ${eligible ? 'is-eligible' : 'is-ineligible'}${compact ? ' repair-offer--compact' : ''}`}
      aria-label="Repair"
      data-testid="repair-offer"
      data-eligible={String(eligible)}
      data-category={category}
    >
      {eligible ? <SparkIcon size={15} /> : <InfoIcon size={14} />}
      <div className="repair-offer__body">
        <strong className="repair-offer__title">
          {eligible ? 'A repair can help' : 'No repair offered'}
        </strong>
        <p className="repair-offer__reason" data-testid="repair-reason">
          <InlineCode text={reason} />
        </p>
        {!compact && (
          <p className="repair-offer__facts">
            {category.replace(/_/g, ' ')} · progress {progress.toFixed(2)}
          </p>
        )}
        {startError && (
          <p className="repair-offer__error" role="alert" data-testid="repair-start-error">
            <ErrorIcon size={13} /> {startError}
          </p>
        )}
      </div>
      <div className="repair-offer__actions">
        {latest && (
          <a
            className="link-button"
            href={reviewHash(runId, latest.repairId)}
            data-testid="repair-open-review"
          >
            Open the review <ChevronIcon size={11} />
          </a>
        )}
        {eligible && (
          <button
            type="button"
            className="button button--small button--primary"
            onClick={() => void repair()}
            disabled={starting}
            title="Propose the smallest fix, prove it on a copy, then let you review it"
            data-testid="repair-start"
          >
            {starting ? <Spinner label="Starting the repair" /> : <SparkIcon size={13} />}
            Repair…
          </button>
        )}
      </div>
    </section>
  );
}
