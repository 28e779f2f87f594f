import type { Problem } from '../../../shared/contract';
import { error, warning } from './problems';

/** SKILL.md cut into its frontmatter block and body, with what was wrong with the cut. */
export interface FrontmatterSplit {
  /** The YAML between the `---` lines (LF line ends), or '' when none was found. */
  raw: string;
  /** YAML to parse: `raw` with merge-conflict markers and the "theirs" side removed. */
  yaml: string;
  /** The Markdown after the closing `---`. */
  body: string;
  /** Lines of SKILL.md before the first line of `raw`: YAML line n is file line n + lineOffset. */
  lineOffset: number;
  /** False when there is no frontmatter block at all. */
  found: boolean;
  problems: Problem[];
}

const DELIMITER = /^---[ \t]*$/;
const CONFLICT_MARKER = /^(<{7}|={7}|>{7})(\s|$)/;
/** How far down a misplaced `---` block is still looked for (HTML comments, code fences, notes). */
const LATE_START_LINES = 40;
const NAME_OR_DESCRIPTION = /^(name|description)[ \t]*:/m;

/** Strips a BOM and turns CRLF / CR into LF, the way every client reads SKILL.md. */
export function normalizeText(text: string): { text: string; hadBom: boolean } {
  const hadBom = text.charCodeAt(0) === 0xfeff;
  const noBom = hadBom ? text.slice(1) : text;
  return { text: noBom.includes('\r') ? noBom.replace(/\r\n?/g, '\n') : noBom, hadBom };
}

/**
 * Finds the frontmatter block leniently (agentskills.io client guide): a BOM, CRLF and
 * leading blank lines are tolerated; a block after other content, an unclosed block and
 * merge-conflict markers are errors, but the block is still handed back so the list can
 * show the skill's name and description.
 */
export function splitFrontmatter(input: string): FrontmatterSplit {
  const { text, hadBom } = normalizeText(input);
  const problems: Problem[] = [];
  if (hadBom) {
    problems.push(
      warning(
        'bom',
        'SKILL.md starts with a byte-order mark; save it as UTF-8 without BOM so strict tools find the `---`.',
        {
          line: 1,
        },
      ),
    );
  }
  const lines = new Lines(text);
  let start = 0;
  while (lines.at(start)?.trim() === '') start++;

  if (DELIMITER.test(lines.at(start) ?? '')) {
    if (start > 0) {
      problems.push(
        warning(
          'leading-blank-lines',
          'Blank lines come before the opening `---`; delete them, other tools need `---` on line 1.',
          {
            line: 1,
          },
        ),
      );
    }
    return cut(lines, start, problems);
  }

  // The corpus has HTML comments, notes and code fences before the `---`. Other clients do
  // not see such a block, so this stays an error (not routable); the block is still read so
  // the list can say which skill it is and the fix is a matter of deleting lines.
  for (let i = start + 1; i < LATE_START_LINES && lines.at(i) !== undefined; i++) {
    if (!DELIMITER.test(lines.at(i) ?? '')) continue;
    const close = findClose(lines, i);
    if (close < 0 || !NAME_OR_DESCRIPTION.test(lines.join(i + 1, close))) continue;
    problems.push(
      error(
        'frontmatter-not-at-start',
        `The frontmatter starts on line ${i + 1}, after other content; move the \`---\` block to the very top of SKILL.md.`,
        { line: i + 1 },
      ),
    );
    return cut(lines, i, problems);
  }

  // `name:` / `description:` lines above a `---` line: the opening delimiter is missing.
  const close = NAME_OR_DESCRIPTION.test(lines.at(start) ?? '') ? findClose(lines, start) : -1;
  if (close > 0 && close < LATE_START_LINES) {
    problems.push(
      error(
        'no-frontmatter',
        'The frontmatter has no opening `---`; add a line with just `---` above the first field.',
        {
          line: start + 1,
        },
      ),
    );
    return cut(lines, start - 1, problems);
  }

  problems.push(
    error(
      'no-frontmatter',
      'SKILL.md has no YAML frontmatter; start it with a `---` block holding at least `name:` and `description:`.',
      { line: 1 },
    ),
  );
  return { raw: '', yaml: '', body: text, lineOffset: 0, found: false, problems };
}

