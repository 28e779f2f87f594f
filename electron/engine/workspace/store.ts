import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { TrustedFolder } from '../../../shared/contract';
import { writeFileAtomicSync } from '../atomic';

const Folder = z.object({
  trusted_at: z.string().optional(),
  disabled: z.array(z.string()).optional(),
});
const WorkspacesFile = z.object({ version: z.literal(1), folders: z.record(z.string(), Folder) });
type Folder = z.infer<typeof Folder>;

/**
 * A folder as trust is keyed: absolute, with links resolved when it exists, so `skilldeck trust .`
 * from a linked path and the app opened on the real one name the same folder.
 */
export function folderKey(dir: string): string {
  const abs = path.resolve(dir);
  try {
    return fs.realpathSync(abs);
  } catch {
    return abs;
  }
}

/**
 * Per-folder trust and per-workspace skill switches (`$SKILLDECK_HOME/workspaces.json`): which
 * folders the user trusts, and which skills are off in one folder only. Read on every use, so
 * `skilldeck trust` in a terminal reaches a running app; written atomically. A missing or
 * unreadable file trusts nothing (the safe direction). No skill run can write it: runs never see
 * $SKILLDECK_HOME.
 */
export class WorkspaceStore {
  constructor(readonly file: string) {}

  static at(home: string): WorkspaceStore {
    return new WorkspaceStore(path.join(home, 'workspaces.json'));
  }

  private read(): Record<string, Folder> {
    try {
      const parsed = WorkspacesFile.safeParse(JSON.parse(fs.readFileSync(this.file, 'utf8')));
      return parsed.success ? parsed.data.folders : {};
    } catch {
      return {};
    }
  }

  private write(folders: Record<string, Folder>): void {
    const kept = Object.fromEntries(
      Object.entries(folders).filter(([, f]) => f.trusted_at || (f.disabled?.length ?? 0) > 0),
    );
    writeFileAtomicSync(this.file, `${JSON.stringify({ version: 1, folders: kept }, null, 2)}\n`);
  }

  private change(dir: string, edit: (folder: Folder) => Folder): void {
    const folders = this.read();
    const key = folderKey(dir);
    folders[key] = edit({ ...folders[key] });
    this.write(folders);
  }

  /** When the folder was trusted, or undefined. */
  trustedAt(dir: string): string | undefined {
    return this.read()[folderKey(dir)]?.trusted_at;
  }

  /** Trust the folder (keeps the first moment it was trusted). */
  trust(dir: string, now = new Date()): string {
    let at = '';
    this.change(dir, (f) => {
      at = f.trusted_at ?? now.toISOString();
      return { ...f, trusted_at: at };
    });
    return at;
  }

  /** Take the trust back; true when the folder was trusted. */
  untrust(dir: string): boolean {
    if (!this.trustedAt(dir)) return false;
    this.change(dir, ({ trusted_at: _dropped, ...rest }) => rest);
    return true;
  }

  /** Every trusted folder, by path. */
  trusted(): TrustedFolder[] {
    return Object.entries(this.read())
      .flatMap(([p, f]) => (f.trusted_at ? [{ path: p, trusted_at: f.trusted_at }] : []))
      .sort((a, b) => a.path.localeCompare(b.path));
  }

  /** Skill names turned off in this folder only. */
  disabled(dir: string): string[] {
    return this.read()[folderKey(dir)]?.disabled ?? [];
  }

  setEnabled(dir: string, name: string, enabled: boolean): void {
    this.change(dir, (f) => {
      const without = (f.disabled ?? []).filter((n) => n !== name);
      return { ...f, disabled: enabled ? without : [...without, name].sort() };
    });
  }
}
