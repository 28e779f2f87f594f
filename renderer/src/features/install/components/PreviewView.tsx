import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { formatBytes, plural } from '../../../lib/format';
import { ErrorIcon } from '../../../ui/icons';
import { InlineCode } from '../../../ui/InlineCode';
import { Placeholder } from '../../../ui/Placeholder';
import { useInstallStore } from '../store';
import { CandidateCard } from './CandidateCard';
import { CandidatePicker } from './CandidatePicker';

export function PreviewView() {
  const { preview, error } = useInstallStore(useShallow((s) => ({ preview: s.preview, error: s.error })));
  const [focused, setFocused] = useState<string | null>(null);
  if (!preview) return null;
  const { candidates } = preview;
  const shown = candidates.find((c) => c.name === focused) ?? candidates[0];

  const alert = error && (
    <p className="callout callout--error" role="alert" data-testid="install-error">
      <ErrorIcon size={15} />
      <span>
        <InlineCode text={error} />
      </span>
    </p>
  );

  if (!shown) {
    return (
      <div className="install-preview install-preview--empty" data-testid="install-preview" data-count={0}>
        <Placeholder icon={<ErrorIcon size={22} />} tone="error" title="No skill found here">
          <p>
            The source holds {plural(preview.fileCount, 'file')} ({formatBytes(preview.totalBytes)}) but no{' '}
            <code>SKILL.md</code>. Point at a skill folder, or a folder that holds skill folders.
          </p>
        </Placeholder>
      </div>
    );
  }

  if (candidates.length === 1) {
    return (
      <div className="install-preview" data-testid="install-preview" data-count={1}>
        {alert}
        <CandidateCard candidate={shown} />
      </div>
    );
  }

  return (
    <div
      className="install-preview install-preview--many"
      data-testid="install-preview"
      data-count={candidates.length}
    >
      <CandidatePicker focused={shown.name} onFocus={setFocused} />
      <div className="install-preview__detail">
        {alert}
        <CandidateCard key={shown.name} candidate={shown} />
      </div>
    </div>
  );
}
