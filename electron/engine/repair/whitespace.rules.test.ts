import { describe, expect, it } from 'vitest';
import { applyFilePatch, parseUnifiedDiff } from './diffs';
import { matchWhitespace } from './whitespace';

// The rules of whitespace placement one by one (whitespace.test.ts: the cases models write).
const hunksOf = (body: string) => {
  const parsed = parseUnifiedDiff(`--- a/f\n+++ b/f\n${body}`);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.files[0].hunks;
};

/**
 * The file's `go(1)` indented by `file`, quoted indented by `patch`, and a line added indented by
 * `added`: the indentation that line gets in the file.
 */
function addedIndent(file: string, patch: string, added: string): string {
  const hunks = hunksOf(`@@ -2,1 +2,2 @@\n-${patch}go(1)\n+${patch}go(2)\n+${added}more()\n`);
  const out = applyFilePatch(`if a:\n${file}go(1)\n`, hunks);
  return /\n([ \t]*)more\(\)/.exec(out ?? '')?.[1] ?? 'not applied';
}

const sp = (n: number) => ' '.repeat(n);

describe('the indentation an added line gets', () => {
  it('takes a tab width only from a pair of all tabs and all spaces', () => {
    expect(addedIndent('\t  ', sp(6), sp(10)), 'tab then spaces').toBe(sp(10));
    expect(addedIndent(' \t', sp(4), sp(8)), 'space then tab').toBe(sp(8));
    expect(addedIndent('  \t', '\t', '\t\t'), 'spaces then tab').toBe('\t\t');
    expect(addedIndent('\t  ', '\t', '\t\t'), 'tab then spaces, quoted with a tab').toBe('\t\t');
  });

  it('turns no spaces into tabs, nor tabs into spaces, in a file indented with spaces', () => {
    expect(addedIndent(sp(2), sp(4), '\t')).toBe('\t');
    expect(addedIndent(sp(2), sp(4), sp(8))).toBe(sp(8));
    expect(addedIndent(sp(4), sp(2), '\t')).toBe('\t');
  });

  it('takes no tab width that does not divide (3 spaces for 2 tabs)', () => {
    expect(addedIndent(sp(3), '\t\t', '\t\t\t')).toBe('\t\t\t');
  });

  it('turns only spaces into tabs, and only tabs into spaces', () => {
    expect(addedIndent('\t', sp(4), '\t'), 'a tab where the file has tabs').toBe('\t');
    expect(addedIndent(sp(4), '\t', sp(2)), 'spaces where the file has spaces').toBe(sp(2));
  });

  it('takes no indentation from a blank line that holds blanks', () => {
    const hunks = hunksOf('@@ -2,3 +2,4 @@\n-    go(1)\n+    go(2)\n   \n+  y = 2\n x = 1\n');
    expect(applyFilePatch('def f():\n\tgo(1)\n\nx = 1\n', hunks)).toBe(
      'def f():\n\tgo(2)\n\n  y = 2\nx = 1\n',
    );
  });
});

describe('where a hunk is placed', () => {
  it('finds its lines far from the line it states', () => {
    const hunks = hunksOf('@@ -1,1 +1,1 @@\n-    go(1)\n+    go(2)\n');
    expect(applyFilePatch('a\nb\nc\n\tgo(1)\n', hunks)).toBe('a\nb\nc\n\tgo(2)\n');
  });

  it('takes a carriage return inside a line as a blank, and keeps it', () => {
    expect(applyFilePatch('a\rb = 1\nc\n', hunksOf('@@ -1,2 +1,2 @@\n-a b  = 1\n+x\n c\n'))).toBe('x\nc\n');
    expect(applyFilePatch('k\nc\ra\n', hunksOf('@@ -1,2 +1,2 @@\n-k\n+x\n c a\n'))).toBe('x\nc\ra\n');
  });

  it('keeps one blank between words: `x y` is not `xy`', () => {
    expect(
      applyFilePatch('if a:\n\tgo(x y)\n', hunksOf('@@ -2,1 +2,1 @@\n-    go(xy)\n+    go(z)\n')),
    ).toBeNull();
  });

  it('passes a hunk that only adds lines through as it is', () => {
    const [add, drift] = hunksOf('@@ -0,0 +1,1 @@\n+top\n@@ -2,1 +3,1 @@\n-    go(1)\n+    go(2)\n');
    expect(matchWhitespace('a\n\tgo(1)\n', [add, drift])?.[0]).toBe(add);
  });

  it('states the line where it placed the hunk, or gives null when its lines are nowhere', () => {
    const [hunk] = hunksOf('@@ -3,1 +3,1 @@\n-    q\n+    r\n');
    expect(matchWhitespace('\tq\n\tx\n\tq\n', [hunk])).toEqual([
      { ...hunk, oldStart: 3, lines: ['-\tq', '+\tr'] },
    ]);
    expect(matchWhitespace('\tq\n\tx\n', hunksOf('@@ -1,1 +1,1 @@\n-    y\n+    r\n'))).toBeNull();
  });
});
