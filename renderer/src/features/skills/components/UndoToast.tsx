import { useShallow } from 'zustand/react/shallow';
import { ErrorIcon, TrashIcon, UndoIcon, XIcon } from '../../../ui/icons';
import { useSkillsStore } from '../store';
import './toast.css';

/**
 * "Moved x to the trash — Undo" for ten seconds, or a failed remove / restore / switch. The countdown is
 * the timer bar's CSS animation, so hovering pauses it exactly where it is.
 */
export function UndoToast() {
  const { undo, notice, restore, dismiss } = useSkillsStore(
    useShallow((s) => ({ undo: s.undo, notice: s.notice, restore: s.restore, dismiss: s.dismissToast })),
  );
  const key = notice ?? undo?.trashId;

  if (!undo && !notice) return null;
  return (
    <div className={`toast${notice ? ' toast--error' : ''}`} role="status" data-testid="toast">
      {notice ? <ErrorIcon size={16} /> : <TrashIcon size={16} />}
      <span className="toast__text">
        {notice ?? (
          <>
            Moved <strong>{undo?.name}</strong> to the trash
          </>
        )}
      </span>
      {undo && !notice && (
        <button
          type="button"
          className="toast__action"
          onClick={() => void restore()}
          data-testid="toast-undo"
        >
          <UndoIcon size={14} />
          Undo
        </button>
      )}
      <button type="button" className="icon-button toast__close" onClick={dismiss} aria-label="Dismiss">
        <XIcon size={14} />
      </button>
      <span key={key} className="toast__timer" onAnimationEnd={dismiss} />
    </div>
  );
}
