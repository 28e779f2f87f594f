import { DownloadIcon } from '../../../ui/icons';
import { useWindowDrop } from '../useWindowDrop';

/** Shown while a file is dragged over the window. */
export function DropOverlay() {
  const over = useWindowDrop();
  if (!over) return null;
  return (
    <div className="drop-overlay" data-testid="drop-overlay" aria-hidden="true">
      <div className="drop-overlay__card">
        <DownloadIcon size={28} />
        <strong>Drop to install</strong>
        <span>A skill folder, or a .zip / .skill archive. You review it before anything is written.</span>
      </div>
    </div>
  );
}
