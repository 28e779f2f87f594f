import { useEffect, useState } from 'react';
import { tabForDropped } from './model';
import { useInstallStore } from './store';

/** Electron before 32 put the file's path on File; a browser page never learns it. */
const pathOf = (file: File): string | undefined => {
  const path = (file as File & { path?: unknown }).path;
  return typeof path === 'string' && path ? path : undefined;
};

const carriesFiles = (event: DragEvent): boolean => event.dataTransfer?.types.includes('Files') ?? false;

/** A folder or archive dropped anywhere on the window opens the Install dialog with it. */
export function useWindowDrop(): boolean {
  const [over, setOver] = useState(false);

  useEffect(() => {
    let depth = 0;
    const busy = () => {
      const { open, phase } = useInstallStore.getState();
      return open && phase !== 'form';
    };
    const onEnter = (event: DragEvent) => {
      if (!carriesFiles(event) || busy()) return;
      depth += 1;
      setOver(true);
    };
    const onOver = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      // Without this the browser opens the dropped file and navigates away from the app.
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = busy() ? 'none' : 'copy';
    };
    const onLeave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const onDrop = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth = 0;
      setOver(false);
      if (busy()) return;
      const item = event.dataTransfer?.items[0];
      const file = event.dataTransfer?.files[0];
      if (!file) return;
      const isFolder = item?.webkitGetAsEntry()?.isDirectory ?? false;
      const tab = isFolder ? 'folder' : tabForDropped(file.name);
      const path = pathOf(file);
      const { openDialog, stageFile } = useInstallStore.getState();
      if (path) {
        openDialog({ tab, path });
        return;
      }
      // A page cannot see the archive's path, but it can read its bytes and send them.
      if (!isFolder && tab === 'archive') {
        openDialog({ tab });
        void stageFile(file);
        return;
      }
      const what = isFolder ? 'folder' : 'file';
      openDialog({
        tab,
        notice:
          tab === 'folder' && !isFolder
            ? `“${file.name}” is not a folder or a .zip / .skill archive. Drop a skill folder or an archive.`
            : `You dropped the ${what} “${file.name}”, but a browser page cannot see where files live on disk. Paste its full path below.`,
      });
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, []);

  return over;
}
