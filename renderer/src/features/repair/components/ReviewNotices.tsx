import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { RepairProposal } from '../../../../../shared/contract';
import { InlineCode } from '../../../ui/InlineCode';
import { CheckIcon, ErrorIcon, InfoIcon, SparkIcon, WarningIcon } from '../../../ui/icons';
import { reviewHash } from '../model';
import { openSkillTab } from '../openSkill';
import { useRepairStore } from '../store';

/** What the user must know before deciding: stale, bundled, already decided, and what went wrong. */
export function ReviewNotices({ p }: { p: RepairProposal }) {
  const { error, notice, startRepair, starting, appliedHere } = useRepairStore(
    useShallow((s) => ({
      appliedHere: s.outcomes[p.repair_id]?.proposalId === p.id,
      error: s.reviewErrors[p.id],
      notice: s.notices[p.id],
      startRepair: s.startRepair,
      starting: !!s.starting[p.run_id],
    })),
  );
  // Rejected here, in this view: the Reject form took the focus with it, so the next step gets
  // it. A proposal opened already rejected leaves the focus where it is.
  const [decidedHere] = useState(p.status === 'pending');
  const again = async () => {
    const id = await startRepair(p.run_id);
    if (id) location.hash = reviewHash(p.run_id, id);
  };
  return (
    <>
      {p.stale && p.status === 'pending' && (
        <p className="callout callout--warning" role="alert" data-testid="review-stale">
          <WarningIcon size={15} />
          <span>
            This proposal is stale: <code>{p.skill}</code> changed since it was made, so it can no longer be
            applied.{' '}
            {p.run_id
              ? 'Repair the run again for a fresh proposal.'
              : 'Use Fix… on the skill’s Problems tab again for a fresh proposal.'}
          </span>
        </p>
      )}
      {p.bundled && (
        <p className="callout callout--info" data-testid="review-bundled">
          <InfoIcon size={15} />
          <span>
            <code>{p.skill}</code> is bundled with SkillDeck and read-only. Applying puts the fix into a
            managed copy that shadows the bundled skill; undoing the repair removes the copy again.
          </span>
        </p>
      )}
      {notice && (
        <p className="callout callout--warning" role="status" data-testid="review-notice">
          <WarningIcon size={15} />
          <span>{notice}</span>
        </p>
      )}
      {error && (
        <p className="callout callout--error" role="alert" data-testid="review-error">
          <ErrorIcon size={15} />
          <span>
            <InlineCode text={error} />
          </span>
        </p>
      )}
      {p.status === 'rejected' && !p.run_id && (
        <div className="callout callout--info review-rejected" data-testid="review-rejected">
          <InfoIcon size={15} />
          <div>
            <p>
              Rejected{p.reject_reason ? `: “${p.reject_reason}”` : '.'} Nothing in the skill changed; it
              still does not load until its SKILL.md is fixed.
            </p>
            <button
              type="button"
              className="button button--small"
              onClick={() => openSkillTab(p.skill_id, 'problems')}
              autoFocus={decidedHere}
              data-testid="repair-back-to-skill"
            >
              Back to the skill
            </button>
          </div>
        </div>
      )}
      {p.status === 'rejected' && p.run_id && (
        <div className="callout callout--info review-rejected" data-testid="review-rejected">
          <InfoIcon size={15} />
          <div>
            <p>
              Rejected{p.reject_reason ? `: “${p.reject_reason}”` : '.'} Nothing in the skill changed. Another
              repair of this run is told why.
            </p>
            <button
              type="button"
              className="button button--small"
              onClick={() => void again()}
              disabled={starting}
              autoFocus={decidedHere}
              data-testid="repair-again"
            >
              <SparkIcon size={13} /> Repair again with this feedback
            </button>
          </div>
        </div>
      )}
      {/* Applied in an earlier visit: this window has no outcome to show below. */}
      {p.status === 'applied' && !appliedHere && (
        <p className="callout callout--info" data-testid="review-applied">
          <CheckIcon size={15} />
          <span>
            Applied. The skill’s Repairs tab lists the revision, and undo puts every file back as it was.
          </span>
        </p>
      )}
      {p.status === 'superseded' && (
        <p className="callout callout--info" data-testid="review-superseded">
          <InfoIcon size={15} />
          <span>A re-checked version of this proposal replaced it.</span>
        </p>
      )}
    </>
  );
}
