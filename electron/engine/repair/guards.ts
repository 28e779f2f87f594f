import path from 'node:path';
import { REPAIR_BUDGET, type RepairBudgetUsed } from '../../../shared/contract';
import { scriptLanguage } from '../skills/files';
import { splitFrontmatter } from '../skills/frontmatter';
import { validateSkillDir } from '../skills/validator';
import { parseYamlLenient } from '../skills/yamlLenient';
import {
  applyFilePatch,
  cleanName,
  cleanRelPath,
  diffStats,
  hunksBetween,
  type FileChange,
  type FilePatch,
} from './diffs';
import { isPatchable, type SkillSnapshot } from './snapshot';

/** Routing spec §13 budget; shared so the review window shows the same limits. */
export { REPAIR_BUDGET };

export type RefusalCode =
  | 'path'
  | 'outside'
  | 'link'
  | 'delete'
  | 'rename'
  | 'executable'
  | 'binary'
  | 'apply'
  | 'empty'
  | 'name'
  | 'policy'
  | 'frontmatter'
  | 'budget'
  | 'validator';

/** Why a patch is refused; nothing has been written when one is returned. */
export interface Refusal {
  ok: false;
  code: RefusalCode;
  reason: string;
}

const refuse = (code: RefusalCode, reason: string): Refusal => ({ ok: false, code, reason });

/**
 * Frontmatter keys a repair may not change (routing spec §12: never the permission or
 * security policy; DESIGN §5: `name` unchanged). `entrypoints` and `always` decide what
 * runs and when, and `disable-model-invocation` (or `invocation.implicit`) who may start it
 * (the user only, for a skill with side effects), so they count as execution policy.
 */
export const PROTECTED_KEYS = [
  'name',
  'permissions',
  'execution_policy',
  'approval',
  'timeout',
  'dangerous',
  'confirm',
  'allowed-tools',
  'allowed_tools',
  'entrypoints',
  'mode',
  'always',
  'disable-model-invocation',
  'invocation.implicit',
  'metadata.openclaw.always',
  'metadata.openclaw.install',
  'metadata.clawdbot.always',
  'metadata.clawdbot.install',
];

/**
 * A relative path written from a folder above the skill (`csv-total/scripts/x.py`, or
 * `skills/csv-total/…` as the run's paths show it): the part after the skill's folder name or
 * its name, when that is one of its files, as `patch -p` strips leading folders. Anything else
 * (absolute, `..`, not a file of the skill) is left for `cleanRelPath` and the rules to judge.
 */
function fromAbove(skill: SkillSnapshot, name: string): string {
  const segments = name.split('/');
  if (name.startsWith('/') || segments.includes('..') || skill.listing.includes(name)) return name;
  const names = new Set([path.basename(skill.dir), skill.metadata.name]);
  for (let i = segments.length - 2; i >= 0; i--) {
    const rest = segments.slice(i + 1).join('/');
    if (names.has(segments[i]) && skill.listing.includes(rest)) return rest;
  }
  return name;
}

/**
 * Turns parsed file patches into whole-file changes against the snapshot, refusing anything
 * outside `SKILL.md`, `scripts/**`, `references/**`, absolute or `..` paths, links, deletes,
 * renames, mode changes, new files under `scripts/`, binary files, and hunks that do not
 * apply cleanly. `keep` filters hunks by global index (file order, as `numberHunks`).
 */