/** Lines of a text, split only as far as they are asked for (SKILL.md bodies can be long). */
class Lines {
  private readonly starts = [0];
  constructor(private readonly text: string) {}

  /** Offset of line i's first character, or -1 past the end. */
  offset(i: number): number {
    while (this.starts.length <= i) {
      const last = this.starts[this.starts.length - 1];
      if (last < 0) return -1;
      const nl = this.text.indexOf('\n', last);
      this.starts.push(nl < 0 ? -1 : nl + 1);
    }
    return this.starts[i];
  }

  at(i: number): string | undefined {
    const from = this.offset(i);
    if (from < 0) return undefined;
    const to = this.offset(i + 1);
    return this.text.slice(from, to < 0 ? undefined : to - 1);
  }

  /** Lines [from, to) joined with LF. */
  join(from: number, to: number): string {
    const a = this.offset(from);
    if (a < 0) return '';
    const b = this.offset(to);
    return this.text.slice(a, b < 0 ? undefined : b - 1);
  }

  /** Everything from line i on. */
  rest(i: number): string {
    const a = this.offset(i);
    return a < 0 ? '' : this.text.slice(a);
  }
}

function findClose(lines: Lines, open: number): number {
  for (let i = open + 1; ; i++) {
    const line = lines.at(i);
    if (line === undefined) return -1;
    if (DELIMITER.test(line)) return i;
  }
}

function cut(lines: Lines, open: number, problems: Problem[]): FrontmatterSplit {
  const lineOffset = open + 1;
  const close = findClose(lines, open);
  if (close < 0) {
    problems.push(
      error(
        'frontmatter-unclosed',
        'The frontmatter is not closed; add a line with just `---` after the last field.',
        {
          line: open + 1,
        },
      ),
    );
    // Recover the fields up to the first blank line so the list can still show a name.
    let end = open + 1;
    for (let line = lines.at(end); line !== undefined && line.trim() !== ''; line = lines.at(end)) end++;
    const raw = lines.join(open + 1, end);
    return {
      raw,
      yaml: dropConflicts(raw, lineOffset, problems),
      body: lines.rest(end),
      lineOffset,
      found: true,
      problems,
    };
  }
  const raw = close > open + 1 ? lines.join(open + 1, close) : '';
  return {
    raw,
    yaml: dropConflicts(raw, lineOffset, problems),
    body: lines.rest(close + 1),
    lineOffset,
    found: true,
    problems,
  };
}

/** Reports merge-conflict markers and keeps "our" side so the rest still parses. */
function dropConflicts(raw: string, lineOffset: number, problems: Problem[]): string {
  if (!raw.includes('<<<<<<<') && !raw.includes('>>>>>>>') && !raw.includes('=======')) return raw;
  const lines = raw.split('\n');
  const first = lines.findIndex((l) => CONFLICT_MARKER.test(l));
  if (first < 0) return raw;
  problems.push(
    error(
      'merge-conflict',
      'The frontmatter contains merge-conflict markers (<<<<<<< ======= >>>>>>>); resolve the conflict and delete the markers.',
      { line: first + 1 + lineOffset },
    ),
  );
  let theirs = false;
  // Keep line numbers stable for later YAML errors: blank out instead of removing.
  return lines
    .map((line) => {
      const m = CONFLICT_MARKER.exec(line);
      if (m) {
        if (m[1].startsWith('=')) theirs = true;
        if (m[1].startsWith('>')) theirs = false;
        return '';
      }
      return theirs ? '' : line;
    })
    .join('\n');
}
