import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from '../atomic';
import { withFileLock } from '../fileLock';

const SkillRuns = z.object({ runs: z.number().int().min(0), successes: z.number().int().min(0) });
const StatsFile = z.object({ version: z.literal(1), skills: z.record(z.string(), SkillRuns) });
export type SkillRuns = z.infer<typeof SkillRuns>;

/**
 * Per-skill run counts, keyed by skill name (`$SKILLDECK_HOME/stats.json`), written
 * atomically (DESIGN §6). They feed success_rate and the cold-start rule.
 */
export class SkillStats {
  private data: z.infer<typeof StatsFile> = { version: 1, skills: {} };

  constructor(readonly file: string) {
    this.load();
  }

  private load(): void {
    try {
      const parsed = StatsFile.safeParse(JSON.parse(fs.readFileSync(this.file, 'utf8')));
      if (parsed.success) this.data = parsed.data;
    } catch {
      // Missing or unreadable: start from no history (success_rate's 0.5 prior).
    }
  }

  static at(home: string): SkillStats {
    return new SkillStats(path.join(home, 'stats.json'));
  }

  get(name: string): SkillRuns {
    return this.data.skills[name] ?? { runs: 0, successes: 0 };
  }

  /**
   * Record one run's outcome and persist. The file is read again under its lock first: another
   * process (the app, a second CLI) may have counted runs since this one read it.
   */
  record(name: string, success: boolean): SkillRuns {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    return withFileLock(`${this.file}.lock`, () => {
      this.load();
      const current = this.get(name);
      const next = { runs: current.runs + 1, successes: current.successes + (success ? 1 : 0) };
      this.data = { ...this.data, skills: { ...this.data.skills, [name]: next } };
      writeFileAtomicSync(this.file, `${JSON.stringify(this.data, null, 2)}\n`);
      return next;
    });
  }
}
