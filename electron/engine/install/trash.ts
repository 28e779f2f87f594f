import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { TrashItem } from '../../../shared/contract';
import { writeFileAtomicSync } from '../atomic';
import { EngineError, notFound } from '../errors';

/** `manifest.json` of a trash item; `pending` is set while a replace is half done. */
const Manifest = TrashItem.extend({ pending: z.boolean().optional() });
type Manifest = z.infer<typeof Manifest>;

const ID_RE = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * `$SKILLDECK_HOME/trash/<trashId>/{manifest.json, skill/}`: removed and replaced skills,
 * restorable until emptied. The manifest is written before the skill moves in, so a kill
 * between the two steps is repaired by `recover()` at the next start.
 */
export class Trash {
  constructor(readonly dir: string) {}

  private itemDir(trashId: string): string {
    if (!ID_RE.test(trashId) || trashId.startsWith('.')) throw notFound(`No trash item "${trashId}".`);
    return path.join(this.dir, trashId);
  }

  /**
   * Moves `skillDir` into the trash (one rename). With `pending`, the manifest stays marked
   * until `settle()`: a crash before then puts the skill back at start-up.
   */
  put(
    skillDir: string,
    name: string,
    version: string | undefined,
    reason: Manifest['reason'],
    pending = false,
  ): TrashItem {
    const trashId = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
    const dir = path.join(this.dir, trashId);
    fs.mkdirSync(dir, { recursive: true });
    const item: TrashItem = {
      trashId,
      name,
      originalPath: skillDir,
      removedAt: new Date().toISOString(),
      reason,
    };
    if (version !== undefined) item.version = version;
    writeFileAtomicSync(path.join(dir, 'manifest.json'), JSON.stringify({ ...item, pending }, null, 2));
    fs.renameSync(skillDir, path.join(dir, 'skill'));
    return item;
  }

  /** Marks a pending replace as complete. */
  settle(item: TrashItem): void {
    writeFileAtomicSync(path.join(this.dir, item.trashId, 'manifest.json'), JSON.stringify(item, null, 2));
  }

  read(trashId: string): TrashItem & { skillDir: string } {
    const dir = this.itemDir(trashId);
    const manifest = this.manifest(dir);
    if (!manifest) throw notFound(`No trash item "${trashId}"; list the trash to get valid ids.`);
    const { pending: _p, ...item } = manifest;
    return { ...item, skillDir: path.join(dir, 'skill') };
  }

  private manifest(dir: string): Manifest | undefined {
    try {
      const parsed = Manifest.safeParse(JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')));
      if (parsed.success) return parsed.data;
    } catch {
      // Missing or not JSON: no item here.
    }
    return undefined;
  }

  /** Every item, newest first. */
  list(): TrashItem[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return [];
    }
    const items: TrashItem[] = [];
    for (const name of names) {
      const m = this.manifest(path.join(this.dir, name));
      if (!m || m.pending || !fs.existsSync(path.join(this.dir, name, 'skill'))) continue;
      const { pending: _p, ...item } = m;
      items.push(item);
    }
    return items.sort((a, b) => b.removedAt.localeCompare(a.removedAt));
  }

  /** Moves an item's skill back to `target` (must not exist) and drops the item. */
  takeOut(trashId: string, target: string): void {
    const item = this.read(trashId);
    if (fs.existsSync(target)) throw new EngineError('forbidden', `${target} already exists.`);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.renameSync(item.skillDir, target);
    this.drop(path.dirname(item.skillDir));
  }

  /** Deletes one item, or all; returns how many went. */
  empty(trashId?: string): number {
    const ids = trashId ? [this.read(trashId).trashId] : this.list().map((i) => i.trashId);
    for (const id of ids) this.drop(path.join(this.dir, id));
    return ids.length;
  }

  /**
   * Start-up repair of replaces cut short: a pending item whose original place is empty
   * goes back there; one whose new version landed is settled; an empty one is dropped.
   */
  recover(): void {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      const dir = path.join(this.dir, name);
      const m = this.manifest(dir);
      if (!m?.pending) continue;
      const skill = path.join(dir, 'skill');
      const { pending: _p, ...item } = m;
      if (!fs.existsSync(skill)) this.drop(dir);
      else if (!fs.existsSync(m.originalPath)) {
        fs.renameSync(skill, m.originalPath);
        this.drop(dir);
      } else this.settle(item);
    }
  }

  /** Deletes an item's folder, which was just read or listed. */
  private drop(dir: string): void {
    fs.rmSync(dir, {
      recursive: true,
      // Stryker disable next-line BooleanLiteral: force only matters if another process removed the folder meanwhile
      force: true,
    });
  }
}
