import { useState } from 'react';
import type { RepairRevision } from '../../../../../shared/contract';
import { Badge } from '../../../ui/Badge';
import { Spinner } from '../../../ui/Spinner';
import { ErrorIcon, UndoIcon } from '../../../ui/icons';
import { shortHash } from '../model';
import { useRepairStore } from '../store';
import { UnifiedDiff } from './UnifiedDiff';

const DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** One applied repair: when, why, which files with their hashes, its diff, and undo. */
export function RevisionItem({ skillId, r }: { skillId: string; r: RepairRevision }) {
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const undo = useRepairStore((s) => s.undo);
  const undoing = useRepairStore((s) => s.undoing === r.revision);
  const error = useRepairStore((s) => s.undoErrors[r.revision]);
  const undone = r.undone_at !== null;

  return (
    <li
      className={`revision${undone ? ' is-undone' : ''}`}
      data-testid="revision"
      data-revision={r.revision}
      data-undone={String(undone)}
    >
      <header className="revision__head">
        <code className="revision__id">{r.revision}</code>
        <Badge tone="accent" variant="outline">
          {r.source === 'user' ? 'edited by you' : r.source}
        </Badge>
        {undone && (
          <Badge tone="neutral" testId="revision-undone">
            undone {DATE.format(new Date(r.undone_at ?? ''))}
          </Badge>
        )}
        <time className="revision__date" dateTime={r.applied_at}>
          {DATE.format(new Date(r.applied_at))}
        </time>
      </header>
      <p className="revision__cause">{r.root_cause}</p>
      <p className="revision__hash" title={`${r.content_hash_before} → ${r.content_hash_after}`}>
        skill <code>{shortHash(r.content_hash_before)}</code> → <code>{shortHash(r.content_hash_after)}</code>
        {r.copied_from && (
          <>
            {' '}
            · a managed copy of the bundled skill at <code>{r.copied_from}</code>
          </>
        )}
      </p>
      <ul className="revision__files" aria-label="Files">
        {r.files.map((f) => (
          <li key={f.path} data-testid="revision-file" data-path={f.path}>
            <code className="revision__path">{f.path}</code>
            <span
              className="revision__file-hash"
              title={`${f.hash_before ?? 'did not exist'} → ${f.hash_after}`}
            >
              {f.hash_before ? shortHash(f.hash_before) : 'new'} → {shortHash(f.hash_after)}
            </span>
          </li>
        ))}
      </ul>
      <div className="revision__actions">
        <button
          type="button"
          className="button button--small button--quiet"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          data-testid="revision-diff-toggle"
        >
          {open ? 'Hide the diff' : 'View the diff'}
        </button>
        {!undone && !confirming && (
          <button
            type="button"
            className="button button--small"
            onClick={() => setConfirming(true)}
            data-testid="revision-undo"
          >
            <UndoIcon size={13} /> Undo…
          </button>
        )}
        {!undone && confirming && (
          <span className="revision__confirm" role="group" aria-label="Confirm undo">
            <span>
              Put {r.files.length === 1 ? 'this file' : `these ${r.files.length} files`} back byte for byte?
            </span>
            <button
              type="button"
              className="button button--small button--danger"
              onClick={() => void undo(skillId, r.revision).then(() => setConfirming(false))}
              disabled={undoing}
              data-testid="revision-undo-confirm"
              autoFocus
            >
              {undoing && <Spinner label="Undoing" />} Undo this repair
            </button>
            <button type="button" className="button button--small" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </span>
        )}
      </div>
      {error && (
        <p className="callout callout--error" role="alert" data-testid="revision-error">
          <ErrorIcon size={14} /> {error}
        </p>
      )}
      {open && <UnifiedDiff text={r.diff} testId="revision-diff" />}
    </li>
  );
}
