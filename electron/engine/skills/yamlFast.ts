import { parseJson5ish } from './json5ish';
import {
  doubleQuotedEnd,
  FlowScanner,
  parseJsonString,
  singleQuotedEnd,
  Unsupported,
  unsupported,
} from './yamlFlow';

/**
 * A fast reader for the YAML most frontmatter is written in: block mappings and
 * sequences of one-line scalars, quoted strings, JSON flow collections (OpenClaw's
 * `metadata: {...}`) and `|` / `>` block scalars. It gives exactly what the `yaml`
 * package gives with the failsafe schema (every scalar a string), and gives up
 * (`undefined`) on anything else, which then goes to the `yaml` package.
 *
 * Values YAML rejects but yamlLenient's repair reads as quoted text (an unquoted `: `,
 * `[a] [b]`) are read the same way here and reported in `quoted`.
 *
 * Why: `yaml` costs about 0.15–0.3 ms per document; listing the 3,483-skill corpus
 * must take well under a second (DESIGN §7 CLI budget). yamlFast.test.ts and
 * corpus.test.ts check that both paths give the same result, problems included.
 */

export interface FastYaml {
  data: Record<string, unknown>;
  /** Top-level keys given twice (the last one wins, as in PyYAML and most clients). */
  duplicates: { key: string; line: number }[];
  /**
   * Values YAML rejects that were read as quoted strings, exactly as yamlLenient's repair
   * would (an unquoted `: ` in a value, `[a] [b]`): 1-based line within `text`.
   */
  quoted: { key: string; line: number }[];
}

interface Line {
  indent: number;
  /** The line without its indentation and trailing whitespace. */
  text: string;
  /** 0-based index into the raw lines. */
  index: number;
  /** The `key: value` part of a `- key: value` line. */
  inSeq?: boolean;
}

const KEY = /^([A-Za-z0-9_][A-Za-z0-9_.-]*):(?:[ ]+(.*))?$/;
const MAX_DEPTH = 32;

