import { describe, expect, it } from 'vitest';
import { applyFilePatch, parseUnifiedDiff } from './diffs';

// Whitespace drift between a model's hunk and the file (git apply --ignore-whitespace, patch -l).
const hunksOf = (body: string) => {
  const parsed = parseUnifiedDiff(`--- a/f\n+++ b/f\n${body}`);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.files[0].hunks;
};

const TABBED = 'def main():\n\tif x:\n\t\tgo(1)\n\tdone()\n';

describe('applyFilePatch with whitespace drift', () => {
  it('takes spaces for tabs in context and removed lines, and gives added lines the file’s tabs', () => {
    const hunks = hunksOf(
      '@@ -2,3 +2,4 @@\n     if x:\n-        go(1)\n+        go(2)\n+            deeper()\n     done()\n',
    );
    expect(applyFilePatch(TABBED, hunks)).toBe('def main():\n\tif x:\n\t\tgo(2)\n\t\t\tdeeper()\n\tdone()\n');
  });

  it('takes tabs for spaces the other way round, at the width the file uses', () => {
    const spaced = 'def main():\n  if x:\n    go(1)\n  done()\n';
    const hunks = hunksOf('@@ -2,2 +2,3 @@\n \tif x:\n-\t\tgo(1)\n+\t\tgo(2)\n+\t\t\tdeeper()\n');
    expect(applyFilePatch(spaced, hunks)).toBe('def main():\n  if x:\n    go(2)\n      deeper()\n  done()\n');
  });

  it('counts a run of blanks inside a line as one, keeps CRLF, and picks the place nearest the stated line', () => {
    const twice = 'a  =  1\r\nb\r\na  =  1\r\nc\r\n';
    expect(applyFilePatch(twice, hunksOf('@@ -3,2 +3,2 @@\n-a = 1\n+a = 2\n c\n'))).toBe(
      'a  =  1\r\nb\r\na = 2\r\nc\r\n',
    );
  });

  it('takes an indented line for an unindented one, and gives the added line the file’s indentation', () => {
    expect(applyFilePatch('x\na = 1\ny\n', hunksOf('@@ -2,1 +2,1 @@\n-    a  =  1\n+    a = 2\n'))).toBe(
      'x\na = 2\ny\n',
    );
  });

  it('finds the last line of a file that does not end in a newline', () => {
    const hunks = hunksOf(
      '@@ -2,1 +2,1 @@\n-    b(1)\n\\ No newline at end of file\n+    b(2)\n\\ No newline at end of file\n',
    );
    expect(applyFilePatch('a\n\tb(1)', hunks)).toBe('a\n\tb(2)');
  });

  it('takes the earlier of two places as near the stated line', () => {
    expect(applyFilePatch('\tq\n\tx\n\tq\n', hunksOf('@@ -2,1 +2,1 @@\n-    q\n+    r\n'))).toBe(
      '\tr\n\tx\n\tq\n',
    );
  });

  it('turns the spaces past the last full tab into spaces after the tabs', () => {
    const hunks = hunksOf('@@ -2,1 +2,2 @@\n-    go(1)\n+    go(2)\n+          more()\n');
    expect(applyFilePatch('if a:\n\tgo(1)\n', hunks)).toBe('if a:\n\tgo(2)\n\t\t  more()\n');
  });

  it('leaves an indentation alone when the old lines show no tab width (3 spaces for 2 tabs)', () => {
    const hunks = hunksOf('@@ -2,1 +2,2 @@\n-   go(1)\n+   go(2)\n+      more()\n');
    expect(applyFilePatch('if a:\n\t\tgo(1)\n', hunks)).toBe('if a:\n\t\tgo(2)\n      more()\n');
  });

  it('takes no indentation from a blank line, though the file’s blank line holds a tab', () => {
    const hunks = hunksOf('@@ -2,3 +2,4 @@\n-    go(1)\n+    go(2)\n \n+y = 2\n x = 1\n');
    expect(applyFilePatch('def f():\n\tgo(1)\n\t\nx = 1\n', hunks)).toBe(
      'def f():\n\tgo(2)\n\t\ny = 2\nx = 1\n',
    );
  });

  it('keeps a hunk that only adds lines where it is, beside one that is placed', () => {
    const hunks = hunksOf('@@ -0,0 +1,1 @@\n+top\n@@ -2,1 +3,1 @@\n-    go(1)\n+    go(2)\n');
    expect(applyFilePatch('a\n\tgo(1)\nb\n', hunks)).toBe('top\na\n\tgo(2)\nb\n');
  });

  it('still refuses a hunk whose lines differ in more than whitespace', () => {
    expect(
      applyFilePatch(TABBED, hunksOf('@@ -2,2 +2,2 @@\n     if y:\n-        go(1)\n+        go(2)\n')),
    ).toBeNull();
  });
});
