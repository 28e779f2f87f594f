import fs from 'node:fs';
import path from 'node:path';
import { RepairTransition } from '../../../shared/contract';

/** A run id as the executor makes them; anything else is never a file name. */
const RUN_ID = /^[0-9A-Za-z][0-9A-Za-z_-]{0,127}$/;
const ENDS = new Set<RepairTransition['state']>(['success', 'fallback']);

/**
 * Each failed run's repair transitions, append-only JSONL under
 * `$SKILLDECK_HOME/repairs/_transitions/<run>.jsonl`, so the run's timeline shows its repairs
 * after a restart too. A repair the process never finished reads as stopped, not as running.
 */
export class TransitionLog {
  readonly dir: string;

  constructor(home: string) {
    this.dir = path.join(home, 'repairs', '_transitions');
  }

  append(t: RepairTransition): void {
    if (!RUN_ID.test(t.run_id)) return;
    try {
      fs.mkdirSync(this.dir, { recursive: true });
      fs.appendFileSync(path.join(this.dir, `${t.run_id}.jsonl`), `${JSON.stringify(t)}\n`, {
        mode: 0o600,
      });
    } catch {
      // A full or read-only disk loses the history, never the repair itself.
    }
  }

  /**
   * What an earlier process recorded for this run, in order; unreadable lines are skipped. A
   * repair without its final state was cut off by a restart and gets one, in memory only.
   */
  read(runId: string): RepairTransition[] {
    if (!RUN_ID.test(runId)) return [];
    let text: string;
    try {
      text = fs.readFileSync(path.join(this.dir, `${runId}.jsonl`), 'utf8');
    } catch {
      return [];
    }
    const list = text.split('\n').flatMap((line) => {
      if (!line.trim()) return [];
      try {
        const parsed = RepairTransition.safeParse(JSON.parse(line));
        return parsed.success && parsed.data.run_id === runId ? [parsed.data] : [];
      } catch {
        return [];
      }
    });
    const last = new Map<string, RepairTransition>();
    for (const t of list) last.set(t.repair_id, t);
    for (const t of last.values())
      if (!ENDS.has(t.state))
        list.push({
          ...t,
          seq: t.seq + 1,
          state: 'fallback',
          detail: 'The repair stopped when SkillDeck closed; start it again to continue.',
          duration_ms: undefined,
        });
    return list;
  }
}