/** Parses `text` if it is in the supported subset; `undefined` means "ask the real parser". */
export function parseFastYaml(text: string): FastYaml | undefined {
  try {
    return new FastParser(text).parse();
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
}

class FastParser {
  private readonly raw: string[];
  private readonly lines: Line[] = [];
  private pos = 0;
  private readonly duplicates: { key: string; line: number }[] = [];
  private readonly quoted: { key: string; line: number }[] = [];

  constructor(text: string) {
    this.raw = text.split('\n');
    this.raw.forEach((line, index) => {
      const text = line.trimEnd();
      const body = text.trimStart();
      // A tab on an otherwise empty line can be an error in YAML: leave it to the real parser.
      if (body === '' && line.includes('\t')) unsupported();
      if (body === '' || body.startsWith('#')) return;
      const indent = text.length - body.length;
      if (text.slice(0, indent).includes('\t')) unsupported();
      if (indent === 0 && (body.startsWith('---') || body.startsWith('...') || body.startsWith('%')))
        unsupported();
      this.lines.push({ indent, text: body, index });
    });
  }

  parse(): FastYaml {
    if (this.lines.length === 0 || this.lines[0].indent !== 0) unsupported();
    const data = this.map(0, 0);
    if (this.pos < this.lines.length) unsupported();
    return { data, duplicates: this.duplicates, quoted: this.quoted };
  }

  private peek(): Line | undefined {
    return this.lines[this.pos];
  }

  private map(indent: number, depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) unsupported();
    const out: Record<string, unknown> = {};
    for (let line = this.peek(); line && line.indent >= indent; line = this.peek()) {
      if (line.indent > indent) unsupported();
      const m = KEY.exec(line.text);
      if (!m || m[1] === '__proto__') unsupported();
      this.pos++;
      // YAML separates `key:` from its value with spaces and tabs alike.
      const value = this.value(m[1], (m[2] ?? '').replace(/^[ \t]+/, ''), indent, line, depth);
      // Only top-level duplicates are reported, as yamlLenient does for the `yaml` package.
      if (depth === 0 && Object.prototype.hasOwnProperty.call(out, m[1])) {
        this.duplicates.push({ key: m[1], line: line.index + 1 });
      }
      out[m[1]] = value;
    }
    return out;
  }

  private seq(indent: number, depth: number): unknown[] {
    if (depth > MAX_DEPTH) unsupported();
    const out: unknown[] = [];
    for (let line = this.peek(); line && line.indent === indent && isSeqItem(line.text); line = this.peek()) {
      const rest = line.text.slice(1).trimStart();
      if (KEY.test(rest)) {
        // `- key: value` starts a mapping whose keys line up with `key`.
        const itemIndent = indent + line.text.length - rest.length;
        this.lines[this.pos] = { indent: itemIndent, text: rest, index: line.index, inSeq: true };
        out.push(this.map(itemIndent, depth + 1));
        continue;
      }
      this.pos++;
      // Nested blocks inside sequences go to the real parser.
      if (rest === '' || isSeqItem(rest) || /^[^'"{[]*:(\s|$)/.test(rest)) unsupported();
      out.push(this.scalar(rest, indent, line));
    }
    const next = this.peek();
    if (next && next.indent > indent) unsupported();
    return out;
  }

  /** The value after `key:`; `parentIndent` is the key's indentation. */
  private value(key: string, rest: string, parentIndent: number, line: Line, depth: number): unknown {
    if (rest !== '') return this.scalar(rest, parentIndent, line, key);
    const next = this.peek();
    if (!next) return '';
    if (next.indent > parentIndent) {
      if (isSeqItem(next.text)) return this.seq(next.indent, depth + 1);
      if (KEY.test(next.text)) return this.map(next.indent, depth + 1);
      this.pos++;
      // A value on the next line: `: ` there would make it a mapping with a spaced key.
      if (!'{["\''.includes(next.text[0]) && /:(\s|$)/.test(next.text)) unsupported();
      return this.scalar(next.text, parentIndent, next);
    }
    // YAML lets a sequence sit at its parent key's indentation.
    if (next.indent === parentIndent && isSeqItem(next.text)) return this.seq(parentIndent, depth + 1);
    return '';
  }

  /** A scalar or flow collection starting at `rest`; `key` is set for a mapping value on the key's line. */
  private scalar(rest: string, parentIndent: number, line: Line, key?: string): unknown {
    const c = rest[0];
    if (c === '|' || c === '>') return this.blockScalar(rest, parentIndent, line);
    if (c === '{' || c === '[') return this.flow(rest, parentIndent, line, key);
    if (c !== '"' && c !== "'") return this.plain(rest, parentIndent, line, key);
    const end = c === '"' ? doubleQuotedEnd(rest) : singleQuotedEnd(rest);
    if (end < 0) unsupported();
    const value =
      c === '"' ? parseJsonString(rest.slice(0, end + 1)) : rest.slice(1, end).replace(/''/g, "'");
    endOfLine(rest.slice(end + 1));
    // A more-indented line after a complete scalar is an error.
    const next = this.peek();
    if (next && next.indent > parentIndent && next.index > line.index) unsupported();
    return value;
  }

  /**
   * A plain scalar, folded over its continuation lines. With an unquoted `: ` (an error in
   * YAML) it is read as yamlLenient's repair reads it: comment cut from the first line, all
   * lines folded, and reported in `quoted`.
   */
  private plain(rest: string, parentIndent: number, line: Line, key?: string): string {
    const c = rest[0];
    // Indicators go to the real parser; `-x` is a plain scalar, `- x` is not.
    if ('&*!%@`,?:#]}'.includes(c) || (c === '-' && /^-(\s|$)/.test(rest))) unsupported();
    const more: string[] = [];
    let i = line.index + 1;
    for (; i < this.raw.length; i++) {
      const text = this.raw[i].trim();
      if (text !== '' && this.raw[i].length - this.raw[i].trimStart().length <= parentIndent) break;
      more.push(text);
    }
    while (more.length > 0 && more[more.length - 1] === '') more.pop();
    while (this.pos < this.lines.length && this.lines[this.pos].index <= line.index + more.length) this.pos++;
    // Comment lines end the scalar; only comments and blank lines may follow them.
    const firstComment = more.findIndex((l) => l.startsWith('#'));
    const text = firstComment < 0 ? more : more.slice(0, firstComment);
    if (firstComment >= 0 && more.slice(firstComment).some((l) => l !== '' && !l.startsWith('#'))) {
      unsupported();
    }
    while (text.length > 0 && text[text.length - 1] === '') text.pop();
    const comment = /\s#/.exec(rest);
    const first = comment ? rest.slice(0, comment.index).trimEnd() : rest;
    if (/:(\s|$)/.test(first)) {
      // `key: a: b` always fails in YAML; read it as the repair does (which rewrites only
      // `key: value` lines, not `- key: value` ones).
      if (key === undefined || line.inSeq) unsupported();
      this.quoted.push({ key, line: line.index + 1 });
      return foldPlain(first, text);
    }
    const bad = (l: string) => /^[-?:[\]{},&*!|>'"%@`]/.test(l) || /\s#|:(\s|$)/.test(l);
    if ((comment && text.length > 0) || text.some(bad)) unsupported();
    return foldPlain(first, text);
  }

  /** A flow collection, possibly over several lines (OpenClaw's pretty-printed `metadata`). */
  private flow(rest: string, parentIndent: number, line: Line, key?: string): unknown {
    const parts = [rest];
    for (let i = line.index + 1; i < this.raw.length; i++) {
      const text = this.raw[i];
      const indent = text.length - text.trimStart().length;
      if (text.trim() !== '' && indent <= parentIndent) {
        // YAML accepts the outer closing bracket alone at column 0 (OpenClaw's pretty-printed JSON).
        if (parentIndent === 0 && indent === 0 && /^[}\]]\s*$/.test(text)) parts.push(text);
        break;
      }
      parts.push(text);
    }
    const source = parts.join('\n');
    const scanner = new FlowScanner(source);
    const value = scanner.value(0);
    const consumed = source.slice(0, scanner.pos);
    const lastLine = line.index + (consumed.match(/\n/g)?.length ?? 0);
    const lineEnd = source.indexOf('\n', scanner.pos);
    const after = source.slice(scanner.pos, lineEnd < 0 ? undefined : lineEnd);
    if (
      key !== undefined &&
      !line.inSeq &&
      lastLine === line.index &&
      /^\s+[^\s#]/.test(after) &&
      !after.includes(':') &&
      parseJson5ish(rest) === undefined
    ) {
      // `argument-hint: [a] [b]`: YAML rejects it; yamlLenient's repair reads it as text
      // (together with any more-indented lines, comments included: those go to the repair).
      const following = this.raw[line.index + 1] ?? '';
      if (following.trim() !== '' && following.length - following.trimStart().length > parentIndent)
        unsupported();
      this.quoted.push({ key, line: line.index + 1 });
      while (this.pos < this.lines.length && this.lines[this.pos].index <= line.index) this.pos++;
      const next = this.peek();
      if (next && next.indent > parentIndent) unsupported();
      return rest;
    }
    endOfLine(after);
    while (this.pos < this.lines.length && this.lines[this.pos].index <= lastLine) this.pos++;
    const next = this.peek();
    if (next && next.indent > parentIndent) unsupported();
    return value;
  }

  private blockScalar(header: string, parentIndent: number, line: Line): string {
    const m = /^([|>])(-?)(?:\s+#.*)?$/.exec(header);
    if (!m) unsupported();
    const content: string[] = [];
    let contentIndent = -1;
    let i = line.index + 1;
    for (; i < this.raw.length; i++) {
      const text = this.raw[i];
      if (text.trim() === '') {
        // Spaces beyond the indentation are content in YAML; leave such lines to the real parser.
        if (text.length > (contentIndent < 0 ? 0 : contentIndent) || text.includes('\t')) unsupported();
        content.push('');
        continue;
      }
      const indent = text.length - text.trimStart().length;
      if (contentIndent < 0) {
        if (indent <= parentIndent) break;
        if (text.slice(0, indent).includes('\t')) unsupported();
        contentIndent = indent;
      }
      if (indent < contentIndent) break;
      if (m[1] === '>' && indent > contentIndent) unsupported();
      content.push(text.slice(contentIndent));
    }
    // Lines that belong to the scalar are no longer structure.
    while (this.pos < this.lines.length && this.lines[this.pos].index < i) this.pos++;
    while (content.length > 0 && content[content.length - 1] === '') content.pop();
    if (content.length > 0 && content[0] === '' && m[1] === '>') unsupported();
    if (content.some((l) => /[\t]/.test(l)) && m[1] === '>') unsupported();
    const text =
      m[1] === '|'
        ? content.join('\n')
        : content.join('\n').replace(/\n(\n*)/g, (_s, extra: string) => (extra ? extra : ' '));
    if (text === '') return '';
    return m[2] === '-' ? text : `${text}\n`;
  }
}

/** A multi-line plain scalar as YAML folds it: single breaks become spaces, blank lines newlines. */
export function foldPlain(first: string, rest: string[]): string {
  let out = first;
  let blanks = 0;
  for (const line of rest) {
    if (line === '') {
      blanks++;
      continue;
    }
    out += blanks > 0 ? '\n'.repeat(blanks) : ' ';
    out += line;
    blanks = 0;
  }
  return out;
}

function isSeqItem(text: string): boolean {
  return text === '-' || text.startsWith('- ');
}

function endOfLine(after: string): void {
  if (after.trim() !== '' && !/^\s+#/.test(after)) unsupported();
}
