import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { RepairRevision } from '../../../shared/contract';
import { writeFileAtomicSync } from '../atomic';

/**
 * The journal of one revision, `$SKILLDECK_HOME/repairs/<skill>/<revision>/journal.json`,
 * written (fsynced) before any skill file moves. `applying` and `undoing` mark work in
 * progress; `recoverRepairs` rolls an interrupted apply back and finishes an interrupted undo.
 */
export const Journal = z.object({
  state: z.enum(['applying', 'committed', 'undoing', 'undone']),
  /** The skill folder the files are swapped in. */
  target: z.string(),
  /** The apply created `target` as a managed copy of a bundled skill (undo removes it). */
  created_copy: z.boolean(),
  files: z.array(z.object({ path: z.string(), existed: z.boolean(), mode: z.number().int() })),
  /** Folders the apply created (deepest first), removed again on rollback and undo. */
  created_dirs: z.array(z.string()).default([]),
});
export type Journal = z.infer<typeof Journal>;

export const JOURNAL = 'journal.json';
export const RECORD = 'record.json';

/** `before/<path>` (originals) and `after/<path>` (new bytes) of a revision. */
export const sidePath = (revDir: string, side: 'before' | 'after', rel: string) =>
  path.join(revDir, side, ...rel.split('/'));

export function readJournal(revDir: string): Journal | undefined {
  try {
    const parsed = Journal.safeParse(JSON.parse(fs.readFileSync(path.join(revDir, JOURNAL), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function writeJournal(revDir: string, journal: Journal): void {
  writeFileAtomicSync(path.join(revDir, JOURNAL), JSON.stringify(journal, null, 2));
}

export function readRecord(revDir: string): RepairRevision | undefined {
  try {
    const parsed = RepairRevision.safeParse(JSON.parse(fs.readFileSync(path.join(revDir, RECORD), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Writes bytes durably (fsync) to a new file, creating folders. */
export function writeDurable(file: string, data: Uint8Array | string, mode = 0o644): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'w', mode);
  try {
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.chmodSync(file, mode);
}

/** Temp name beside `file`, owned by one revision (recovery removes leftovers). */
export const tempFor = (file: string, revision: string) =>
  path.join(path.dirname(file), `.${path.basename(file)}.repair-${revision}.tmp`);

/** Replaces `file` with `data` in one rename (readers see the old bytes or the new, never half). */
export function swapIn(file: string, data: Uint8Array, mode: number, revision: string): void {
  const temp = tempFor(file, revision);
  writeDurable(temp, data, mode);
  fs.renameSync(temp, file);
}

/**
 * Puts every file of a revision back as it was before it (originals from `before/`, files
 * the revision created removed); a managed copy the revision created is moved out of the
 * skills folder. Idempotent, so a second interruption is recovered the same way.
 */
export function restoreBefore(revDir: string, revision: string, journal: Journal): void {
  if (journal.created_copy) {
    if (fs.existsSync(journal.target)) {
      const parked = path.join(revDir, 'removed-copy');
      fs.rmSync(parked, { recursive: true, force: true });
      fs.renameSync(journal.target, parked);
    }
    return;
  }
  for (const f of journal.files) {
    const file = path.join(journal.target, ...f.path.split('/'));
    fs.rmSync(tempFor(file, revision), { force: true });
    if (f.existed) swapIn(file, fs.readFileSync(sidePath(revDir, 'before', f.path)), f.mode, revision);
    else fs.rmSync(file, { force: true });
  }
  for (const dir of journal.created_dirs) {
    try {
      fs.rmdirSync(path.join(journal.target, ...dir.split('/')));
    } catch {
      // Not empty (something else was put there since) or already gone: leave it.
    }
  }
}

/**
 * Start-up recovery (run before the first scan, like `recoverInstalls`): an apply cut short
 * (`applying`) is rolled back so the skill is exactly as it was, and its revision folder is
 * dropped; an undo cut short (`undoing`) is finished. Returns the revisions it touched.
 */
export function recoverRepairs(
  home: string,
  now: () => Date = () => new Date(),
): { rolledBack: string[]; finished: string[] } {
  const root = path.join(home, 'repairs');
  const out = { rolledBack: [] as string[], finished: [] as string[] };
  const list = (dir: string) => {
    try {
      return fs
        .readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name);
    } catch {
      return [];
    }
  };
  for (const skill of list(root)) {
    for (const revision of list(path.join(root, skill))) {
      const revDir = path.join(root, skill, revision);
      const journal = readJournal(revDir);
      if (!journal) continue;
      if (journal.state === 'applying') {
        restoreBefore(revDir, revision, journal);
        fs.rmSync(revDir, { recursive: true, force: true });
        out.rolledBack.push(revision);
      } else if (journal.state === 'undoing') {
        restoreBefore(revDir, revision, journal);
        const record = readRecord(revDir);
        if (record)
          writeFileAtomicSync(
            path.join(revDir, RECORD),
            JSON.stringify({ ...record, undone_at: now().toISOString() }, null, 2),
          );
        writeJournal(revDir, { ...journal, state: 'undone' });
        out.finished.push(revision);
      }
    }
  }
  return out;
}
