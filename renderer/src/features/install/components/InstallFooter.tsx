import { useShallow } from 'zustand/react/shallow';
import { plural } from '../../../lib/format';
import { Spinner } from '../../../ui/Spinner';
import { buildSelection } from '../model';
import { NO_CANDIDATES, managedNames, useInstallStore } from '../store';

function PreviewActions() {
  const { candidates, choices, phase, back, install } = useInstallStore(
    useShallow((s) => ({
      candidates: s.preview?.candidates ?? NO_CANDIDATES,
      choices: s.choices,
      phase: s.phase,
      back: s.back,
      install: s.install,
    })),
  );
  const { select, issues } = buildSelection(candidates, choices, managedNames());
  const busy = phase === 'installing';
  return (
    <>
      <button type="button" className="button" onClick={back} disabled={busy} data-testid="install-back">
        Back
      </button>
      <span className="modal__footer-note" data-testid="install-issues">
        {issues[0] ?? 'Nothing has been written yet.'}
      </span>
      <button
        type="button"
        className="button button--primary"
        onClick={() => void install()}
        disabled={busy || issues.length > 0}
        data-testid="install-confirm"
      >
        {busy && <Spinner label="Installing" />}
        {select.length > 1
          ? `Install ${plural(select.length, 'skill')}`
          : select[0]?.onConflict === 'replace'
            ? 'Replace'
            : 'Install'}
      </button>
    </>
  );
}

export function InstallFooter() {
  const { phase, close, openDialog } = useInstallStore(
    useShallow((s) => ({ phase: s.phase, close: s.close, openDialog: s.openDialog })),
  );
  return (
    <div className="install-footer">
      {phase === 'form' && (
        <>
          <button type="button" className="button" onClick={close}>
            Cancel
          </button>
          <span className="modal__footer-note">Nothing is written until you confirm.</span>
          <button
            type="submit"
            form="install-form"
            className="button button--primary"
            data-testid="install-preview-button"
          >
            Preview
          </button>
        </>
      )}
      {phase === 'staging' && (
        <>
          <span className="modal__footer-note" />
          <button type="button" className="button" onClick={close} data-testid="install-cancel">
            Cancel
          </button>
        </>
      )}
      {(phase === 'preview' || phase === 'installing') && <PreviewActions />}
      {phase === 'done' && (
        <>
          <button type="button" className="button" onClick={() => openDialog()} data-testid="install-another">
            Install another
          </button>
          <span className="modal__footer-note" />
          <button type="button" className="button button--primary" onClick={close} data-testid="install-done">
            Done
          </button>
        </>
      )}
    </div>
  );
}
