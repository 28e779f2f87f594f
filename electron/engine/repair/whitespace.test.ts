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

  it('still refuses a hunk whose lines differ in more than whitespace', () => {
    expect(
      applyFilePatch(TABBED, hunksOf('@@ -2,2 +2,2 @@\n     if y:\n-        go(1)\n+        go(2)\n')),
    ).toBeNull();
  });
});
