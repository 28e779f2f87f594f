import { useShallow } from 'zustand/react/shallow';
import { formatBytes, formatCount } from '../../../lib/format';
import { useInstallStore, type InstallProgress } from '../store';
import { ProgressBar } from './ProgressBar';

const PHASES: Record<InstallProgress['phase'], string> = {
  cloning: 'Cloning the repository',
  extracting: 'Extracting the archive',
  copying: 'Copying files',
  scanning: 'Reading the skills',
  done: 'Preparing the preview',
};

function amount(progress: InstallProgress): string | null {
  if (progress.total <= 0) return progress.done > 0 ? formatCount(progress.done) : null;
  // Extraction and copying count bytes; the rest count items.
  const bytes = progress.phase === 'extracting' || progress.phase === 'copying';
  const show = bytes && progress.total > 4096 ? formatBytes : formatCount;
  return `${show(progress.done)} / ${show(progress.total)}`;
}

/** Staging into a scratch folder: nothing is installed yet. */
export function StagingView() {
  const { progress, source } = useInstallStore(useShallow((s) => ({ progress: s.progress, source: s.tab })));
  const title = progress
    ? PHASES[progress.phase]
    : source === 'git'
      ? 'Cloning the repository'
      : 'Reading the source';
  const counted = progress && amount(progress);

  return (
    <div className="install-staging" data-testid="install-staging">
      <div className="install-staging__line">
        <span className="install-staging__title">{title}…</span>
        {counted && <span className="install-staging__amount">{counted}</span>}
      </div>
      <ProgressBar done={progress?.done ?? 0} total={progress?.total ?? 0} label={title} />
      <p className="install-staging__message muted">
        {progress?.message || 'Staged in a scratch folder first — nothing is installed until you confirm.'}
      </p>
    </div>
  );
}
