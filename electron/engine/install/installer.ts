import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type {
  Events,
  InstalledSkill,
  InstallPreview,
  InstallResult,
  InstallSource,
  PreviewSource,
  TrashItem,
} from '../../../shared/contract';
import { InstallName } from '../../../shared/contract';
import { EngineError, forbidden, notFound } from '../errors';
import { removeTree, testDelay } from './limits';
import { describeStaged, installFolderName, publicCandidate, type StagedCandidate } from './preview';
import { stageSource } from './stage';
import { Trash } from './trash';

interface Staged {
  dir: string;
  source: PreviewSource;
  candidates: StagedCandidate[];
}

export interface InstallerDeps {
  home: string;
  /** Version of a listed skill, for conflicts and trash manifests. */
  versionOf(dir: string): string | undefined;
  progress(payload: Events['install.progress']): void;
  /** A listed skill of this name outside the managed folder (bundled, the user's, a project's). */
  listedElsewhere?(name: string): { path: string; source: string } | undefined;
}

type Selection = { name: string; onConflict: 'replace' | 'rename' | 'cancel'; newName?: string };

/**
 * Installs into `$SKILLDECK_HOME/skills` through `$SKILLDECK_HOME/staging` (issue 3):
 * preview stages and describes, commit renames each chosen skill into place atomically,
 * a replaced or removed skill goes to the trash. `recoverInstalls` at start-up makes a
 * kill at any point leave the previous version intact.
 */
export class Installer {
  readonly skillsRoot: string;
  readonly stagingRoot: string;
  readonly trash: Trash;
  private readonly previews = new Map<string, Staged>();

  constructor(private readonly deps: InstallerDeps) {
    this.skillsRoot = path.join(deps.home, 'skills');
    this.stagingRoot = path.join(deps.home, 'staging');
    this.trash = new Trash(path.join(deps.home, 'trash'));
  }

  /** Stages `source` and describes every skill in it; nothing is installed. */
  async preview(
    source: InstallSource,
    previewId = randomBytes(9).toString('base64url'),
  ): Promise<InstallPreview> {
    if (this.previews.has(previewId))
      throw new EngineError('invalid_params', `Preview ${previewId} already exists.`);
    const dir = path.join(this.stagingRoot, previewId);
    await fsp.mkdir(dir, { recursive: true });
    await fsp.writeFile(path.join(dir, 'owner.json'), JSON.stringify({ pid: process.pid }));
    try {
      const tree = await stageSource(source, dir, (phase, done, total, message) =>
        this.deps.progress({ previewId, phase, done, total, message }),
      );
      this.deps.progress({ previewId, phase: 'scanning', done: 0, total: 0, message: 'Reading the skills' });
      const candidates = await describeStaged(
        tree,
        {
          skillsRoot: this.skillsRoot,
          versionOf: this.deps.versionOf,
          listedElsewhere: this.deps.listedElsewhere,
        },
        sourceName(source),
      );
      if (candidates.length === 0)
        throw new EngineError('invalid_params', 'No skill found: the source holds no SKILL.md.');
      // An upload is named by its file name only: its bytes are not sent back.
      const shown: PreviewSource =
        source.kind === 'upload' ? { kind: 'upload', fileName: source.fileName } : source;
      this.previews.set(previewId, { dir, source: shown, candidates });
      this.deps.progress({
        previewId,
        phase: 'done',
        done: 1,
        total: 1,
        message: `${candidates.length} skill(s) found`,
      });
      return {
        previewId,
        source: shown,
        candidates: candidates.map(publicCandidate),
        totalBytes: candidates.reduce((sum, c) => sum + c.totalBytes, 0),
        fileCount: candidates.reduce((sum, c) => sum + c.files.length, 0),
      };
    } catch (error) {
      await removeTree(dir);
      throw error;
    }
  }

  /** Drops a preview and its staging dir. */
  async cancel(previewId: string): Promise<boolean> {
    const staged = this.previews.get(previewId);
    if (!staged) return false;
    this.previews.delete(previewId);
    await removeTree(staged.dir);
    return true;
  }

  /** Drops every open preview (engine close): nothing staged outlives its process. */
  async cancelAll(): Promise<void> {
    await Promise.all([...this.previews.keys()].map((id) => this.cancel(id)));
  }

  /** Installs the chosen candidates: one atomic rename each; replaced ones go to the trash first. */
  async commit(previewId: string, select: Selection[]): Promise<InstallResult> {
    const staged = this.previews.get(previewId);
    if (!staged) throw notFound(`No preview "${previewId}"; it was committed, cancelled or never made.`);
    const result: InstallResult = { installed: [], skipped: [] };
    // Selections name candidates; of several with one name, each selection takes the next.
    const taken = new Set<StagedCandidate>();
    try {
      await testDelay();
      for (const sel of select) {
        const candidate = staged.candidates.find((c) => c.name === sel.name && !taken.has(c));
        if (!candidate) {
          result.skipped.push({ name: sel.name, reason: 'No candidate of that name in this preview.' });
          continue;
        }
        taken.add(candidate);
        const first = staged.candidates.find((c) => c.name === sel.name)!;
        if (first !== candidate && !sel.newName) {
          result.skipped.push({
            name: sel.name,
            reason: `This skill (${candidate.sourcePath || '.'}/) has the same name as the one at ${first.sourcePath || '.'}/ in this source, installed under that name; it was not installed.`,
          });
          continue;
        }
        const outcome = await this.installOne(candidate, sel);
        if ('reason' in outcome) result.skipped.push({ name: sel.name, reason: outcome.reason });
        else result.installed.push(outcome);
      }
    } finally {
      this.previews.delete(previewId);
      await removeTree(staged.dir);
    }
    return result;
  }

