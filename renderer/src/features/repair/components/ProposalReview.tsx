import { useState } from 'react';
import type { ProposalHunk, RepairProposal } from '../../../../../shared/contract';
import { Kbd } from '../../../ui/Kbd';
import { RefreshIcon } from '../../../ui/icons';
import { describeSelection, isWhole } from '../selection';
import { useRepairStore } from '../store';
import { useSelection } from '../useSelection';
import { DiffPane, type HunkJump } from './DiffPane';
import { FileTabs } from './FileTabs';
import { HunkList } from './HunkList';
import { ProposalRecord } from './ProposalRecord';
import { ReplayPanel } from './ReplayPanel';
import { ReviewActions } from './ReviewActions';
import { ReviewNotices } from './ReviewNotices';

/**
 * One proposal under review (issue 9 item 5): the record and replay above, hunks beside the
 * Monaco diff (a tab per file, the right side editable), and Apply / Reject below.
 */
export function ProposalReview({ p }: { p: RepairProposal }) {
  const sel = useSelection(p);
  const stored = useRepairStore((s) => s.activeFiles[p.id]);
  const setActiveFile = useRepairStore((s) => s.setActiveFile);
  const recheck = useRepairStore((s) => s.recheck);
  const busy = useRepairStore((s) => s.busy !== null);
  const [jump, setJump] = useState<HunkJump | null>(null);
  const active = p.files.some((f) => f.path === stored) ? stored : p.files[0]?.path;
  const file = p.files.find((f) => f.path === active);
  const editable = p.status === 'pending' && !p.stale;
  const whole = isWhole(sel, p);

  const onJump = (h: ProposalHunk) => {
    setActiveFile(p.id, h.file);
    setJump({ index: h.index, nonce: Date.now() });
  };

  return (
    <div
      className="review"
      data-testid="repair-review"
      data-proposal-id={p.id}
      data-status={p.status}
      data-stale={String(p.stale)}
    >
      <ReviewNotices p={p} />
      <div className="review__summary">
        <ProposalRecord p={p} />
        <ReplayPanel replay={p.replay} loadOnly={!p.run_id} />
      </div>
      {!whole && editable && (
        <p className="callout callout--warning review__unreplayed" data-testid="review-unreplayed">
          <RefreshIcon size={15} />
          <span>
            The replay above is of every hunk as proposed. Your choice ({describeSelection(sel, p)}) has not
            been replayed yet: re-check it, or Apply re-checks it first.
          </span>
          <button
            type="button"
            className="button button--small"
            onClick={() => void recheck(p)}
            disabled={busy}
            data-testid="review-recheck-inline"
          >
            Re-check now
          </button>
        </p>
      )}
      <div className="review__body">
        <HunkList p={p} locked={!editable} onJump={onJump} />
        <div className="review__diff">
          <FileTabs p={p} active={active ?? ''} onSelect={(path) => setActiveFile(p.id, path)} />
          {file && (
            <div
              className="review__editor"
              role="tabpanel"
              data-testid="diff-pane"
              data-path={file.path}
              data-edited={String(file.path in sel.edited)}
            >
              <DiffPane key={`${p.id}:${file.path}`} p={p} file={file} editable={editable} jump={jump} />
            </div>
          )}
          <p className="review__hint">
            {editable ? (
              <>
                The proposal against the original: removed lines red, added lines green (side by side, or in
                one column when the pane is narrow). Edit the proposal’s text there; your text replaces that
                file’s hunks and is replayed when you re-check. In the editor, <Kbd>Ctrl</Kbd> <Kbd>M</Kbd>{' '}
                makes <Kbd>Tab</Kbd> move focus.
              </>
            ) : (
              'The proposal against the original: removed lines red, added lines green (side by side, or in one column when the pane is narrow).'
            )}
          </p>
        </div>
      </div>
      <ReviewActions p={p} />
    </div>
  );
}
