import path from 'node:path';
import { applyPatch, createTwoFilesPatch, parsePatch, structuredPatch, type StructuredPatchHunk } from 'diff';
import type { ProposalHunk } from '../../../shared/contract';
import { matchWhitespace } from './whitespace';

/** One file of a parsed unified diff, paths cleaned to skill-relative form. */
export interface FilePatch {
  /** Skill-relative `/` path (the new side's, or the old side's for a deletion). */
  path: string;
  /** The paths as the diff wrote them, for refusal messages. */
  rawOld: string | null;
  rawNew: string | null;
  isCreate: boolean;
  isDelete: boolean;
  isRename: boolean;
  oldMode?: string;
  newMode?: string;
  isBinary: boolean;
  hunks: StructuredPatchHunk[];
}

/** A parsed diff, or why it could not be read. */
export type ParsedDiff = { ok: true; files: FilePatch[] } | { ok: false; reason: string };

/** One file's change as whole texts (null before: created). */
export interface FileChange {
  path: string;
  before: string | null;
  after: string;
}

/**
 * The fenced blocks of an answer that hold a diff, in order (an unclosed fence runs to the end).
 * A fence indented in a list item (CommonMark allows 3 spaces) has its lines read without that
 * indent, so ` --- a/x` is a header again and a context line keeps its own leading space.
 */
export function fencedDiffs(answer: string): string[] {
  const fences = [
    ...answer.matchAll(
      /^( {0,3})```[ \t]*(?:diff|patch|udiff)[^\n]*\n([\s\S]*?)(?:\n {0,3}```|(?![\s\S]))/gim,
    ),
  ];
  return fences
    .map(([, indent, body]) => (indent ? body.replace(new RegExp(`^ {1,${indent.length}}`, 'gm'), '') : body))
    .filter((d) => /^(?:---|\+\+\+|@@|diff --git)/m.test(d));
}

/**
 * The unified diff in a model's answer: every fenced ```diff (or ```patch) block joined, else an
 * unfenced (or bare-fenced) one from its first `diff --git`, `--- a/…` or `--- x` / `+++ y` line.
 * Null when there is none.
 */
export function extractDiff(answer: string): string | null {
  const fenced = fencedDiffs(answer);
  if (fenced.length > 0) return `${fenced.join('\n')}\n`;
  // `--- x` right above `+++ y` is a file header whatever the paths look like (no a/ b/).
  const start = answer.search(/^(?:diff --git |--- (?:a\/|\/dev\/null)|--- \S[^\n]*\n\+\+\+ \S)/m);
  if (start < 0) return null;
  return `${answer
    .slice(start)
    .replace(/\n```[\s\S]*/, '')
    // Not `/\s+$/`: it rescanned a long run of blanks from each of them.
    .trimEnd()}\n`;
}

/**
 * Rewrites every hunk header's line counts from the lines that follow it (what
 * `git apply --recount` does): models often miscount, and jsdiff rightly refuses a hunk
 * whose header disagrees with its body. A blank line inside a hunk is read as an empty
 * context line, and so is a line without a prefix that a change follows; blank lines that end
 * a hunk are dropped.
 */
export function recountHunks(diff: string): string {
  const lines = diff.replace(/\r\n/g, '\n').split('\n');
  const out: string[] = [];
  let i = 0;
  const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)/;
  // A hunk with no line numbers ("@@", or "@@ def main():" as some models write it): it is placed
  // by its context, as a hunk at the wrong line numbers already is (applyFilePatch searches).
  const bare = /^@@(?:\s+(?!-).*)?$/;
  const hunkAt = (k: number): string[] | null =>
    header.exec(lines[k]) ?? (bare.test(lines[k]) ? ['@@', '1', '1', ''] : null);
  const isFileHeader = (k: number) =>
    lines[k].startsWith('diff --git ') ||
    lines[k].startsWith('Index: ') ||
    (lines[k].startsWith('--- ') && (lines[k + 1] ?? '').startsWith('+++ '));
  // A context line that lost its leading space (models drop it) is one a change follows before a
  // blank line or the next header; else it is prose that ends the hunk. Worked out once, from the
  // end, so a long run of prose costs one pass.
  const ahead: boolean[] = [];
  const changeAhead = (k: number): boolean => {
    if (ahead.length === 0)
      for (let n = lines.length - 2; n >= 0; n--) {
        const next = n + 1;
        const boundary = lines[next] === '' || !!hunkAt(next) || isFileHeader(next);
        ahead[n] = !boundary && (/^[+-]/.test(lines[next]) || (ahead[next] ?? false));
      }
    return ahead[k] ?? false;
  };
  while (i < lines.length) {
    const m = hunkAt(i);
    if (!m) {
      out.push(lines[i++]);
      continue;
    }
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !hunkAt(j) && !isFileHeader(j)) {
      const l = lines[j];
      if (l === '') body.push(' ');
      else if (/^[ +\-\\]/.test(l)) body.push(l);
      else if (changeAhead(j)) body.push(` ${l}`);
      else break;
      j++;
    }
    while (body[body.length - 1] === ' ') body.pop();
    const oldCount = body.filter((l) => l[0] === ' ' || l[0] === '-').length;
    const newCount = body.filter((l) => l[0] === ' ' || l[0] === '+').length;
    const oldStart = oldCount === 0 ? Math.max(0, Number(m[1])) : Math.max(1, Number(m[1]));
    const newStart = newCount === 0 ? Math.max(0, Number(m[2])) : Math.max(1, Number(m[2]));
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@${m[3]}`);
    // One push per line: spread as arguments, a hunk of 200,000 lines overflowed the stack.
    for (const l of body) out.push(l);
    i = j;
  }
  return out.join('\n');
}

