import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Modal } from '../../../ui/Modal';
import { describeSource, sourceFromForm } from '../model';
import { useInstallStore } from '../store';
import { InstallFooter } from './InstallFooter';
import { PreviewView } from './PreviewView';
import { ResultView } from './ResultView';
import { SourceForm } from './SourceForm';
import { StagingView } from './StagingView';
import '../install.css';
import '../preview.css';
import '../outcome.css';

const SIZES = {
  form: 'small',
  staging: 'small',
  preview: 'large',
  installing: 'large',
  done: 'medium',
} as const;

const TITLES = {
  form: 'Install a skill',
  staging: 'Preparing the preview',
  preview: 'Review before installing',
  installing: 'Installing…',
  done: 'Installed',
} as const;

/**
 * Source → preview (nothing written yet) → confirm → result (issue 3, item 8). `onShown`: the
 * page moves focus to the list once a result's "Show in list" has closed the dialog.
 */
export function InstallDialog({ onShown }: { onShown?: () => void }) {
  const { open, phase, preview, tab, form, upload, close } = useInstallStore(
    useShallow((s) => ({
      open: s.open,
      phase: s.phase,
      preview: s.preview,
      tab: s.tab,
      form: s.form,
      upload: s.upload,
      close: s.close,
    })),
  );
  const body = useRef<HTMLDivElement>(null);
  // Each phase swaps the footer's buttons, so the one that had the focus is gone and a keyboard
  // or screen-reader user is left on the page behind the dialog. The focus goes to what the new
  // phase shows (the preview first, before its Install button).
  useEffect(() => {
    const el = body.current;
    if (el && !el.closest('dialog')?.contains(document.activeElement)) el.focus();
  }, [phase, open]);
  if (!open) return null;

  // While staging there is no preview yet: name what the form asked for.
  const fromForm = sourceFromForm(tab, form);
  const source =
    preview?.source ??
    (upload !== null
      ? { kind: 'upload' as const, fileName: upload }
      : 'source' in fromForm
        ? fromForm.source
        : null);
  const subtitle =
    phase === 'form'
      ? 'From a folder, a .zip or .skill archive, or a git repository. You review everything before it is written.'
      : source && <span className="install-source-line">{describeSource(source)}</span>;

  return (
    <Modal
      title={TITLES[phase]}
      subtitle={subtitle}
      onClose={close}
      size={SIZES[phase]}
      footer={<InstallFooter />}
      testId="install-dialog"
    >
      <div className="install" ref={body} tabIndex={-1} data-phase={phase} data-testid="install-body">
        {phase === 'form' && <SourceForm />}
        {phase === 'staging' && <StagingView />}
        {(phase === 'preview' || phase === 'installing') && <PreviewView />}
        {phase === 'done' && <ResultView onShown={onShown} />}
      </div>
    </Modal>
  );
}
