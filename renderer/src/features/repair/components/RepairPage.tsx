import { useEffect, useSyncExternalStore } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Placeholder } from '../../../ui/Placeholder';
import { Spinner } from '../../../ui/Spinner';
import { ChevronIcon, ErrorIcon, InfoIcon, SparkIcon } from '../../../ui/icons';
import { useRunsStore } from '../../runs/store';
import { currentProposal, parseReviewHash, repairEnded, repairsOf } from '../model';
import { openSkillTab } from '../openSkill';
import { useRepairStore } from '../store';
import { ApplyResult } from './ApplyResult';
import { ProposalReview } from './ProposalReview';
import { RepairSteps } from './RepairSteps';
import '../repair.css';
import '../review.css';
import '../hunks.css';
import '../history.css';

const NONE: never[] = [];
const subscribe = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};

/**
 * The review view, `#repair/<run>/<repair>`: the repair's steps, then its proposal to review.
 * `#repair/-/<repair>` is a proposal made without a run (a frontmatter fix from the skill's
 * Problems tab): nothing ran, so there are no steps and no retry, and "back" is the skill.
 */
export function RepairPage() {
  const address = parseReviewHash(useSyncExternalStore(subscribe, () => location.hash));
  if (!address)
    return (
      <div className="page-center">
        <Placeholder icon={<SparkIcon size={24} />} title="No repair is open" testId="repair-none">
          <p>
            Open a failed run in <a href="#runs">Runs</a> and use <strong>Repair…</strong> when it nearly
            worked.
          </p>
        </Placeholder>
      </div>
    );
  return <RepairView key={address.repairId} runId={address.runId} repairId={address.repairId} />;
}

function RepairView({ runId, repairId }: { runId: string; repairId: string }) {
  const { start, loadRepair, assess, proposals, transitions, outcome } = useRepairStore(
    useShallow((s) => ({
      start: s.start,
      loadRepair: s.loadRepair,
      assess: s.assess,
      proposals: s.proposals[repairId],
      transitions: s.transitions[runId] ?? NONE,
      outcome: s.outcomes[repairId],
    })),
  );
  const record = useRunsStore((s) => s.records[runId]);
  useEffect(() => {
    start();
    useRunsStore.getState().start();
    void loadRepair(repairId);
    if (!runId) return;
    // A reloaded window gets this run's repair steps back from the engine.
    void assess(runId, true);
    void useRunsStore.getState().ensureRecord(runId);
  }, [start, loadRepair, assess, runId, repairId]);

  const steps = repairsOf(transitions).find((r) => r.repairId === repairId)?.steps ?? NONE;
  const ended = repairEnded(steps);
  const list = proposals?.status === 'ready' ? proposals.data : NONE;
  const p = currentProposal(list);
  const skill = p?.skill ?? steps[0]?.skill ?? record?.summary.skill ?? '';
  const loading = !proposals || proposals.status === 'loading';

  return (
    <div className="repair-page" data-testid="repair-page" data-repair-id={repairId} data-run-id={runId}>
      <header className="repair-page__header">
        {runId ? (
          <a
            className="link-button repair-page__back"
            href="#runs"
            onClick={() => useRunsStore.getState().select(runId)}
            data-testid="repair-back"
          >
            <ChevronIcon size={11} /> Back to the run
          </a>
        ) : (
          <a
            className="link-button repair-page__back"
            href="#skills"
            onClick={() => p && openSkillTab(p.skill_id, 'problems')}
            data-testid="repair-back"
          >
            <ChevronIcon size={11} /> Back to the skill
          </a>
        )}
        <h2 className="repair-page__title">
          {p?.fixer === 'frontmatter' ? 'Frontmatter fix' : 'Repair'} of <code>{skill || '…'}</code>
        </h2>
        {record?.summary.task && <p className="repair-page__task">{record.summary.task}</p>}
      </header>
      {steps.length > 0 && (
        <details className="repair-page__steps" open={!p} data-testid="repair-steps">
          <summary>
            Repair steps <span className="muted">({steps.length})</span>
          </summary>
          <RepairSteps steps={steps} running={!ended} />
        </details>
      )}
      {proposals?.status === 'error' && (
        <p className="callout callout--error" role="alert">
          <ErrorIcon size={15} /> {proposals.error}
        </p>
      )}
      {p ? (
        <ProposalReview key={p.id} p={p} />
      ) : !runId ? (
        loading ? (
          <Spinner label="Loading the proposal" />
        ) : (
          <Placeholder icon={<InfoIcon size={22} />} title="No fix to review" testId="repair-no-proposal">
            <p>This proposal is no longer recorded. Open the skill’s Problems tab and use Fix… again.</p>
          </Placeholder>
        )
      ) : ended ? (
        <Placeholder icon={<InfoIcon size={22} />} title="No fix to review" testId="repair-no-proposal">
          <p>{ended.detail}</p>
          <p>Nothing in the skill changed.</p>
        </Placeholder>
      ) : (
        <div className="repair-page__working" data-testid="repair-working">
          <Spinner label="Looking for a fix" /> Looking for the smallest fix and replaying it on a copy of the
          skill…
        </div>
      )}
      {/* Below the review, where Apply was pressed. */}
      {outcome && <ApplyResult outcome={outcome} />}
    </div>
  );
}