/**
 * A name as jsdiff read it (quotes, a tab and timestamp, and spaces already gone): `a/x` or
 * `b/x` → `x`; `/dev/null` or none → null.
 */
export function cleanName(name: string | null | undefined, side: 'a' | 'b'): string | null {
  if (!name || name === '/dev/null') return null;
  return name.startsWith(`${side}/`) ? name.slice(2) : name;
}

/** Parses a unified diff with jsdiff (after `recountHunks`); never throws. */
export function parseUnifiedDiff(diff: string): ParsedDiff {
  let patches;
  try {
    patches = parsePatch(recountHunks(diff));
  } catch (e) {
    return {
      ok: false,
      reason: `The diff could not be parsed: ${e instanceof Error ? e.message : String(e)}.`,
    };
  }
  const files: FilePatch[] = [];
  for (const p of patches) {
    if (p.hunks.length === 0 && p.oldFileName === undefined && p.newFileName === undefined) continue;
    const rawOld = p.oldFileName ?? null;
    const rawNew = p.newFileName ?? null;
    const oldPath = cleanName(p.oldFileName, 'a');
    const newPath = cleanName(p.newFileName, 'b');
    const rel = newPath ?? oldPath;
    if (rel === null)
      return { ok: false, reason: 'A file in the diff has no `--- a/…` / `+++ b/…` header naming it.' };
    files.push({
      path: rel,
      rawOld,
      rawNew,
      isCreate: !!p.isCreate || (oldPath === null && newPath !== null),
      isDelete: !!p.isDelete || (newPath === null && oldPath !== null),
      isRename: !!p.isRename || (oldPath !== null && newPath !== null && oldPath !== newPath),
      oldMode: p.oldMode,
      newMode: p.newMode,
      isBinary: !!p.isBinary,
      hunks: p.hunks,
    });
  }
  // Binary changes jsdiff drops (a summary line with no git header, git's literal patch followed
  // by a text file's `---` header): kept, so the guard refuses them instead of a proposal
  // silently carrying less than the model wrote.
  const binary = binaryChanges(diff).filter((rel) => !files.some((f) => f.path === rel && f.isBinary));
  const kept: FilePatch[] = binary.map((rel) => ({
    path: rel,
    rawOld: `a/${rel}`,
    rawNew: `b/${rel}`,
    isCreate: false,
    isDelete: false,
    isRename: false,
    isBinary: true,
    hunks: [],
  }));
  const all = [...kept, ...files];
  if (all.length === 0) return { ok: false, reason: 'The diff names no file and has no hunks.' };
  return { ok: true, files: all };
}

/** The files a diff changes as binary (`Binary files … differ`, `GIT binary patch`), by their new name. */
function binaryChanges(diff: string): string[] {
  const found: string[] = [];
  let gitHeader: string | null = null;
  for (const line of diff.split(/\r?\n/)) {
    const git = /^diff --git (\S+) (\S+)$/.exec(line);
    if (git) gitHeader = cleanName(git[2], 'b');
    const summary = /^Binary files (\S+) and (\S+) differ$/.exec(line);
    const rel = summary
      ? (cleanName(summary[2], 'b') ?? cleanName(summary[1], 'a'))
      : line === 'GIT binary patch'
        ? gitHeader
        : null;
    if (rel && !found.includes(rel)) found.push(rel);
  }
  return found;
}

/**
 * Checks a skill-relative path the way `readSkillFile` does: no absolute paths, drive
 * letters, backslashes, NUL or `..`. Returns the clean path or why it is refused.
 */
export function cleanRelPath(p: string): { ok: true; path: string } | { ok: false; reason: string } {
  const shown = JSON.stringify(p.slice(0, 200));
  if (p.includes('\0')) return { ok: false, reason: `${shown} contains a NUL byte.` };
  // win32.isAbsolute takes `/x`, `C:/x` and `//host`; the regex adds drive-relative `C:x`.
  if (path.win32.isAbsolute(p) || /^[a-zA-Z]:/.test(p) || p.startsWith('~'))
    return {
      ok: false,
      reason: `${shown} is an absolute path; patches use paths relative to the skill root.`,
    };
  if (p.includes('\\')) return { ok: false, reason: `${shown} contains a backslash; use "/" paths.` };
  const segments = p.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) return { ok: false, reason: `${shown} leaves the skill folder with "..".` };
  if (segments.length === 0) return { ok: false, reason: `${shown} names no file.` };
  return { ok: true, path: segments.join('/') };
}

