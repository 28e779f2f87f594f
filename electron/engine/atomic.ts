import fs from 'node:fs';
import path from 'node:path';

/**
 * Write temp, fsync, rename (DESIGN §6): readers see the old file or the new one, never half.
 * The file is private (0600) unless `mode` says otherwise; a given mode is set as is, umask aside.
 */
export function writeFileAtomicSync(file: string, data: string | Uint8Array, mode?: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  const fd = fs.openSync(temp, 'w', 0o600);
  try {
    if (mode !== undefined) fs.fchmodSync(fd, mode);
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}