  private async installOne(c: StagedCandidate, sel: Selection): Promise<InstalledSkill | { reason: string }> {
    let name = sel.newName ?? c.name;
    let target = path.join(this.skillsRoot, name);
    if (fs.existsSync(target) && sel.onConflict === 'rename' && !sel.newName) {
      for (let i = 2; fs.existsSync(target); i++)
        target = path.join(this.skillsRoot, (name = `${c.name}-${i}`));
    }
    if (!InstallName.safeParse(name).success)
      return {
        reason: `"${name}" is not a valid skill name; install it under a new name (lowercase, digits, hyphens), such as "${installFolderName(name)}".`,
      };
    if (!fs.existsSync(c.stagedDir))
      return { reason: 'It was inside another selected skill, installed with it.' };
    if (name !== c.metadata.name) await renameInSkillMd(c.stagedDir, name);
    await fsp.mkdir(this.skillsRoot, { recursive: true });
    let backup: TrashItem | undefined;
    if (fs.existsSync(target)) {
      if (sel.onConflict !== 'replace')
        return { reason: `A managed skill named ${name} already exists (${target}).` };
      // Journaled: a kill between these two renames is undone at the next start (Trash.recover).
      backup = this.trash.put(target, name, this.deps.versionOf(target), 'replaced', true);
      await testDelay();
    }
    fs.renameSync(c.stagedDir, target);
    if (backup) this.trash.settle(backup);
    const installed = { id: target, name, path: target };
    return backup
      ? {
          ...installed,
          replacedBackup: {
            trashId: backup.trashId,
            path: path.join(this.trash.dir, backup.trashId, 'skill'),
          },
        }
      : installed;
  }

  /** Moves a managed skill to the trash; anything else is `forbidden`, naming where it lives. */
  remove(id: string, name: string, source: string): TrashItem {
    const real = path.resolve(id);
    if (source !== 'managed' || path.dirname(real) !== this.skillsRoot)
      throw forbidden(
        `${name} is not a managed skill: it lives in ${real} (${source}). Only skills installed by SkillDeck (in ${this.skillsRoot}) can be removed here; delete that folder yourself.`,
      );
    return this.trash.put(real, name, this.deps.versionOf(real), 'removed');
  }

  /** Puts a trashed skill back; a skill now in its place is moved to the trash (swap, nothing lost). */
  restore(trashId: string): { id: string; name: string; replaced?: TrashItem } {
    const item = this.trash.read(trashId);
    const replaced = fs.existsSync(item.originalPath)
      ? this.trash.put(item.originalPath, item.name, this.deps.versionOf(item.originalPath), 'replaced')
      : undefined;
    this.trash.takeOut(trashId, item.originalPath);
    return { id: item.originalPath, name: item.name, ...(replaced ? { replaced } : {}) };
  }
}

/**
 * Start-up repair, run before the first scan: removes staging dirs whose owning process is
 * gone (a kill or crash mid-install) and finishes or undoes replaces cut short.
 */
export function recoverInstalls(home: string): void {
  const stagingRoot = path.join(home, 'staging');
  // Stryker disable next-line ArrayDeclaration: a name that is not there is skipped by rmSync's force
  const names = fs.existsSync(stagingRoot) ? fs.readdirSync(stagingRoot) : [];
  for (const name of names) {
    const dir = path.join(stagingRoot, name);
    // force: another SkillDeck process starting on the same home may be removing it too.
    if (!alive(ownerPid(dir))) fs.rmSync(dir, { recursive: true, force: true });
  }
  new Trash(path.join(home, 'trash')).recover();
}

/** The source's own name, lowercased to a skill name: folder, archive (no extension) or repo. */
function sourceName(source: InstallSource): string {
  const raw =
    source.kind === 'git'
      ? (source.subpath ?? source.url)
      : source.kind === 'upload'
        ? source.fileName
        : source.path;
  // basename drops trailing slashes; a backslash on POSIX becomes a hyphen below.
  const base = path.basename(raw).replace(/\.(zip|skill|git)$/i, '');
  return (
    base
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'skill'
  );
}

function ownerPid(dir: string): number {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dir, 'owner.json'), 'utf8')) as { pid: number }).pid;
  } catch {
    return 0;
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Rewrites the frontmatter's `name:` line, or adds one, so an install under a new name is
 * valid (name = folder). Only the frontmatter: a `name:` line in the body is prose.
 */
async function renameInSkillMd(dir: string, name: string): Promise<void> {
  const file = path.join(dir, 'SKILL.md');
  // Stryker disable next-line StringLiteral: any text without a frontmatter is left alone, the empty one too
  const text = await fsp.readFile(file, 'utf8').catch(() => '');
  const open = /^\uFEFF?---\r?\n/.exec(text);
  if (!open) return;
  const rest = text.slice(open[0].length);
  const end = rest.search(/^---[ \t]*\r?$/m);
  const yaml = end < 0 ? rest : rest.slice(0, end);
  const renamed = /^name:.*/m.test(yaml)
    ? yaml.replace(/^name:.*/m, `name: ${name}`)
    : `name: ${name}\n${yaml}`;
  await fsp.writeFile(file, open[0] + renamed + rest.slice(yaml.length));
}
