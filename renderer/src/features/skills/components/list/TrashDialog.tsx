import { useState } from 'react';
import { errorMessage } from '../../../../lib/client';
import { InlineCode } from '../../../../ui/InlineCode';
import { Modal } from '../../../../ui/Modal';
import { Placeholder } from '../../../../ui/Placeholder';
import { Spinner } from '../../../../ui/Spinner';
import { TruncatedPath } from '../../../../ui/TruncatedPath';
import { TrashIcon, UndoIcon } from '../../../../ui/icons';
import { useSkillsStore } from '../../store';
import './trash.css';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function TrashDialog({ onClose }: { onClose: () => void }) {
  const trash = useSkillsStore((s) => s.trash);
  const restoreFromTrash = useSkillsStore((s) => s.restoreFromTrash);
  const emptyTrash = useSkillsStore((s) => s.emptyTrash);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const items = trash?.status === 'ready' ? trash.data : [];

  const run = async (key: string, action: () => Promise<void>) => {
    setBusy(key);
    setError(null);
    try {
      await action();
      if (key !== 'empty') onClose();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Modal
      title="Trash"
      subtitle="Removed skills and the versions that installs replaced. Restore puts one back where it was."
      onClose={onClose}
      size="medium"
      testId="trash-dialog"
      footer={
        <>
          <button
            type="button"
            className="button button--quiet"
            onClick={() => void run('empty', emptyTrash)}
            disabled={items.length === 0 || busy !== null}
            data-testid="trash-empty"
          >
            Empty trash
          </button>
          <span className="modal__footer-note">Emptying deletes these for good.</span>
          <button type="button" className="button" onClick={onClose} data-autofocus>
            Close
          </button>
        </>
      }
    >
      <div className="trash">
        {error && (
          <p className="callout callout--error" role="alert">
            <InlineCode text={error} />
          </p>
        )}
        {(!trash || trash.status === 'loading') && <Spinner label="Loading the trash" />}
        {trash?.status === 'error' && <p className="tone-red">{trash.error}</p>}
        {trash?.status === 'ready' && items.length === 0 && (
          <Placeholder icon={<TrashIcon size={22} />} title="The trash is empty" />
        )}
        {items.length > 0 && (
          <ul className="trash__list">
            {items.map((item) => (
              <li
                key={item.trashId}
                className="trash__item"
                data-testid="trash-item"
                data-skill-name={item.name}
              >
                <div className="trash__texts">
                  <span className="trash__name">
                    {item.name}
                    {item.version && <span className="muted"> v{item.version}</span>}
                  </span>
                  <span className="trash__meta">
                    {item.reason === 'replaced' ? 'Replaced by an install' : 'Removed'} ·{' '}
                    {when.format(new Date(item.removedAt))}
                  </span>
                  <TruncatedPath path={item.originalPath} className="trash__path" />
                </div>
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => void run(item.trashId, () => restoreFromTrash(item.trashId))}
                  disabled={busy !== null}
                  data-testid="trash-restore"
                >
                  {busy === item.trashId ? <Spinner label="Restoring" /> : <UndoIcon size={13} />}
                  Restore
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Modal>
  );
}
