import { applyPatch } from 'diff';
import type { ProposalFile, ProposalHunk, RepairProposal } from '../../../../shared/contract';

/**
 * What the user chose in the review (DESIGN §5: hunk by hunk, proposed side editable): the
 * accepted hunks by global index, and the full new text of every file whose proposed side
 * was edited (an edit replaces that file's hunks, as `repair.revise` / `repair.apply` take it).
 */
export interface ReviewSelection {
  accepted: number[];
  edited: Record<string, string>;
}

/** Every hunk accepted, nothing edited: the proposal as it was replayed. */
export const wholeSelection = (p: Pick<RepairProposal, 'hunks'>): ReviewSelection => ({
  accepted: p.hunks.map((h) => h.index),
  edited: {},
});

export const hunksOf = (p: Pick<RepairProposal, 'hunks'>, path: string): ProposalHunk[] =>
  p.hunks.filter((h) => h.file === path);

/** Lines the hunk adds and removes (the `+1 −1` beside its header). */
export function hunkCounts(h: Pick<ProposalHunk, 'lines'>): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of h.lines) {
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}

export const hunkHeader = (h: ProposalHunk): string =>
  `@@ -${h.old_start},${h.old_lines} +${h.new_start},${h.new_lines} @@`;

/** The first changed line of a hunk, for a one-line preview in the hunk list. */
export function hunkPreview(h: Pick<ProposalHunk, 'lines'>): string {
  const changed = h.lines.find((l) => l.startsWith('+') || l.startsWith('-')) ?? h.lines[0] ?? '';
  return changed.slice(1).trim();
}

export function toggleHunk(sel: ReviewSelection, index: number, accept: boolean): ReviewSelection {
  const rest = sel.accepted.filter((i) => i !== index);
  return { ...sel, accepted: accept ? [...rest, index].sort((a, b) => a - b) : rest };
}

/** Accepts or rejects every hunk of one file at once. */
export function toggleFile(
  sel: ReviewSelection,
  p: Pick<RepairProposal, 'hunks'>,
  path: string,
  accept: boolean,
): ReviewSelection {
  return hunksOf(p, path).reduce((s, h) => toggleHunk(s, h.index, accept), sel);
}

/**
 * The file's text with only the accepted hunks applied, the way the engine's selection
 * applies them (jsdiff, hunks in order); null when the kept hunks no longer fit together.
 */
export function selectedText(
  file: ProposalFile,
  hunks: ProposalHunk[],
  accepted: readonly number[],
): string | null {
  const keep = hunks.filter((h) => accepted.includes(h.index));
  if (keep.length === hunks.length) return file.after;
  if (keep.length === 0) return file.before ?? '';
  const result = applyPatch(file.before ?? '', {
    oldFileName: '',
    newFileName: '',
    oldHeader: '',
    newHeader: '',
    hunks: keep.map((h) => ({
      oldStart: h.old_start,
      oldLines: h.old_lines,
      newStart: h.new_start,
      newLines: h.new_lines,
      lines: h.lines,
    })),
  });
  return result === false ? null : result;
}

/** The text the proposed (right) side shows for one file: the user's edit, else the accepted hunks. */
export function shownText(
  file: ProposalFile,
  p: Pick<RepairProposal, 'hunks'>,
  sel: ReviewSelection,
): string {
  return sel.edited[file.path] ?? selectedText(file, hunksOf(p, file.path), sel.accepted) ?? file.after;
}

/**
 * Where a hunk sits on each side of the diff as shown: on the left at its old start; on the
 * right shifted by the line-count change of the accepted hunks above it (rejected ones are
 * not in the shown text).
 */
export function hunkLines(
  hunks: ProposalHunk[],
  accepted: readonly number[],
  index: number,
): { original: number; modified: number } {
  const h = hunks.find((x) => x.index === index);
  if (!h) return { original: 1, modified: 1 };
  const shift = hunks
    .filter((x) => x.old_start < h.old_start && accepted.includes(x.index))
    .reduce((n, x) => n + x.new_lines - x.old_lines, 0);
  // A hunk that starts at line 0 creates or empties a file: line 1 is where it shows.
  const original = Math.max(1, h.old_start);
  const first = h.lines.findIndex((l) => l.startsWith('+') || l.startsWith('-'));
  const offset = Math.max(0, first);
  return { original: original + offset, modified: Math.max(1, h.old_start + shift) + offset };
}

/** True when the selection is exactly what was replayed: every hunk, no edits. */
export const isWhole = (sel: ReviewSelection, p: Pick<RepairProposal, 'hunks'>): boolean =>
  Object.keys(sel.edited).length === 0 && p.hunks.every((h) => sel.accepted.includes(h.index));

/** Nothing would change: no hunk accepted and no file edited. */
export const isEmpty = (sel: ReviewSelection): boolean =>
  sel.accepted.length === 0 && Object.keys(sel.edited).length === 0;

/** The `accepted_hunks` / `edited` of `repair.revise` and `repair.apply` (omitted when they mean "all"). */
export function selectionRequest(
  sel: ReviewSelection,
  p: Pick<RepairProposal, 'hunks'>,
): { accepted_hunks?: number[]; edited?: { path: string; content: string }[] } {
  const edited = Object.entries(sel.edited).map(([path, content]) => ({ path, content }));
  return {
    ...(p.hunks.every((h) => sel.accepted.includes(h.index)) ? {} : { accepted_hunks: [...sel.accepted] }),
    ...(edited.length ? { edited } : {}),
  };
}

/** The hunks the user turned down, for `repair.reject`; undefined when none was (the whole proposal is). */
export function rejectedHunks(sel: ReviewSelection, p: Pick<RepairProposal, 'hunks'>): number[] | undefined {
  const out = p.hunks.filter((h) => !sel.accepted.includes(h.index)).map((h) => h.index);
  return out.length ? out : undefined;
}

/** "all 3 hunks", "2 of 3 hunks, 1 file edited". */
export function describeSelection(sel: ReviewSelection, p: Pick<RepairProposal, 'hunks'>): string {
  const total = p.hunks.length;
  const n = p.hunks.filter((h) => sel.accepted.includes(h.index)).length;
  const hunks =
    n === total
      ? `all ${total === 1 ? '1 hunk' : `${total} hunks`}`
      : `${n} of ${total} hunk${total === 1 ? '' : 's'}`;
  const edits = Object.keys(sel.edited).length;
  return edits ? `${hunks}, ${edits === 1 ? '1 file' : `${edits} files`} edited` : hunks;
}

export type ApplyBlock = 'stale' | 'not_pending' | 'empty' | 'unfit';

/** Why Apply is not possible now, in the words the review shows; null when it is. */
export function applyBlock(
  p: Pick<RepairProposal, 'stale' | 'status' | 'hunks' | 'files'>,
  sel: ReviewSelection,
): { code: ApplyBlock; message: string } | null {
  if (p.status !== 'pending')
    return { code: 'not_pending', message: `This proposal was ${p.status}; it cannot be applied again.` };
  if (p.stale)
    return {
      code: 'stale',
      message:
        'The skill changed since this proposal was made, so it cannot be applied. Repair the run again.',
    };
  if (isEmpty(sel)) return { code: 'empty', message: 'Accept at least one hunk, or edit a file, to apply.' };
  const unfit = p.files.find(
    (f) => !(f.path in sel.edited) && selectedText(f, hunksOf(p, f.path), sel.accepted) === null,
  );
  if (unfit)
    return {
      code: 'unfit',
      message: `The accepted hunks of ${unfit.path} no longer fit together; accept its other hunks or edit the file.`,
    };
  return null;
}
