import path from 'node:path';
import type {
  InstructionFinding,
  SearchedFolder,
  SkillDetail,
  SkillFile,
  SkillList,
  SkillMetadata,
  SkillSummary,
  ValidationReport,
} from '../../../shared/contract';
import { notFound } from '../errors';
import {
  discoveryRoots,
  resolveRoot,
  scanRootSync,
  skillFileProblem,
  type CatalogOptions,
  type FoundSkill,
} from './discovery';
import { completeDetail } from './detail';
import { readSkillFile } from './files';
import {
  interpretSkill,
  readSkillTexts,
  readSkillTextsSync,
  skillWithFileProblem,
  uninterpretableSkill,
  unreadableSkill,
  type InterpretedSkill,
  type SkillLocation,
} from './loadSkill';
import { FlagCache } from './flagCache';
import { bodyHints } from './hints';
import { hasError } from './problems';
import { applyShadowing, type Shadowing } from './shadowing';
import { validateSkillDir } from './validator';

interface Entry {
  location: SkillLocation;
  summary: SkillSummary;
  metadata: SkillMetadata;
  /** SKILL.md's mtime, read by `reload()` only (0 at start-up, where it measured too costly). */
  mtimeMs: number;
  /** The start of the body the scan read; the router's hints are extracted from it on first use. */
  bodyHead: string;
  hints?: string[];
  /** SKILL.md's first danger line, once read (`flagged()`); undefined until then. */
  flag?: InstructionFinding | null;
}

export type SkillsDiff = { added: string[]; removed: string[]; changed: string[] };

/**
 * Every skill of every discovery folder (DESIGN §2). Start-up reads SKILL.md frontmatter
 * and sidecars only; body, file tree and content hash load in `get()`. Ids are skill
 * folder paths, and only ids found by the scan are accepted.
 */
export class SkillCatalog {
  private entries = new Map<string, Entry>();
  private folders: SearchedFolder[] = [];
  private scannedAt = 0;
  private generation = 0;
  private readonly flagCache: FlagCache;

  private constructor(private readonly options: CatalogOptions) {
    this.flagCache = new FlagCache(options.home);
  }

  /** Discovers and loads the frontmatter of every skill. */
  static async open(options: CatalogOptions): Promise<SkillCatalog> {
    const catalog = new SkillCatalog(options);
    catalog.scan();
    return catalog;
  }

  private get platform(): NodeJS.Platform {
    return this.options.platform ?? process.platform;
  }

  /** Bumped by every scan, so derived indexes (the router's) rebuild once per change. */
  get version(): number {
    return this.generation;
  }

  /** Every skill (discovery order: roots by precedence, then path order) and every folder searched. */
  list(): SkillList {
    return {
      skills: [...this.entries.values()].map((e) => e.summary),
      folders: this.folders.map((f) => ({ ...f })),
    };
  }

  /** The normalized metadata of a listed skill, for the router (no disk access). */
  metadata(id: string): SkillMetadata | undefined {
    return this.entries.get(id)?.metadata;
  }

  /** A listed skill's routing hints: headings and "When to use" lines of its body's start. */
  hints(id: string): string[] {
    const entry = this.entries.get(id);
    if (!entry) return [];
    // Extracted on first use (the router's index build), not in the start-up scan.
    entry.hints ??= bodyHints(entry.bodyHead);
    return entry.hints;
  }

  /** The start of a listed skill's body as the scan read it (the router indexes its words at a low weight). */
  bodyText(id: string): string {
    return this.entries.get(id)?.bodyHead ?? '';
  }

  /**
   * The first line of a listed skill's SKILL.md that asks the agent for a harmful act (the
   * instruction scan's `danger` findings), or null. Read on first use (the router's would-be
   * primary, the engine's list), not by the start-up scan: that reads only the start of each
   * SKILL.md, and scanning every whole file measured about 0.15 ms a skill. A file unchanged
   * since an earlier read (this process or another) is answered from the flag cache.
   */
  flagged(id: string): InstructionFinding | null {
    const entry = this.entries.get(id);
    if (!entry) return null;
    if (entry.flag === undefined)
      entry.flag = this.flagCache.read(entry.location.dir, entry.location.fileName);
    return entry.flag;
  }

