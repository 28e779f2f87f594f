import fs from 'node:fs';
import path from 'node:path';
import { RunRecord, type RunSummary } from '../../../shared/contract';
import { writeFileAtomicSync } from '../atomic';
import { notFound } from '../errors';
import { removeTree } from './workdir';

/** How many runs the Runs view keeps; older run folders (and their outputs) are removed. */
export const KEEP_RUNS = 200;

/**
 * Run records (`$SKILLDECK_HOME/runs/<run_id>/record.json`), written atomically at every
 * transition so a crash keeps the timeline so far. Run ids sort by start time.
 */
export class RunStore {
  private readonly live = new Map<string, RunRecord>();

  constructor(private readonly dir: string) {}

  static at(home: string): RunStore {
    return new RunStore(path.join(home, 'runs'));
  }

  private file(runId: string): string {
    return path.join(this.dir, runId, 'record.json');
  }

  save(record: RunRecord): void {
    const id = record.summary.run_id;
    if (record.result) this.live.delete(id);
    else this.live.set(id, record);
    writeFileAtomicSync(this.file(id), `${JSON.stringify(record)}\n`);
  }

  get(runId: string): RunRecord {
    const live = this.live.get(runId);
    if (live) return live;
    if (!/^[\w-]+$/.test(runId)) throw notFound(`No run "${runId.slice(0, 128)}".`);
    try {
      const parsed = RunRecord.safeParse(JSON.parse(fs.readFileSync(this.file(runId), 'utf8')));
      if (parsed.success) return parsed.data;
    } catch {
      // Falls through to not_found.
    }
    throw notFound(`No run "${runId.slice(0, 128)}".`);
  }

  list(limit: number): RunSummary[] {
    const out: RunSummary[] = [];
    for (const id of this.ids().reverse()) {
      if (out.length >= limit) break;
      try {
        out.push(this.get(id).summary);
      } catch {
        // A run folder without a readable record (crash before the first write) is skipped.
      }
    }
    return out;
  }

  /** Remove the oldest runs past `KEEP_RUNS` (never one under way). */
  prune(keep = KEEP_RUNS): void {
    const ids = this.ids();
    for (const id of ids.slice(0, Math.max(0, ids.length - keep))) {
      if (this.live.has(id)) continue;
      // A script may have locked folders of its run (chmod 500): removed anyway, never a throw that stops new runs.
      removeTree(path.join(this.dir, id));
    }
  }

  private ids(): string[] {
    try {
      return fs
        .readdirSync(this.dir, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort();
    } catch {
      return [];
    }
  }
}