export function resolvePatch(
  skill: SkillSnapshot,
  files: FilePatch[],
  keep?: ReadonlySet<number>,
): { ok: true; changes: FileChange[] } | Refusal {
  const current = new Map<string, FileChange>();
  let globalIndex = 0;
  for (const f of files) {
    // The old side too: a rename's old name is refused as a path before the rename is.
    const old = cleanName(f.rawOld, 'a');
    const checkedOld = old === null ? null : cleanRelPath(fromAbove(skill, old));
    if (checkedOld?.ok === false) return refuse('path', `Refused: ${checkedOld.reason}`);
    const checked = cleanRelPath(fromAbove(skill, f.path));
    if (!checked.ok) return refuse('path', `Refused: ${checked.reason}`);
    const rel = checked.path;
    if (!isPatchable(rel, skill.skillFile))
      return refuse(
        'outside',
        `Refused: it touches ${rel}; a repair may only change ${skill.skillFile}, scripts/* and references/*.`,
      );
    if (skill.links.has(rel))
      return refuse('link', `Refused: ${rel} is a symbolic link; repairs never write through links.`);
    // A folder on the way that is a link (references/ → elsewhere) would take the write out of the skill.
    const linkedDir = rel
      .split('/')
      .slice(0, -1)
      .map((_s, i, parts) => parts.slice(0, i + 1).join('/'))
      .find((dir) => skill.links.has(dir));
    if (linkedDir)
      return refuse(
        'link',
        `Refused: ${rel} goes through ${linkedDir}, a symbolic link; repairs never write through links.`,
      );
    if (f.isDelete) return refuse('delete', `Refused: it deletes ${rel}; a repair only edits files.`);
    if (f.isRename && checkedOld?.path !== rel)
      return refuse(
        'rename',
        `Refused: it renames ${f.rawOld} to ${f.rawNew}; a repair only edits files in place.`,
      );
    if (f.isBinary) return refuse('binary', `Refused: it changes the binary file ${rel}.`);
    if (f.newMode !== undefined && f.newMode !== (f.oldMode ?? '100644'))
      return refuse(
        'executable',
        `Refused: it changes the mode of ${rel} to ${f.newMode}; a repair never adds executables.`,
      );
    const exists = skill.listing.includes(rel) || current.has(rel);
    // First: a hunk with old lines edits a file; when the file is missing the model guessed its
    // name, which is a miss it may correct, not a new script that ends the repair.
    if (!exists && !f.isCreate && f.hunks.some((h) => h.oldLines > 0))
      return refuse('apply', `Refused: ${rel} does not exist in the skill, so the patch does not apply.`);
    // Any file under scripts/ that does not exist yet is a new executable, however the diff spells it.
    if (rel.startsWith('scripts/') && !exists)
      return refuse('executable', `Refused: it adds the new script ${rel}; a repair never adds executables.`);
    const base = current.get(rel)?.after ?? (exists ? skill.texts.get(rel) : '');
    if (base === undefined) return refuse('binary', `Refused: ${rel} is binary or too large to patch.`);
    const start = globalIndex;
    globalIndex += f.hunks.length;
    const after = applyFilePatch(base, f.hunks, keep ? (i) => keep.has(start + i) : undefined);
    if (after === null)
      return refuse(
        'apply',
        `Refused: the patch for ${rel} does not apply cleanly to the skill as it is now.`,
      );
    const before = current.get(rel)?.before ?? (exists ? (skill.texts.get(rel) ?? null) : null);
    current.set(rel, { path: rel, before, after });
  }
  const changes = [...current.values()].filter((c) => c.before !== c.after);
  return { ok: true, changes };
}

/** Whole new texts (the user edited the proposed side) checked like a patch: paths and place. */
export function resolveEdits(
  skill: SkillSnapshot,
  base: FileChange[],
  edited: { path: string; content: string }[],
): { ok: true; changes: FileChange[] } | Refusal {
  const byPath = new Map(base.map((c) => [c.path, c]));
  for (const e of edited) {
    const checked = cleanRelPath(e.path);
    if (!checked.ok) return refuse('path', `Refused: ${checked.reason}`);
    const existing = byPath.get(checked.path);
    if (!existing) return refuse('outside', `Refused: ${checked.path} is not one of this proposal's files.`);
    byPath.set(checked.path, { ...existing, after: e.content });
  }
  return { ok: true, changes: [...byPath.values()].filter((c) => c.before !== c.after) };
}

/** Frontmatter mapping of a SKILL.md text, read by the same lenient reader as the loader. */
function frontmatterOf(text: string): { found: boolean; ok: boolean; data: Record<string, unknown> } {
  const split = splitFrontmatter(text);
  if (!split.found) return { found: false, ok: true, data: {} };
  const y = parseYamlLenient(split.yaml, split.lineOffset);
  return { found: true, ok: y.ok, data: y.data };
}