  /** A listed skill's danger line when it was read already; undefined until then. */
  knownFlag(id: string): InstructionFinding | null | undefined {
    return this.entries.get(id)?.flag;
  }

  /**
   * Reads every danger line not read yet, a batch per turn of the event loop so that routing
   * and other requests keep flowing (the whole corpus takes about 0.7 s unread, 0.05 s from the
   * cache). Says which skills turned out flagged.
   */
  async readFlags(batch = 100): Promise<string[]> {
    const flagged: string[] = [];
    const pending = [...this.entries.keys()].filter((id) => this.entries.get(id)?.flag === undefined);
    for (let i = 0; i < pending.length; i += batch) {
      for (const id of pending.slice(i, i + batch)) if (this.flagged(id)) flagged.push(id);
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.flagCache.save();
    return flagged;
  }

  /** Re-scans every folder and says which ids appeared, disappeared or changed on disk. */
  async reload(): Promise<{ list: SkillList; diff: SkillsDiff }> {
    const before = this.entries;
    // Coarse file-system clocks (1–2 s) must not hide an edit made just after the last scan.
    const since = this.scannedAt - 2000;
    this.scan(true);
    const diff: SkillsDiff = { added: [], removed: [], changed: [] };
    for (const [id, entry] of this.entries) {
      const old = before.get(id);
      if (!old) diff.added.push(id);
      else if (
        entry.mtimeMs >= since ||
        JSON.stringify(old.summary) !== JSON.stringify(entry.summary) ||
        JSON.stringify(old.metadata) !== JSON.stringify(entry.metadata)
      ) {
        diff.changed.push(id);
      }
    }
    for (const id of before.keys()) if (!this.entries.has(id)) diff.removed.push(id);
    return { list: this.list(), diff };
  }

  /** Full detail of one skill, read fresh from disk. Unknown ids are `not_found`. */
  async get(id: string): Promise<SkillDetail> {
    const entry = this.known(id);
    let interpreted: InterpretedSkill;
    // Checked before reading: a pipe named SKILL.md would never finish reading.
    const fileProblem = skillFileProblem(path.join(id, entry.location.fileName));
    try {
      interpreted = fileProblem
        ? skillWithFileProblem(entry.location, fileProblem)
        : interpretSkill(entry.location, await readSkillTexts(entry.location), this.platform);
    } catch {
      throw notFound(`${entry.location.fileName} of ${id} can no longer be read; reload the skills.`);
    }
    const shadowing: Shadowing = {
      shadowedBy: entry.summary.shadowedBy,
      shadows: entry.summary.shadows,
      problems: entry.summary.problems.filter((p) => p.code === 'shadowed'),
    };
    const summary = toSummary(entry.location, interpreted, shadowing);
    return completeDetail(summary, interpreted, fileProblem ? undefined : entry.location.fileName);
  }

  /** One file of a skill, confined to its folder (`forbidden` otherwise). */
  async readFile(id: string, relPath: string): Promise<SkillFile> {
    this.known(id);
    return readSkillFile(id, relPath);
  }

  /** The strict reference validator's report for a listed skill. */
  async validate(id: string): Promise<ValidationReport> {
    this.known(id);
    return validateSkillDir(id);
  }

  private known(id: string): Entry {
    const entry = typeof id === 'string' ? this.entries.get(id) : undefined;
    if (!entry)
      throw notFound(`No skill with id "${String(id).slice(0, 200)}"; list the skills to get valid ids.`);
    return entry;
  }

  /** Scans synchronously: on the 3,483-skill corpus this measured faster than async fs. */
  private scan(withStat = false): void {
    const before = this.entries;
    // An edit within the file system's clock granularity of the last scan may keep its mtime.
    const settled = this.scannedAt - 2000;
    this.scannedAt = Date.now();
    const folders: SearchedFolder[] = [];
    const found: { skill: FoundSkill; rootIndex: number }[] = [];
    const realRoots = new Map<string, string>();
    const realSkills = new Set<string>();
    discoveryRoots(this.options).forEach((root, rootIndex) => {
      const folder: SearchedFolder = { path: root.path, source: root.source, exists: false, skillCount: 0 };
      folders.push(folder);
      const resolved = resolveRoot(root.path);
      folder.exists = resolved.exists;
      if (resolved.problem) folder.problems = [resolved.problem];
      if (!resolved.real) return;
      const first = realRoots.get(resolved.real);
      if (first !== undefined) {
        // The same folder under two names (e.g. the workspace is the app's own repo): searched once.
        folder.duplicateOf = first;
        return;
      }
      realRoots.set(resolved.real, root.path);
      const scan = scanRootSync(root.path, resolved.real, root.source);
      if (scan.problems.length > 0) folder.problems = [...(folder.problems ?? []), ...scan.problems];
      for (const skill of scan.skills) {
        // A root nested in another root, or a symlink, can reach one folder twice: keep the first.
        if (realSkills.has(skill.realDir)) continue;
        realSkills.add(skill.realDir);
        found.push({ skill, rootIndex });
        folder.skillCount++;
      }
    });

    const loaded = found.map(({ skill, rootIndex }) => {
      const location: SkillLocation = {
        dir: skill.dir,
        fileName: skill.fileName,
        root: skill.root,
        source: skill.source,
        skillYaml: skill.skillYaml,
        hasAgentsDir: skill.hasAgentsDir,
        hasScriptsDir: skill.hasScriptsDir,
      };
      let interpreted: InterpretedSkill;
      let mtimeMs = 0;
      let bodyHead = '';
      let read = false;
      if (skill.fileProblem) interpreted = skillWithFileProblem(location, skill.fileProblem);
      else {
        try {
          const texts = readSkillTextsSync(location, withStat);
          read = true;
          interpreted = interpretSkill(location, texts, this.platform);
          mtimeMs = texts.mtimeMs;
          bodyHead = texts.bodyHead ?? interpreted.body.slice(0, 4096);
        } catch (e) {
          const reason = e instanceof Error ? e.message : String(e);
          // Read, then refused outright: the file's content is at fault (YAML problems, alias bombs
          // included, come back as problems and never reach here).
          interpreted = read ? uninterpretableSkill(location, reason) : unreadableSkill(location, reason);
        }
      }
      return { location, interpreted, rootIndex, mtimeMs, bodyHead };
    });

    const shadowing = applyShadowing(
      loaded.map((l) => ({
        id: l.location.dir,
        name: l.interpreted.metadata.name,
        rootIndex: l.rootIndex,
        root: l.location.root,
        source: l.location.source,
      })),
    );
    const entries = new Map<string, Entry>();
    loaded.forEach((l, i) => {
      const summary = toSummary(l.location, l.interpreted, shadowing[i]);
      entries.set(l.location.dir, {
        location: l.location,
        summary,
        metadata: l.interpreted.metadata,
        mtimeMs: l.mtimeMs,
        bodyHead: l.bodyHead,
        // A SKILL.md last written before the previous scan (the rule reload() reports changes by)
        // keeps the danger line read from it: a reload rescans only what changed.
        flag: l.mtimeMs > 0 && l.mtimeMs < settled ? before.get(l.location.dir)?.flag : undefined,
      });
    });
    this.entries = entries;
    this.folders = folders;
    this.generation++;
  }
}

export function toSummary(
  location: SkillLocation,
  skill: InterpretedSkill,
  shadowing: Shadowing,
): SkillSummary {
  const m = skill.metadata;
  const problems = [...skill.problems, ...shadowing.problems];
  const summary: SkillSummary = {
    id: location.dir,
    name: m.name,
    description: m.description,
    path: location.dir,
    file: path.join(location.dir, location.fileName),
    source: location.source,
    root: location.root,
    type: m.type,
    triggers: m.triggers,
    tags: m.tags,
    // An error, an excluded OS, or a higher-precedence skill of the same name keeps it out of routing.
    routable: !hasError(problems) && !skill.osExcluded && shadowing.shadowedBy === undefined,
    problems,
    shadows: shadowing.shadows,
  };
  if (m.displayName !== undefined) summary.displayName = m.displayName;
  if (m.emoji !== undefined) summary.emoji = m.emoji;
  if (m.version !== undefined) summary.version = m.version;
  if (m.author !== undefined) summary.author = m.author;
  if (shadowing.shadowedBy !== undefined) summary.shadowedBy = shadowing.shadowedBy;
  return summary;
}
