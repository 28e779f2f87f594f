import type { StructuredPatchHunk } from 'diff';

/**
 * Whitespace drift between a model's hunk and the file (tabs quoted as spaces, runs of blanks
 * changed), the way `git apply --ignore-whitespace` and GNU `patch -l` take it: each hunk's
 * context and removed lines are looked for with runs of whitespace counted as one, nearest its
 * stated line. The hunk is then rewritten in the file's own whitespace: its old lines become the
 * file's lines, and its added lines get the file's indentation for the patch's (as Aider does),
 * so a tab-indented script does not come out with a space-indented line Python refuses.
 */

const norm = (line: string) => line.replace(/\s+/g, ' ').trim();
// Stryker disable next-line Regex,StringLiteral: the pattern matches at the start of every line, anchored or not, so the fallback is never taken
const indentOf = (line: string) => /^[ \t]*/.exec(line)?.[0] ?? '';

/** Where the hunk's old lines sit in `lines`, whitespace aside, nearest `near`; -1 when nowhere. */
function locate(normed: string[], old: string[], near: number): number {
  const want = old.map(norm);
  let best = -1;
  // Stryker disable next-line ArithmeticOperator: a place past the end holds no lines, so `every` refuses it anyway
  for (let at = 0; at + want.length <= normed.length; at++) {
    if (!want.every((w, i) => normed[at + i] === w)) continue;
    if (best < 0 || Math.abs(at - near) < Math.abs(best - near)) best = at;
  }
  return best;
}

/**
 * The file's indentation for a patch's: the pairs the old lines showed, else spaces turned into
 * tabs (or tabs into spaces) at the width a pair showed, when the old lines showed that drift.
 */
function indenter(pairs: Map<string, string>): (indent: string) => string {
  const tabsOnly = (s: string) => /^\t+$/.test(s);
  const spacesOnly = (s: string) => /^ +$/.test(s);
  // Spaces per tab, from a pair that is all tabs on one side and all spaces on the other.
  let width = 4;
  let toTabs = false;
  let toSpaces = false;
  for (const [patch, file] of pairs) {
    if (spacesOnly(patch) && tabsOnly(file) && patch.length % file.length === 0) {
      width = patch.length / file.length;
      toTabs = true;
    } else if (tabsOnly(patch) && spacesOnly(file) && file.length % patch.length === 0) {
      width = file.length / patch.length;
      toSpaces = true;
    }
  }
  return (indent) => {
    const known = pairs.get(indent);
    if (known !== undefined) return known;
    if (toTabs && spacesOnly(indent))
      return '\t'.repeat(Math.floor(indent.length / width)) + ' '.repeat(indent.length % width);
    if (toSpaces && tabsOnly(indent)) return ' '.repeat(indent.length * width);
    return indent;
  };
}

/** The hunks rewritten in the file's whitespace, or null when one's old lines are nowhere in it. */
export function matchWhitespace(source: string, hunks: StructuredPatchHunk[]): StructuredPatchHunk[] | null {
  const lines = source.split('\n').map((l) => l.replace(/\r$/, ''));
  const normed = lines.map(norm);
  const out: StructuredPatchHunk[] = [];
  for (const hunk of hunks) {
    const oldLines = hunk.lines.filter((l) => l[0] === ' ' || l[0] === '-');
    if (oldLines.length === 0) {
      out.push(hunk);
      continue;
    }
    const at = locate(
      normed,
      oldLines.map((l) => l.slice(1)),
      hunk.oldStart - 1,
    );
    if (at < 0) return null;
    const pairs = new Map<string, string>();
    oldLines.forEach((l, i) => {
      if (l.slice(1).trim() !== '') pairs.set(indentOf(l.slice(1)), indentOf(lines[at + i]));
    });
    const indent = indenter(pairs);
    let k = 0;
    const rewritten = hunk.lines.map((l) => {
      if (l[0] === ' ' || l[0] === '-') return l[0] + lines[at + k++];
      if (l[0] !== '+') return l;
      const body = l.slice(1);
      return `+${indent(indentOf(body))}${body.slice(indentOf(body).length)}`;
    });
    out.push({ ...hunk, oldStart: at + 1, lines: rewritten });
  }
  return out;
}
