import { useState } from 'react';
import type { SkillSummary } from '../../../../../../shared/contract';
import { errorMessage } from '../../../../lib/client';
import { InlineCode } from '../../../../ui/InlineCode';
import { Modal } from '../../../../ui/Modal';
import { Spinner } from '../../../../ui/Spinner';
import { TruncatedPath } from '../../../../ui/TruncatedPath';
import { TrashIcon } from '../../../../ui/icons';
import { useSkillsStore } from '../../store';
import { SOURCE_HELP } from '../SourceBadge';

/** Only managed skills can be removed (to the trash, undoable); for others, say where they live. */
export function RemoveButton({ summary }: { summary: SkillSummary }) {
  const remove = useSkillsStore((s) => s.remove);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const managed = summary.source === 'managed';

  const close = () => {
    setOpen(false);
    setError(null);
  };
  const confirm = async () => {
    setBusy(true);
    try {
      await remove(summary.id);
      close();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button
        type="button"
        className="button button--small button--quiet"
        onClick={() => setOpen(true)}
        title={managed ? 'Move this skill to the trash' : 'Where this skill lives, and how to remove it'}
        data-testid="skill-remove"
      >
        <TrashIcon size={14} />
        Remove
      </button>
      {open && managed && (
        <Modal
          title={`Remove “${summary.name}”?`}
          onClose={close}
          testId="remove-dialog"
          footer={
            <>
              <button type="button" className="button" onClick={close} disabled={busy}>
                Cancel
              </button>
              <span className="modal__footer-note" />
              <button
                type="button"
                className="button button--danger"
                onClick={() => void confirm()}
                disabled={busy}
                data-testid="remove-confirm"
                autoFocus
                data-autofocus
              >
                {busy && <Spinner label="Removing" />}
                Move to trash
              </button>
            </>
          }
        >
          <div className="remove-body">
            <p>
              It moves to SkillDeck’s trash and stops being used at once. You can undo right after, or restore
              it later until the trash is emptied.
            </p>
            <TruncatedPath path={summary.path} className="remove-body__path" />
            {error && (
              <p className="callout callout--error" role="alert" data-testid="remove-error">
                <InlineCode text={error} />
              </p>
            )}
          </div>
        </Modal>
      )}
      {open && !managed && (
        <Modal
          title="SkillDeck did not install this skill"
          onClose={close}
          testId="remove-dialog"
          footer={
            <>
              <span className="modal__footer-note" />
              <button type="button" className="button" onClick={close} autoFocus data-autofocus>
                OK
              </button>
            </>
          }
        >
          <div className="remove-body" data-testid="remove-unmanaged">
            <p>
              {SOURCE_HELP[summary.source]}. SkillDeck only removes skills it installed itself, so other tools
              that read this folder are never surprised. To remove it, delete its folder:
            </p>
            <TruncatedPath path={summary.path} className="remove-body__path" />
            <p className="muted">
              To keep it but stop SkillDeck from using it, turn it off under Availability.
            </p>
          </div>
        </Modal>
      )}
    </>
  );
}
