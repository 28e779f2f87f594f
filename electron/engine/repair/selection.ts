import type { RepairProposal } from '../../../shared/contract';
import { EngineError } from '../errors';
import { applyFilePatch, hunksBetween, type FileChange } from './diffs';
import { resolveEdits } from './guards';
import type { SkillSnapshot } from './snapshot';

/** Which hunks to keep and which files the user rewrote (DESIGN §5 review: per hunk, editable). */
export interface Selection {
  accepted_hunks?: number[];
  edited?: { path: string; content: string }[];
}

/**
 * The final texts a selection of a proposal yields: only the accepted hunks (by global
 * index, as `numberHunks` numbered them), then the user's edited texts over them. A file
 * the proposal creates is dropped when none of its hunks is kept.
 */
export function selectChanges(
  proposal: RepairProposal,
  skill: SkillSnapshot,
  selection: Selection,
): FileChange[] {
  const keep = selection.accepted_hunks ? new Set(selection.accepted_hunks) : undefined;
  const total = proposal.hunks.length;
  for (const i of keep ?? []) {
    if (i >= total)
      throw new EngineError(
        'invalid_params',
        `Hunk ${i} does not exist; this proposal has ${total} hunks (0–${total - 1}).`,
      );
  }
  const chosen: FileChange[] = [];
  let index = 0;
  for (const f of proposal.files) {
    const hunks = hunksBetween(f.path, f.before, f.after);
    const start = index;
    index += hunks.length;
    const kept = keep ? hunks.filter((_h, i) => keep.has(start + i)).length : hunks.length;
    if (kept === 0 && !selection.edited?.some((e) => e.path === f.path)) continue;
    const after = applyFilePatch(f.before ?? '', hunks, keep ? (i) => keep.has(start + i) : undefined);
    if (after === null)
      throw new EngineError('internal', `The accepted hunks of ${f.path} no longer fit together.`);
    chosen.push({ path: f.path, before: f.before, after });
  }
  if (!selection.edited?.length) return chosen;
  // An edited file counts even when all its hunks were rejected: the edit is the user's choice.
  const all = proposal.files.map(
    (f) => chosen.find((c) => c.path === f.path) ?? { path: f.path, before: f.before, after: f.before ?? '' },
  );
  const resolved = resolveEdits(skill, all, selection.edited);
  if (!resolved.ok) throw new EngineError('forbidden', resolved.reason);
  const edited = new Set(selection.edited.map((e) => e.path));
  return resolved.changes.filter((c) => edited.has(c.path) || chosen.some((k) => k.path === c.path));
}

/** The diff text of some hunks, for the next attempt's prompt ("the user rejected these"). */
export function hunkTexts(proposal: RepairProposal, indexes: number[]): string[] {
  return proposal.hunks
    .filter((h) => indexes.includes(h.index))
    .map(
      (h) =>
        `--- a/${h.file}\n+++ b/${h.file}\n@@ -${h.old_start},${h.old_lines} +${h.new_start},${h.new_lines} @@\n${h.lines.join('\n')}`,
    );
}
