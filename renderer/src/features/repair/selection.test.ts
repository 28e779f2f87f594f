import { structuredPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import type { ProposalFile, ProposalHunk } from '../../../../shared/contract';
import {
  applyBlock,
  describeSelection,
  hunkCounts,
  hunkHeader,
  hunkLines,
  hunkPreview,
  hunksOf,
  isEmpty,
  isWhole,
  rejectedHunks,
  selectedText,
  selectionRequest,
  shownText,
  toggleFile,
  toggleHunk,
  wholeSelection,
} from './selection';

const lines = (n: number, f = (i: number) => `line ${i}`) =>
  Array.from({ length: n }, (_v, i) => `${f(i + 1)}\n`).join('');

/** Hunks numbered the way the engine numbers them: jsdiff, 3 lines of context, global index. */
function proposal(files: { path: string; before: string | null; after: string }[]) {
  const hunks: ProposalHunk[] = [];
  for (const f of files) {
    for (const h of structuredPatch(f.path, f.path, f.before ?? '', f.after, '', '', { context: 3 }).hunks)
      hunks.push({
        index: hunks.length,
        file: f.path,
        old_start: h.oldStart,
        old_lines: h.oldLines,
        new_start: h.newStart,
        new_lines: h.newLines,
        lines: h.lines,
      });
  }
  return { files: files as ProposalFile[], hunks, stale: false, status: 'pending' as const };
}

// Three far-apart changes in one script: line 2 replaced, two lines inserted after 12, line 25 removed.
const before = lines(30);
const after = before
  .replace('line 2\n', 'line two\n')
  .replace('line 12\n', 'line 12\nadded a\nadded b\n')
  .replace('line 25\n', '');
const doc = { path: 'SKILL.md', before: '# Doc\n\nRun it.\n', after: '# Doc\n\nRun it with `--all`.\n' };
const p = proposal([{ path: 'scripts/run.py', before, after }, doc]);
const script = p.files[0];

describe('the hunk selection model', () => {
  it('numbers hunks across files and counts each one', () => {
    expect(p.hunks.map((h) => [h.index, h.file])).toEqual([
      [0, 'scripts/run.py'],
      [1, 'scripts/run.py'],
      [2, 'scripts/run.py'],
      [3, 'SKILL.md'],
    ]);
    expect(hunksOf(p, 'SKILL.md').map((h) => h.index)).toEqual([3]);
    expect(p.hunks.map(hunkCounts)).toEqual([
      { added: 1, removed: 1 },
      { added: 2, removed: 0 },
      { added: 0, removed: 1 },
      { added: 1, removed: 1 },
    ]);
    expect(hunkHeader(p.hunks[1])).toBe('@@ -10,6 +10,8 @@');
    expect(hunkPreview(p.hunks[0])).toBe('line 2');
    expect(hunkPreview(p.hunks[1])).toBe('added a');
  });

  it('applies only the accepted hunks of a file, in order', () => {
    const hunks = hunksOf(p, script.path);
    expect(selectedText(script, hunks, [0, 1, 2])).toBe(after);
    expect(selectedText(script, hunks, [])).toBe(before);
    // The middle hunk left out: the first and last still land on the right lines.
    expect(selectedText(script, hunks, [0, 2])).toBe(
      before.replace('line 2\n', 'line two\n').replace('line 25\n', ''),
    );
    expect(selectedText(script, hunks, [1])).toBe(before.replace('line 12\n', 'line 12\nadded a\nadded b\n'));
  });

  it('a created file is empty until one of its hunks is accepted', () => {
    const created = proposal([{ path: 'references/notes.md', before: null, after: 'new\n' }]);
    expect(selectedText(created.files[0], created.hunks, [])).toBe('');
    expect(selectedText(created.files[0], created.hunks, [0])).toBe('new\n');
  });

  it('says null when the kept hunks no longer fit the original', () => {
    const broken: ProposalHunk = { ...p.hunks[2], lines: ['-not in the file'] };
    expect(selectedText(script, [p.hunks[0], p.hunks[1], broken], [0, 2])).toBeNull();
  });

  it('shows the edit over the hunks once a file was edited', () => {
    const sel = { accepted: [0], edited: { 'SKILL.md': 'mine\n' } };
    expect(shownText(p.files[1], p, sel)).toBe('mine\n');
    expect(shownText(script, p, sel)).toBe(before.replace('line 2\n', 'line two\n'));
  });

  it('finds where a hunk shows on each side, shifted by the accepted hunks above it', () => {
    const hunks = hunksOf(p, script.path);
    // Hunk 2 removes line 25. With hunk 1 (+2 lines) accepted it shows 2 lines lower on the right.
    expect(hunkLines(hunks, [0, 1, 2], 2)).toEqual({ original: 25, modified: 27 });
    expect(hunkLines(hunks, [0, 2], 2)).toEqual({ original: 25, modified: 25 });
    expect(hunkLines(hunks, [0, 1, 2], 0)).toEqual({ original: 2, modified: 2 });
    expect(hunkLines(hunks, [], 99)).toEqual({ original: 1, modified: 1 });
  });

  it('toggles hunks and files, and knows when the selection is what was replayed', () => {
    const all = wholeSelection(p);
    expect(isWhole(all, p)).toBe(true);
    const one = toggleHunk(all, 1, false);
    expect(one.accepted).toEqual([0, 2, 3]);
    expect(isWhole(one, p)).toBe(false);
    expect(toggleHunk(one, 1, true).accepted).toEqual([0, 1, 2, 3]);
    expect(toggleHunk(all, 1, true).accepted).toEqual([0, 1, 2, 3]);
    const noScript = toggleFile(all, p, 'scripts/run.py', false);
    expect(noScript.accepted).toEqual([3]);
    expect(isEmpty(toggleFile(noScript, p, 'SKILL.md', false))).toBe(true);
    expect(isWhole({ ...all, edited: { 'SKILL.md': 'x' } }, p)).toBe(false);
    expect(isEmpty({ accepted: [], edited: { 'SKILL.md': 'x' } })).toBe(false);
  });

  it('builds the revise / apply / reject requests, leaving out what means "all"', () => {
    const all = wholeSelection(p);
    expect(selectionRequest(all, p)).toEqual({});
    expect(rejectedHunks(all, p)).toBeUndefined();
    const some = { accepted: [0, 2, 3], edited: { 'SKILL.md': 'edited\n' } };
    expect(selectionRequest(some, p)).toEqual({
      accepted_hunks: [0, 2, 3],
      edited: [{ path: 'SKILL.md', content: 'edited\n' }],
    });
    expect(rejectedHunks(some, p)).toEqual([1]);
  });

  it('describes the selection in words', () => {
    expect(describeSelection(wholeSelection(p), p)).toBe('all 4 hunks');
    expect(describeSelection({ accepted: [0, 2], edited: {} }, p)).toBe('2 of 4 hunks');
    expect(describeSelection({ accepted: [0], edited: { a: '', b: '' } }, p)).toBe(
      '1 of 4 hunks, 2 files edited',
    );
    const single = proposal([doc]);
    expect(describeSelection(wholeSelection(single), single)).toBe('all 1 hunk');
    expect(describeSelection({ accepted: [], edited: { 'SKILL.md': '' } }, single)).toBe(
      '0 of 1 hunk, 1 file edited',
    );
  });

  it('says why Apply is not possible: stale, already decided, nothing chosen, hunks that do not fit', () => {
    const all = wholeSelection(p);
    expect(applyBlock(p, all)).toBeNull();
    expect(applyBlock({ ...p, stale: true }, all)?.code).toBe('stale');
    expect(applyBlock({ ...p, stale: true }, all)?.message).toMatch(/changed since/);
    expect(applyBlock({ ...p, status: 'rejected' }, all)?.message).toMatch(/was rejected/);
    expect(applyBlock(p, { accepted: [], edited: {} })?.code).toBe('empty');
    expect(applyBlock(p, { accepted: [], edited: { 'SKILL.md': 'x' } })).toBeNull();
    const broken = { ...p, hunks: p.hunks.map((h) => (h.index === 2 ? { ...h, lines: ['-nope'] } : h)) };
    expect(applyBlock(broken, { accepted: [0, 2], edited: {} })).toMatchObject({ code: 'unfit' });
    // An edited file does not need its hunks to fit: the edit replaces them.
    expect(applyBlock(broken, { accepted: [0, 2], edited: { 'scripts/run.py': 'x' } })).toBeNull();
  });
});
