import { renderDiff, type FileChange } from './diffs';
import type { OtherForm } from './patchForms';

/**
 * Whole-file answers: asked for a diff, models (small ones most) often send the corrected file in
 * a fenced code block instead, named in the fence's info string (```python scripts/total.py), on
 * the line above it (`scripts/total.py:`, `### scripts/total.py`, `**File: scripts/total.py**`,
 * Aider's "whole" format), or in a first-line comment (`# scripts/total.py`). A block named so,
 * for a text file the skill has, is read as the diff from that file to the block, so one set of
 * guards, budget and replay judges it. An excerpt (`# ... rest unchanged`, or a block that keeps
 * under half the file's lines) would delete the rest of the file: it is refused with a reason the
 * model hears on its next attempt.
 */
export type WholeFile = OtherForm | { refused: string } | null;

const DIFF_INFO = /^\s*(?:diff|patch|udiff)\b/i;
/**
 * `# ...`, `// ... existing code ...`, `(rest unchanged)`: the marks of an excerpt. Line by line
 * with plain tests, so a hostile answer of dots costs one pass.
 */
function elided(body: string): boolean {
  return body.split('\n').some((line) => {
    const bare = line.replace(/^\s*(?:#|\/\/|--|<!--|\/\*)?\s*/, '');
    const dots = line.includes('...') || line.includes('…');
    return (
      (dots && (bare.startsWith('...') || bare.startsWith('…') || /unchanged|existing code/i.test(line))) ||
      /\b(?:rest|remainder) of (?:the )?(?:file|code|script)\b/i.test(line)
    );
  });
}

/** The path-like words of a line, without quotes, markup, `label:` or `key=`. */
const candidates = (line: string): string[] =>
  line
    .split(/[\s=,()[\]{}<>|]+/)
    .map((w) =>
      w
        .replace(/^(?:file(?:name)?|path|title):/i, '')
        .replace(/^[*_`"':#]+|[*_`"':.]+$/g, '')
        .replace(/^\.\//, ''),
    )
    .filter((w) => /^[\w./-]+$/.test(w) && /[./]/.test(w));

/**
 * The file a block is named for: a word of its info string, its first-line comment or the line
 * above that is a file of the skill. `undefined` when its info string or comment names a path
 * the skill lacks (a guessed name: the block is for another file), null when nothing names one.
 */
function nameOf(
  info: string,
  above: string,
  first: string,
  current: ReadonlyMap<string, string>,
): string | null | undefined {
  const firstComment = /^\s*(?:#|\/\/|--|<!--|\/\*)\s*(?:file(?:name)?:\s*)?(\S+)/i.exec(first)?.[1] ?? '';
  // A bare file name (`total.py`) is the one file of the skill so named.
  const file = (word: string) => {
    if (current.has(word)) return word;
    if (word.includes('/')) return null;
    const named = [...current.keys()].filter((p) => p.endsWith(`/${word}`));
    return named.length === 1 ? named[0] : null;
  };
  for (const source of [info, above, firstComment])
    for (const word of candidates(source)) {
      const found = file(word);
      if (found) return found;
    }
  // Not the line above: prose there names other files ("the CSV in references/x.csv has …").
  return candidates(info).some((w) => w.includes('/')) ||
    candidates(firstComment).some((w) => w.includes('/'))
    ? undefined
    : null;
}

/** Share of the file's non-blank lines the block keeps as they were. */
function kept(before: string, after: string): number {
  const lines = before.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return 1;
  const now = new Set(after.split('\n').map((l) => l.trimEnd()));
  return lines.filter((l) => now.has(l.trimEnd())).length / lines.length;
}

/**
 * The file an unnamed block is a new version of: the one file of the skill whose lines it mostly
 * keeps (at least 3 of them, and 60 %), none when two files tie. A command or an output in a
 * fence keeps no file's lines.
 */
function likeliestFile(body: string, current: ReadonlyMap<string, string>): string | null {
  let best: string | null = null;
  let bestShare = 0.6;
  let tie = false;
  for (const [file, text] of current) {
    const before = text.replace(/\r\n/g, '\n');
    if (before.split('\n').filter((l) => l.trim() !== '').length < 3) continue;
    const share = kept(before, body);
    if (share > bestShare) [best, bestShare, tie] = [file, share, false];
    else if (share === bestShare && best !== null) tie = true;
  }
  return tie ? null : best;
}

/** A fenced block: its info string, body lines, and the lines of its opening fence and the one above. */
interface Block {
  info: string;
  body: string;
  fence: number;
  above: number;
}

/**
 * The closed fenced blocks of the lines, in one pass: a fence runs to a line of at least its own
 * backticks or tildes (CommonMark), and an unclosed one to the end, so the scan stops there.
 */
function blocksOf(lines: string[]): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( {0,3})(`{3,}|~{3,})([^`]*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    let end = i + 1;
    const closes = (l: string) => {
      const t = l.trim();
      return (
        l.length - l.trimStart().length < 4 && t.startsWith(fence) && /^(`+|~+)$/.test(t) && t[0] === fence[0]
      );
    };
    while (end < lines.length && !closes(lines[end])) end++;
    if (end >= lines.length) break;
    const strip = new RegExp(`^ {0,${indent.length}}`);
    let above = i - 1;
    while (above >= 0 && lines[above].trim() === '') above--;
    out.push({
      info,
      body: lines
        .slice(i + 1, end)
        .map((l) => (indent ? l.replace(strip, '') : l))
        .join('\n'),
      fence: i,
      above,
    });
    i = end;
  }
  return out;
}

/**
 * The whole-file blocks of an answer that holds no diff, as one unified diff (`start`: where the
 * first named block, or its path line, begins), a refusal when a named block is an excerpt, or
 * null when no block names a file of the skill. `current`: the text of each file a patch may touch.
 */
export function wholeFileForm(answer: string, current: ReadonlyMap<string, string>): WholeFile {
  const raw = answer.split('\n');
  const lines = raw.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const changes: FileChange[] = [];
  let startLine = -1;
  for (const block of blocksOf(lines)) {
    if (DIFF_INFO.test(block.info)) continue;
    const aboveLine = block.above >= 0 ? lines[block.above] : '';
    const named = nameOf(block.info, aboveLine, block.body.split('\n', 1)[0], current);
    const name = named === null ? likeliestFile(block.body, current) : named;
    if (name === null || name === undefined) continue;
    const original = (current.get(name) ?? '').replace(/\r\n/g, '\n');
    // The fence drops the file's last newline: it ends as the file did.
    const after = original.endsWith('\n') || original === '' ? `${block.body}\n` : block.body;
    if (after === original || changes.some((c) => c.path === name)) continue;
    if (elided(block.body) || kept(original, after) < 0.5)
      return {
        refused: `The model's answer had no usable diff: its block for ${name} looks like an excerpt, not the whole file (it keeps under half of the file's lines, or marks left-out code with "..."), and applying it would delete the rest. Answer with a unified diff in a \`\`\`diff block.`,
      };
    changes.push({ path: name, before: original, after });
    if (startLine < 0) startLine = candidates(aboveLine).includes(name) ? block.above : block.fence;
  }
  if (changes.length === 0) return null;
  let start = 0;
  for (let i = 0; i < startLine; i++) start += raw[i].length + 1;
  return { diff: renderDiff(changes), start };
}

/**
 * The file a diff of bare `@@` hunks is for (models drop the `--- a/…` / `+++ b/…` lines): the file
 * of the skill named in its fence's info string (```diff scripts/x.py) or on the line above the
 * fence, else the one file that holds every line the hunks keep or remove. Null when none or two.
 */
export function headerlessTarget(
  answer: string,
  diff: string,
  current: ReadonlyMap<string, string>,
): string | null {
  const lines = diff.split('\n');
  if (lines.some((l) => /^(?:---|\+\+\+) /.test(l)) || !lines.some((l) => l.startsWith('@@'))) return null;
  const answerLines = answer.split('\n').map((l) => l.replace(/\r$/, ''));
  const fence = answerLines.findIndex((l) => /^ {0,3}(`{3,}|~{3,})\s*(?:diff|patch|udiff)\b/i.test(l));
  if (fence >= 0) {
    let above = fence - 1;
    while (above >= 0 && answerLines[above].trim() === '') above--;
    const info = answerLines[fence].replace(/^ {0,3}(`{3,}|~{3,})\s*(?:diff|patch|udiff)/i, '');
    for (const word of [...candidates(info), ...candidates(above >= 0 ? answerLines[above] : '')])
      if (current.has(word)) return word;
  }
  const needed = lines
    .filter((l) => l.startsWith('-') || l.startsWith(' '))
    .map((l) => l.slice(1).trimEnd())
    .filter((l) => l.trim() !== '');
  if (needed.length === 0) return null;
  const holders = [...current].filter(([, text]) => {
    const have = new Set(
      text
        .replace(/\r\n/g, '\n')
        .split('\n')
        .map((l) => l.trimEnd()),
    );
    return needed.every((l) => have.has(l));
  });
  return holders.length === 1 ? holders[0][0] : null;
}