/**
 * Lines compared without trailing blanks: models often drop or add them on copied lines. Past
 * the file's end jsdiff compares with no line at all, which matches nothing.
 */
const sameButTrailingBlanks = (
  _n: number,
  line: string | undefined,
  _op: string,
  patch: string | undefined,
) => line !== undefined && patch !== undefined && line.trimEnd() === patch.trimEnd();

/**
 * Applies a file's hunks (all, or those `keep` accepts, by their index within the file)
 * to `source`. Line endings follow the file (jsdiff converts a LF patch for a CRLF file).
 * A model's hunk often misquotes its context a little, so it is tried exactly, then with
 * trailing blanks ignored and one context line allowed to differ (GNU patch's fuzz; jsdiff
 * tries every place without a difference first, and lines the hunk removes must always
 * match), then with whitespace drift ignored (`matchWhitespace`). Wherever it lands, the user
 * reviews the change as it comes out, re-diffed against the file. Null when no way applies.
 */
export function applyFilePatch(
  source: string,
  hunks: StructuredPatchHunk[],
  keep?: (i: number) => boolean,
): string | null {
  // In the file's order: jsdiff applies each hunk after the last and, given them out of order
  // (models list them so), wrote a mangled file instead of failing.
  const chosen = inFileOrder(keep ? hunks.filter((_h, i) => keep(i)) : hunks);
  const patch = {
    // Stryker disable StringLiteral: applyPatch reads only the hunks; the names fill the type
    oldFileName: '',
    newFileName: '',
    oldHeader: '',
    newHeader: '',
    // Stryker restore StringLiteral
    hunks: chosen,
  };
  // Hunks whose stated lines overlap are placed by their context below: jsdiff, given them,
  // applied the second over what the first had written.
  if (!overlapping(chosen))
    for (const options of [{}, { compareLine: sameButTrailingBlanks, fuzzFactor: 1 }]) {
      const result = applyPatch(source, patch, options);
      if (result !== false) return result;
    }
  const found = matchWhitespace(source, chosen);
  // Placed by their context, hunks may sit in another order than their line numbers said.
  const respaced = found && inFileOrder(found);
  if (respaced === null || overlapping(respaced)) return null;
  const result = applyPatch(source, { ...patch, hunks: respaced });
  return result === false ? null : result;
}

/** Hunks sorted by where they start in the old file (a stable sort keeps ties as given). */
const inFileOrder = (hunks: StructuredPatchHunk[]) => [...hunks].sort((a, b) => a.oldStart - b.oldStart);

/** Whether two of the sorted hunks claim the same old lines: no order applies both. */
const overlapping = (hunks: StructuredPatchHunk[]) =>
  hunks.some((h, i) => i > 0 && hunks[i - 1].oldStart + hunks[i - 1].oldLines > h.oldStart);

/** The hunks between two texts (3 lines of context, as `diff -u`). */
export function hunksBetween(file: string, before: string | null, after: string): StructuredPatchHunk[] {
  return structuredPatch(file, file, before ?? '', after, undefined, undefined, { context: 3 }).hunks;
}

/** Renders changes as one unified diff with `a/…` / `b/…` headers (what the user and the CLI see). */
export function renderDiff(changes: FileChange[]): string {
  return changes
    .map((c) => {
      const text = createTwoFilesPatch(
        c.before === null ? '/dev/null' : `a/${c.path}`,
        `b/${c.path}`,
        c.before ?? '',
        c.after,
        undefined,
        undefined,
        { context: 3 },
      );
      // jsdiff starts with an `=====` separator line; unified diffs start at `---`.
      return text.slice(text.indexOf('--- '));
    })
    .join('');
}

/** Every hunk of the changes, numbered globally in file order (per-hunk accept / reject). */
export function numberHunks(changes: FileChange[]): ProposalHunk[] {
  const out: ProposalHunk[] = [];
  for (const c of changes) {
    for (const h of hunksBetween(c.path, c.before, c.after)) {
      out.push({
        index: out.length,
        file: c.path,
        old_start: h.oldStart,
        old_lines: h.oldLines,
        new_start: h.newStart,
        new_lines: h.newLines,
        lines: h.lines,
      });
    }
  }
  return out;
}

/** Files, hunks and added lines of a set of changes. */
export function diffStats(changes: FileChange[]): {
  files: number;
  hunks: number;
  added: number;
  removed: number;
} {
  let hunks = 0;
  let added = 0;
  let removed = 0;
  for (const c of changes) {
    for (const h of hunksBetween(c.path, c.before, c.after)) {
      hunks++;
      for (const l of h.lines) {
        if (l[0] === '+') added++;
        else if (l[0] === '-') removed++;
      }
    }
  }
  return { files: changes.length, hunks, added, removed };
}
