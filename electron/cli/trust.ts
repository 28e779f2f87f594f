import fs from 'node:fs';
import path from 'node:path';
import { resolveHome } from '../engine/paths';
import { folderKey, WorkspaceStore } from '../engine/workspace/store';
import { refuse } from './context';

/**
 * `skilldeck trust [DIR] [--untrust] [--list]`: trust a folder for the app and `serve` (its own
 * skills then run as they declare, `approval: auto` included), take that back, or list the
 * trusted folders. One-shot commands never need it: they trust the folder they run in.
 */
export function trustCommand(
  dir: string | undefined,
  flags: { untrust: boolean; list: boolean; json: boolean },
): number {
  const store = WorkspaceStore.at(resolveHome());
  const out = (value: unknown, text: string) =>
    process.stdout.write(flags.json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
  if (flags.list) {
    const folders = store.trusted();
    out(
      { folders },
      folders.length === 0
        ? 'No folder is trusted.'
        : folders.map((f) => `${f.path}  (since ${f.trusted_at.slice(0, 10)})`).join('\n'),
    );
    return 0;
  }
  const folder = folderKey(dir ?? process.cwd());
  if (flags.untrust) {
    const revoked = store.untrust(folder);
    out(
      { path: folder, trusted: false, revoked },
      revoked ? `No longer trusted: ${folder}` : `${folder} was not trusted.`,
    );
    return 0;
  }
  let kind: 'folder' | 'file' | 'missing' = 'missing';
  try {
    kind = fs.statSync(folder).isDirectory() ? 'folder' : 'file';
  } catch {
    // Reported below.
  }
  if (kind !== 'folder')
    return refuse(
      `skilldeck trust: ${dir ?? folder}: ${kind === 'file' ? 'not a folder; trust the folder that holds its skills/, .claude/skills or .agents/skills' : 'no such folder'}`,
      flags.json,
    );
  const trustedAt = store.trust(folder);
  const own = ['skills', '.claude/skills', '.agents/skills'].filter((d) =>
    fs.existsSync(path.join(folder, d)),
  );
  out(
    { path: folder, trusted: true, trusted_at: trustedAt },
    `Trusted: ${folder}${own.length ? ` (its ${own.join(', ')} may now run as they declare)` : ''}\nUndo with: skilldeck trust --untrust ${JSON.stringify(folder)}`,
  );
  return 0;
}
