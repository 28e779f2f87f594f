import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { RepairRevision } from '../../../shared/contract';
import { writeFileAtomicSync } from '../atomic';
import { EngineError, forbidden, notFound } from '../errors';
import { cleanRelPath, renderDiff, type FileChange } from './diffs';
import {
  readJournal,
  readRecord,
  RECORD,
  restoreBefore,
  sidePath,
  swapIn,
  writeDurable,
  writeJournal,
  type Journal,
} from './journal';
import { contentHashOf, isPatchable, sha256, skillFileIn } from './snapshot';

/** What to apply: final texts per file, bound to the content hash the proposal was made against. */
export interface ApplyRequest {
  skill: string;
  /** The folder the proposal was made against. */
  skillDir: string;
  /** `proposal.content_hash`: a skill that changed since makes the proposal stale. */
  contentHash: string;
  /** New text per file (`before` is informational; the bytes on disk are what is kept). */
  changes: FileChange[];
  /** The skill is bundled (read-only): it is copied into `$SKILLDECK_HOME/skills/<name>` and the copy is patched. */
  bundled: boolean;
  proposal: Pick<RepairRevision, 'source' | 'error_signature' | 'root_cause' | 'expected_effect'> & {
    id: string | null;
  };
}

const REVISION_RE = /^r-[0-9a-z-]{8,80}$/;

/** Folders (relative, deepest first) the files need that do not exist yet: undo removes them again. */
function missingDirs(dir: string, files: string[]): string[] {
  const out = new Set<string>();
  for (const f of files) {
    const parts = f.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      const rel = parts.slice(0, i).join('/');
      if (!fs.existsSync(path.join(dir, ...parts.slice(0, i)))) out.add(rel);
    }
  }
  return [...out].sort((a, b) => b.split('/').length - a.split('/').length);
}

/** A folder name for a skill's revisions: its name when that is already safe, else a safe form plus a hash. */
export function skillKey(name: string): string {
  const safe =
    name
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 64) || 'skill';
  return safe === name ? safe : `${safe}-${sha256(name).slice(0, 8)}`;
}

