import { describe, expect, it } from 'vitest';
import { applyFilePatch, parseUnifiedDiff } from './diffs';

// A model's diff whose hunks come in another order than their places in the file (found driving
// `repair --json` against an outside scripted server): jsdiff applied such hunks one after
// another from where the last left off and wrote a mangled file, a SyntaxError on replay.
const SOURCE = [
  'import sys',
  'rows = [1, 2, 3]',
  'print(f"rows: {len(row)}")',
  'for r in rows:',
  '    try:',
  '        vals = [r * 2]',
  '        print(f"mean: {sum(vals)/len(vals):.2f}")',
  '    except ValueError:',
  '        pass',
  '',
].join('\n');
const FIXED = SOURCE.replace('len(row)}', 'len(rows)}').replace(':.2f}', ':.3f}');
const ROWS = (at: number) =>
  `@@ -${at},1 +${at},1 @@\n-print(f"rows: {len(row)}")\n+print(f"rows: {len(rows)}")\n`;
const MEAN = (at: number) =>
  `@@ -${at},3 +${at},3 @@\n         vals = [r * 2]\n-        print(f"mean: {sum(vals)/len(vals):.2f}")\n+        print(f"mean: {sum(vals)/len(vals):.3f}")\n     except ValueError:\n`;

const hunks = (...bodies: string[]) => {
  const parsed = parseUnifiedDiff(`--- a/x.py\n+++ b/x.py\n${bodies.join('')}`);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.files[0].hunks;
};

describe('hunks out of the file’s order', () => {
  it('apply each at its place when their line numbers say so', () => {
    expect(applyFilePatch(SOURCE, hunks(ROWS(3), MEAN(6)))).toBe(FIXED);
    expect(applyFilePatch(SOURCE, hunks(MEAN(6), ROWS(3)))).toBe(FIXED);
  });

  it('apply each at its place when only their context says so (line numbers wrong)', () => {
    expect(applyFilePatch(SOURCE, hunks(MEAN(1), ROWS(5)))).toBe(FIXED);
  });

  it('that overlap do not apply', () => {
    const again = `@@ -7,1 +7,1 @@\n-        print(f"mean: {sum(vals)/len(vals):.2f}")\n+        print("mean")\n`;
    expect(applyFilePatch(SOURCE, hunks(MEAN(6), again))).toBeNull();
  });
});