function pick(data: Record<string, unknown>, dotted: string): unknown {
  let v: unknown = data;
  for (const key of dotted.split('.')) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

const shebangOf = (text: string | null) =>
  text && text.startsWith('#!') ? text.split(/\r?\n/, 1)[0].trim() : null;

/** Whether the skill's tools would run this text as a script (`run_skill_script` takes any of its files). */
const runnable = (rel: string, text: string | null) =>
  text !== null && scriptLanguage(rel, Buffer.from(text.slice(0, 200))) !== undefined;

/**
 * What a change may not do to content: change the frontmatter `name`, touch permissions or
 * execution policy, break a frontmatter that parsed before, add / change a script's shebang,
 * or make a file runnable that was not.
 */
export function checkContent(skill: SkillSnapshot, changes: FileChange[]): Refusal | null {
  if (changes.length === 0) return refuse('empty', 'Refused: the patch changes nothing.');
  for (const c of changes) {
    if (c.path === skill.skillFile) {
      // Stryker disable next-line StringLiteral: any text without a frontmatter reads like the empty one
      const before = frontmatterOf(c.before ?? '');
      const after = frontmatterOf(c.after);
      if ((before.found && !after.found) || (before.ok && !after.ok))
        return refuse('frontmatter', `Refused: the patched ${skill.skillFile} frontmatter no longer parses.`);
      for (const key of PROTECTED_KEYS) {
        if (JSON.stringify(pick(before.data, key)) === JSON.stringify(pick(after.data, key))) continue;
        // A file without a name is called by its folder's: writing that name down renames nothing.
        const named = key === 'name' && pick(before.data, key) === undefined;
        if (named && pick(after.data, key) === path.basename(skill.dir)) continue;
        if (key === 'name')
          return refuse(
            'name',
            `Refused: it renames the skill (frontmatter \`name\`); a repair keeps the name.`,
          );
        return refuse(
          'policy',
          `Refused: it changes \`${key}\` in the frontmatter; a repair never touches permissions or execution policy.`,
        );
      }
    }
    // DESIGN §5 "no new executables": a created `references/x.py`, or a shebang given to a
    // file that ran as nothing, would be a script the model can run like any other.
    if (runnable(c.path, c.after) && !runnable(c.path, c.before))
      return refuse(
        'executable',
        `Refused: it ${c.before === null ? 'adds' : 'turns'} ${c.path} ${c.before === null ? 'as' : 'into'} a file the skill's tools would run as a script; a repair never adds executables.`,
      );
    if (c.path.startsWith('scripts/') && shebangOf(c.before) !== shebangOf(c.after))
      return refuse(
        'executable',
        `Refused: it ${shebangOf(c.before) ? 'changes' : 'adds'} the shebang of ${c.path}, which changes how it runs.`,
      );
  }
  return null;
}

/**
 * Tokens added to the skill doc (routing spec §13 `max_added_tokens_in_skill_doc`): the
 * whitespace-separated words of the added lines, minus the words the same change removed
 * (a multiset difference), so fixing one word of a path costs 1 and rewriting a paragraph
 * costs all its new words.
 */
export function countAddedTokens(before: string | null, after: string): number {
  const bag = new Map<string, number>();
  let added = 0;
  const words = (l: string) => l.slice(1).split(/\s/).filter(Boolean);
  // Stryker disable next-line StringLiteral: the name only labels the patch; its hunks are the same
  const hunks = hunksBetween('doc', before, after);
  for (const h of hunks)
    for (const l of h.lines) if (l[0] === '-') for (const w of words(l)) bag.set(w, (bag.get(w) ?? 0) + 1);
  for (const h of hunks) {
    for (const l of h.lines) {
      if (l[0] !== '+') continue;
      for (const w of words(l)) {
        const n = bag.get(w) ?? 0;
        if (n > 0) bag.set(w, n - 1);
        else added++;
      }
    }
  }
  return added;
}

/** What a set of changes spends of the per-attempt budget. */
export function budgetOf(skill: SkillSnapshot, changes: FileChange[]): RepairBudgetUsed {
  const stats = diffStats(changes);
  const doc = changes.find((c) => c.path === skill.skillFile);
  return {
    files: stats.files,
    hunks: stats.hunks,
    added_tokens: doc ? countAddedTokens(doc.before, doc.after) : 0,
  };
}

/** Routing spec §13 per-attempt limits: 3 files, 8 hunks, 300 added tokens in SKILL.md. */
export function checkBudget(budget: RepairBudgetUsed): Refusal | null {
  if (budget.files > REPAIR_BUDGET.files)
    return refuse(
      'budget',
      `Refused: it changes ${budget.files} files; an attempt may change at most ${REPAIR_BUDGET.files}.`,
    );
  if (budget.hunks > REPAIR_BUDGET.hunks)
    return refuse(
      'budget',
      `Refused: it has ${budget.hunks} hunks; an attempt may have at most ${REPAIR_BUDGET.hunks}.`,
    );
  if (budget.added_tokens > REPAIR_BUDGET.addedTokens)
    return refuse(
      'budget',
      `Refused: it adds ${budget.added_tokens} words to the skill doc; an attempt may add at most ${REPAIR_BUDGET.addedTokens}.`,
    );
  return null;
}

/**
 * The strict validator on the patched scratch copy, compared with the skill as it is: a
 * skill that already failed may keep failing the same way, but no new error may appear.
 */
export async function checkValidator(originalDir: string, scratchDir: string): Promise<Refusal | null> {
  const [before, after] = await Promise.all([validateSkillDir(originalDir), validateSkillDir(scratchDir)]);
  const known = new Set(before.errors);
  const fresh = after.errors.filter((e) => !known.has(e));
  if (fresh.length === 0) return null;
  return refuse('validator', `Refused: the patched skill fails the validator: ${fresh.join('; ')}`);
}
