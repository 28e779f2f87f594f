import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { InstructionFinding } from '../../../shared/contract';
import { writeFileAtomicSync } from '../atomic';
import { DANGER_RULES_ID, readDangerLine } from '../install/instructions';

/** A SKILL.md as the last read found it: its size and times, and the danger line it held. */
const Cached = z.object({
  size: z.number(),
  mtimeMs: z.number(),
  ctimeMs: z.number(),
  flag: InstructionFinding.nullable(),
});
type Cached = z.infer<typeof Cached>;

const CacheFile = z.object({ rules: z.string(), files: z.record(z.string(), z.unknown()) });

/** Files remembered at most; past this, the ones this process did not see are dropped first. */
const MAX_FILES = 20_000;

/**
 * A file written this close to its read could change again within the file system's clock tick
 * and keep its size and times (coarse clocks tick every 1–2 s): such a read is not remembered.
 * Its mtime says when: every write sets it to now. (A write that sets the mtime back, as an
 * unpacked archive does, still moves the ctime, which the cache compares.)
 */
const SETTLE_MS = 2000;

/**
 * The danger lines of SKILL.md files read before, in `$SKILLDECK_HOME/cache/skill-flags.json`,
 * by path with size, mtime and ctime. Listing the 3,449-file corpus read and scanned every file
 * on each start (0.7 s of a 2 s `skills list`); a stat is all an unchanged file costs now. The
 * cache is dropped whole when the danger rules or their code change (DANGER_RULES_ID), and any
 * entry that does not parse is read again, so a damaged cache costs time, never a missed flag.
 */
export class FlagCache {
  private files: Record<string, unknown> | null = null;
  private readonly seen = new Set<string>();
  private dirty = false;

  constructor(private readonly home: string) {}

  private get file(): string {
    return path.join(this.home, 'cache', 'skill-flags.json');
  }

  private load(): Record<string, unknown> {
    if (this.files) return this.files;
    try {
      const parsed = CacheFile.safeParse(JSON.parse(fs.readFileSync(this.file, 'utf8')));
      this.files = parsed.success && parsed.data.rules === DANGER_RULES_ID ? parsed.data.files : {};
    } catch {
      this.files = {};
    }
    return this.files;
  }

  /** `readDangerLine(dir, fileName)`, answered from the cache while the file is unchanged. */
  read(dir: string, fileName: string): InstructionFinding | null {
    const file = path.join(dir, fileName);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      return readDangerLine(dir, fileName);
    }
    const files = this.load();
    this.seen.add(file);
    const cached = Cached.safeParse(files[file]);
    if (
      cached.success &&
      cached.data.size === stat.size &&
      cached.data.mtimeMs === stat.mtimeMs &&
      cached.data.ctimeMs === stat.ctimeMs
    ) {
      return cached.data.flag;
    }
    const flag = readDangerLine(dir, fileName);
    if (Date.now() - stat.mtimeMs > SETTLE_MS) {
      files[file] = { size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, flag } satisfies Cached;
      this.dirty = true;
    } else if (file in files) {
      delete files[file];
      this.dirty = true;
    }
    return flag;
  }

  /** Writes what was read since the last save; a failed write leaves the lines to be read again. */
  save(): void {
    if (!this.dirty || !this.files) return;
    const keys = Object.keys(this.files);
    if (keys.length > MAX_FILES) {
      const unseen = keys.filter((key) => !this.seen.has(key));
      for (const key of unseen.slice(0, keys.length - MAX_FILES)) delete this.files[key];
    }
    try {
      writeFileAtomicSync(this.file, JSON.stringify({ rules: DANGER_RULES_ID, files: this.files }));
      this.dirty = false;
    } catch {
      // An unwritable home: the list still works, it reads the files again next time.
    }
  }
}
