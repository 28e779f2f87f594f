import { DownloadIcon } from '../../../ui/icons';
import { useInstallStore } from '../store';

export function InstallButton() {
  const openDialog = useInstallStore((s) => s.openDialog);
  return (
    <button
      type="button"
      className="button button--primary install-button"
      onClick={() => openDialog()}
      title="Install a skill from a folder, an archive or git"
      data-testid="install-open"
    >
      <DownloadIcon size={15} />
      Install
    </button>
  );
}
