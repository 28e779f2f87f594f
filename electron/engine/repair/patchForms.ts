/**
 * The two other patch forms models are trained to write, read as a unified diff so one set of
 * guards, budget and replay judges every answer: Codex's `apply_patch` envelope
 * (`*** Begin Patch` / `*** Update File: p` / `@@` / `*** End Patch`) and Aider's
 * SEARCH/REPLACE blocks (a path line, then `<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE`).
 * Both tools apply these forms themselves, and models tuned on them write them even when asked
 * for a unified diff. Hunks come out with bare `@@` headers: `recountHunks` counts them and
 * `applyFilePatch` places them by their lines, as it does a unified hunk at the wrong line.
 */

/** A patch in another form, as unified diff text, and where in the answer it began. */
export interface OtherForm {
  diff: string;
  /** Offset in the answer where the patch starts (what comes before is the model's prose). */
  start: number;
}

const BEGIN = /^[ \t]*\*\*\* Begin Patch[ \t]*$/m;

/** The patch in Codex's or Aider's form, or null when the answer has neither. */
export function otherPatchForm(answer: string): OtherForm | null {
  const text = answer.replace(/\r\n/g, '\n');
  const begin = BEGIN.exec(text);
  if (begin) {
    const line = text.slice(0, begin.index).split('\n').length - 1;
    return { diff: fromApplyPatch(text.slice(begin.index)), start: lineStart(answer, line) };
  }
  const blocks = fromSearchReplace(text);
  return blocks && { diff: blocks.diff, start: lineStart(answer, blocks.line) };
}

/** Where line `n` of the answer starts in it (its lines may end in CRLF, which counts two). */
function lineStart(answer: string, n: number): number {
  let at = 0;
  for (let i = 0; i < n; i++) at = answer.indexOf('\n', at) + 1;
  return at;
}

/** Codex's `apply_patch` envelope: Update / Add / Delete File sections, `*** Move to:` a rename. */
function fromApplyPatch(text: string): string {
  const out: string[] = [];
  let mode: 'update' | 'add' | 'none' = 'none';
  // Stryker disable next-line ArrayDeclaration: the first file header empties it before an Add File's line is read
  let added: string[] = [];
  // Stryker disable next-line BooleanLiteral: the first file header sets it before a hunk's line is read
  let inHunk = false;
  const flushAdd = () => {
    if (mode === 'add') {
      out.push(`@@ -0,0 +1,${added.length} @@`);
      pushEach(out, added, '+');
    }
    added = [];
  };
  const [first, ...rest] = text.split('\n');
  // An envelope indented as a whole (under a list item, in a quote of the answer) is read at
  // the indentation of its Begin line, which BEGIN allows.
  const indent = first.slice(0, first.length - first.trimStart().length);
  for (const raw of rest) {
    const line = raw.startsWith(indent) ? raw.slice(indent.length) : raw;
    if (/^\*\*\* End Patch/.test(line)) break;
    // The name runs to its last non-blank: `(.+?)\s*$` tried `\s*$` from each character of a
    // run of blanks inside a name, quadratic in its length.
    const file = /^\*\*\* (Update|Add|Delete) File: (.*\S|.)\s*$/.exec(line);
    if (file) {
      flushAdd();
      const [, kind, name] = file;
      if (kind === 'Update') out.push(`--- a/${name}`, `+++ b/${name}`);
      else if (kind === 'Add') out.push('--- /dev/null', `+++ b/${name}`);
      else out.push(`--- a/${name}`, '+++ /dev/null');
      mode = kind === 'Update' ? 'update' : kind === 'Add' ? 'add' : 'none';
      inHunk = false;
      continue;
    }
    const move = /^\*\*\* Move to: (.*\S|.)\s*$/.exec(line);
    if (move && mode === 'update' && !inHunk) {
      out[out.length - 1] = `+++ b/${move[1]}`;
      continue;
    }
    if (/^\*\*\* End of File/.test(line) || /^```/.test(line)) continue;
    if (mode === 'add') {
      added.push(line.startsWith('+') ? line.slice(1) : line);
      continue;
    }
    if (mode !== 'update') continue;
    // `@@ def main():` names a place; the lines that follow place the hunk.
    if (line.startsWith('@@')) {
      out.push('@@');
      inHunk = true;
      continue;
    }
    if (!inHunk) out.push('@@');
    inHunk = true;
    out.push(/^[ +-]/.test(line) ? line : ` ${line}`);
  }
  flushAdd();
  return `${out.join('\n')}\n`;
}

/**
 * The path a SEARCH block belongs to, and its line: the nearest line above the block that is not
 * a fence or blank.
 */
function pathAbove(lines: string[], at: number): { name: string; line: number } | null {
  for (let i = at - 1; i >= 0; i--) {
    const line = lines[i].trim();
    if (line === '' || /^(`{3,}|~{3,})/.test(line)) continue;
    const name = line
      .replace(/^#+\s*/, '')
      .replace(/^(?:file(?:name)?|path)\s*:\s*/i, '')
      .replace(/^[*_`"']+/, '')
      // Only from the start of a run: tried from each of its characters, this was quadratic.
      .replace(/(?<![*_`"':])[*_`"':]+$/, '')
      .trim();
    // Prose or the REPLACE marker of a block right above is no name: the block keeps the file before.
    return /^[\w./-]+$/.test(name) && !name.endsWith('/') ? { name, line: i } : null;
  }
  return null;
}

/** Appends each line with `prefix`; not `push(...lines)`, whose arguments overflow the stack past ~100,000. */
function pushEach(out: string[], lines: string[], prefix: string): void {
  for (const l of lines) out.push(prefix + l);
}

/** The first line from `from` on that matches, or -1. */
function next(lines: string[], from: number, pattern: RegExp): number {
  // Stryker disable next-line EqualityOperator: one line past the end is undefined, which no pattern matches
  for (let k = from; k < lines.length; k++) if (pattern.test(lines[k])) return k;
  return -1;
}

/**
 * Aider's SEARCH/REPLACE blocks. Each becomes one hunk that removes the SEARCH lines and adds
 * the REPLACE lines; an empty SEARCH creates the file (Aider's convention); a block without a
 * path of its own belongs to the one before.
 */
function fromSearchReplace(text: string): { diff: string; line: number } | null {
  const lines = text.split('\n');
  const out: string[] = [];
  let file: string | null = null;
  let start = -1;
  // Stryker disable next-line EqualityOperator: one line past the end is undefined, which is no SEARCH line
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*<{5,9} SEARCH\s*$/.test(lines[i])) continue;
    // Looked for from the SEARCH line, which is no separator, and from the separator, no REPLACE.
    const sep = next(lines, i, /^\s*={5,9}\s*$/);
    const end = sep === -1 ? -1 : next(lines, sep, /^\s*>{5,9} REPLACE\s*$/);
    if (end === -1) break;
    const above = pathAbove(lines, i);
    file = above?.name ?? file;
    if (file === null) return null;
    // The first block has a path line of its own: the patch begins there, the prose above it.
    if (start < 0 && above) start = above.line;
    const search = lines.slice(i + 1, sep);
    const replace = lines.slice(sep + 1, end);
    if (search.every((l) => l.trim() === ''))
      out.push('--- /dev/null', `+++ b/${file}`, `@@ -0,0 +1,${replace.length} @@`);
    else {
      out.push(`--- a/${file}`, `+++ b/${file}`, '@@');
      pushEach(out, search, '-');
    }
    pushEach(out, replace, '+');
    i = end;
  }
  if (out.length === 0) return null;
  return { diff: `${out.join('\n')}\n`, line: start };
}