/** Test-only pause between file swaps (the kill test); 0 in normal use. */
async function testDelay(): Promise<void> {
  const ms = Number(process.env.SKILLDECK_TEST_REPAIR_DELAY_MS ?? 0);
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Revisions of repaired skills under `$SKILLDECK_HOME/repairs/<skill>/<revision>/`
 * (DESIGN §5, §6): originals and new bytes are written and fsynced first, the journal
 * marks the apply, files are swapped in by rename, and the journal's `committed` is the
 * commit point. `recoverRepairs` rolls back anything not committed.
 */
export class RevisionStore {
  readonly root: string;
  readonly managedRoot: string;

  constructor(
    readonly home: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.root = path.join(home, 'repairs');
    this.managedRoot = path.join(home, 'skills');
  }

  /** One apply or undo at a time: the stale check and the swaps must not interleave. */
  private queue: Promise<unknown> = Promise.resolve();
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Applies the changes as a new revision; refuses a stale proposal and unsafe paths, writing nothing. */
  apply(req: ApplyRequest): Promise<RepairRevision> {
    return this.serial(() => this.applyNow(req));
  }

  private async applyNow(req: ApplyRequest): Promise<RepairRevision> {
    const source = path.resolve(req.skillDir);
    const hashBefore = await contentHashOf(source);
    if (hashBefore !== req.contentHash)
      throw forbidden(
        `This proposal is stale: ${req.skill} changed since it was made, so it was not applied. Run the repair again on the skill as it is now.`,
      );
    if (req.changes.length === 0)
      throw new EngineError('invalid_params', 'Nothing to apply: no hunk was accepted.');
    const target = req.bundled ? path.join(this.managedRoot, path.basename(source)) : source;
    if (req.bundled && fs.existsSync(target))
      throw forbidden(
        `A managed skill already exists at ${target}; repair that one instead of the bundled copy.`,
      );
    const files = await Promise.all(req.changes.map((c) => this.inspect(source, c)));

    const revision = `r-${this.now().toISOString().replace(/[:.]/g, '-').toLowerCase()}-${randomBytes(3).toString('hex')}`;
    const revDir = path.join(this.root, skillKey(req.skill), revision);
    fs.mkdirSync(revDir, { recursive: true });
    for (const f of files) {
      if (f.before) writeDurable(sidePath(revDir, 'before', f.path), f.before);
      writeDurable(sidePath(revDir, 'after', f.path), f.after);
    }
    const journal: Journal = {
      state: 'applying',
      target,
      created_copy: req.bundled,
      files: files.map((f) => ({ path: f.path, existed: f.before !== null, mode: f.mode })),
      created_dirs: missingDirs(
        source,
        files.map((f) => f.path),
      ),
    };
    writeJournal(revDir, journal);
    try {
      if (req.bundled) {
        // Copy next to the journal first, then one rename into the skills folder.
        const staged = path.join(revDir, 'copy');
        await fsp.cp(source, staged, { recursive: true, verbatimSymlinks: true });
        fs.mkdirSync(this.managedRoot, { recursive: true });
        fs.renameSync(staged, target);
      }
      for (const f of files) {
        const file = path.join(target, ...f.path.split('/'));
        fs.mkdirSync(path.dirname(file), { recursive: true });
        swapIn(file, f.after, f.mode, revision);
        await testDelay();
      }
    } catch (error) {
      restoreBefore(revDir, revision, journal);
      fs.rmSync(revDir, { recursive: true, force: true });
      throw error;
    }
    const record: RepairRevision = {
      revision,
      skill: req.skill,
      skill_id: target,
      copied_from: req.bundled ? source : null,
      proposal_id: req.proposal.id,
      source: req.proposal.source,
      error_signature: req.proposal.error_signature,
      root_cause: req.proposal.root_cause,
      expected_effect: req.proposal.expected_effect,
      diff: renderDiff(
        files.map((f) => ({
          path: f.path,
          before: f.before?.toString('utf8') ?? null,
          after: f.after.toString('utf8'),
        })),
      ),
      files: files.map((f) => ({
        path: f.path,
        hash_before: f.before ? sha256(f.before) : null,
        hash_after: sha256(f.after),
      })),
      content_hash_before: hashBefore,
      content_hash_after: await contentHashOf(target),
      applied_at: this.now().toISOString(),
      undone_at: null,
    };
    writeFileAtomicSync(path.join(revDir, RECORD), JSON.stringify(record, null, 2));
    writeJournal(revDir, { ...journal, state: 'committed' });
    return record;
  }

  /** Checks one change's path and reads the current bytes and mode (never through a link). */
  private async inspect(dir: string, c: FileChange) {
    const checked = cleanRelPath(c.path);
    if (!checked.ok) throw forbidden(`Refused: ${checked.reason}`);
    if (!isPatchable(checked.path, skillFileIn(dir)))
      throw forbidden(`Refused: ${checked.path} is outside SKILL.md, scripts/ and references/.`);
    let at = dir;
    for (const segment of checked.path.split('/')) {
      at = path.join(at, segment);
      const st = await fsp.lstat(at).catch(() => undefined);
      if (st?.isSymbolicLink()) throw forbidden(`Refused: ${checked.path} goes through a symbolic link.`);
    }
    const st = await fsp.stat(at).catch(() => undefined);
    const before = st ? await fsp.readFile(at) : null;
    return {
      path: checked.path,
      before,
      after: Buffer.from(c.after, 'utf8'),
      mode: st ? st.mode & 0o777 : 0o644,
    };
  }

  /** Every committed revision of a skill (by name), newest first. */
  history(skill: string): RepairRevision[] {
    const dir = path.join(this.root, skillKey(skill));
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return [];
    }
    const out: RepairRevision[] = [];
    for (const name of names) {
      const journal = readJournal(path.join(dir, name));
      const record = readRecord(path.join(dir, name));
      if (record && journal && journal.state !== 'applying') out.push(record);
    }
    return out.sort((a, b) =>
      a.applied_at < b.applied_at
        ? 1
        : a.applied_at > b.applied_at
          ? -1
          : b.revision.localeCompare(a.revision),
    );
  }

  /** The folder of a revision, found by id across skills. */
  private locate(revision: string): string {
    if (!REVISION_RE.test(revision)) throw notFound(`No revision "${revision.slice(0, 100)}".`);
    for (const skill of fs.existsSync(this.root) ? fs.readdirSync(this.root) : []) {
      const dir = path.join(this.root, skill, revision);
      if (fs.existsSync(path.join(dir, RECORD))) return dir;
    }
    throw notFound(`No revision "${revision}"; list a skill's repair history to get valid ids.`);
  }

  /**
   * Undoes a revision: every file it changed goes back to its original bytes (files it
   * created are removed; a managed copy it created is moved out, so the bundled skill shows
   * again). Refused when a file changed since (a later repair or a hand edit): undo that first.
   */
  undo(revision: string): Promise<RepairRevision> {
    return this.serial(() => this.undoNow(revision));
  }

  private async undoNow(revision: string): Promise<RepairRevision> {
    const revDir = this.locate(revision);
    const record = readRecord(revDir);
    const journal = readJournal(revDir);
    if (!record || !journal) throw notFound(`Revision ${revision} has no readable record.`);
    if (journal.state === 'undone' || record.undone_at)
      throw forbidden(`Revision ${revision} is already undone.`);
    const changed: string[] = [];
    for (const f of record.files) {
      const bytes = await fsp.readFile(path.join(journal.target, ...f.path.split('/'))).catch(() => null);
      if (!bytes || sha256(bytes) !== f.hash_after) changed.push(f.path);
    }
    if (changed.length > 0)
      throw forbidden(
        `Cannot undo ${revision}: ${changed.join(', ')} changed after it (by a later repair or by hand). Undo the later revision first, or restore the file yourself.`,
      );
    writeJournal(revDir, { ...journal, state: 'undoing' });
    restoreBefore(revDir, revision, journal);
    const undone = { ...record, undone_at: this.now().toISOString() };
    writeFileAtomicSync(path.join(revDir, RECORD), JSON.stringify(undone, null, 2));
    writeJournal(revDir, { ...journal, state: 'undone' });
    return undone;
  }
}
