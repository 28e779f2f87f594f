import YAML, { isMap, isScalar } from 'yaml';
import type { Problem } from '../../../shared/contract';
import { missingClosers, parseJson5ish } from './json5ish';
import { foldPlain, parseFastYaml } from './yamlFast';
import { kib, MAX_YAML_BYTES, MAX_YAML_NESTING, oversizeBytes, tooDeepAt } from './yamlDepth';
import { error, warning } from './problems';

export interface LenientYaml {
  /** The mapping read, or a best-effort salvage of its top-level scalars when it failed. */
  data: Record<string, unknown>;
  /** False when the YAML could not be read even after repairs. */
  ok: boolean;
  problems: Problem[];
  /** True when the text was over MAX_YAML_BYTES and not read at all: its fields are unknown, not missing. */
  unread?: boolean;
}

// Failsafe schema: every scalar stays the text that was written (`version: 1.0` is "1.0"),
// and the normalizer coerces per field. Duplicate keys are tolerated (last wins, as in
// PyYAML and most clients) and reported as a warning. No pretty errors: the package formats
// every error with a scan of its whole line, so one long line of `"` (thousands of errors) took
// 22 s at 80,000 characters; only the first error is shown, and its line is worked out here.
const YAML_OPTIONS = {
  schema: 'failsafe',
  logLevel: 'silent',
  uniqueKeys: false,
  prettyErrors: false,
} as const;

/**
 * The package makes an Error for each YAML error, and each captured a stack: most of the time
 * left on such a line. None of them is thrown, and only the first one's message is shown.
 */
function parseDocument(text: string): YAML.Document.Parsed {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return YAML.parseDocument(text, YAML_OPTIONS);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * Reads YAML the way the agentskills.io client guide asks: strictly first, then, when that
 * fails, retrying with unquoted values that contain `: ` (or start with `[`) quoted and
 * JSON5-style flow objects rewritten as JSON. YAML line n is line n + `lineOffset` of the file;
 * `file` names the file in messages (a sidecar's failure is a warning, not an error).
 * `options.fast: false` skips the fast reader (tests compare both paths).
 */
export function parseYamlLenient(
  text: string,
  lineOffset: number,
  file = 'SKILL.md',
  options: { fast?: boolean } = {},
): LenientYaml {
  const size = oversizeBytes(text);
  if (size > 0) return { data: {}, ok: false, problems: [tooLarge(size, lineOffset, file)], unread: true };

  const fast = options.fast === false ? undefined : parseFastYaml(text);
  if (fast) {
    const problems = fast.duplicates.map((d) => duplicateWarning(d.key, d.line + lineOffset, file));
    for (const q of fast.quoted) problems.push(recoveredWarning({ ...q, how: 'quoted' }, lineOffset, file));
    return { data: fast.data, ok: true, problems };
  }

  const deep = tooDeepAt(text);
  if (deep > 0) return { data: salvage(text), ok: false, problems: [tooDeep(deep + lineOffset, file)] };

  const first = readDocument(text, lineOffset, file);
  if (first.ok) return first;

  const repaired = repair(text);
  if (repaired.fixes.length > 0) {
    const second = readDocument(repaired.text, lineOffset, file);
    if (second.ok) {
      for (const fix of repaired.fixes) second.problems.push(recoveredWarning(fix, lineOffset, file));
      return second;
    }
  }
  return { ...first, data: salvage(text) };
}

function recoveredWarning(fix: Fix, lineOffset: number, file: string): Problem {
  const where = file === 'SKILL.md' ? 'the frontmatter' : file;
  const message =
    fix.how === 'closed'
      ? `\`${fix.key}\` in ${where} is not valid JSON: it ends without its closing \`${fix.closers}\`. It was read as if \`${fix.closers}\` were at the end; add it there.`
      : fix.how === 'json'
        ? `\`${fix.key}\` in ${where} is not valid YAML flow style; it was read as JSON5. Write it as strict JSON or as block YAML.`
        : `The value of \`${fix.key}\` in ${where} needs quotes (it contains \`: \` or starts with a YAML indicator); it was read as a quoted string. Put it in double quotes.`;
  return warning('yaml-recovered', message, { field: fix.key, line: fix.line + lineOffset });
}

function tooDeep(line: number, file: string): Problem {
  return file === 'SKILL.md'
    ? error(
        'yaml-invalid',
        `The frontmatter nests more than ${MAX_YAML_NESTING} levels deep (line ${line}), so it was not read as YAML. Write its fields as plain \`key: value\` lines.`,
        { line },
      )
    : warning(
        'sidecar-invalid',
        `${file} nests more than ${MAX_YAML_NESTING} levels deep (line ${line}); it was ignored. Write its fields as plain \`key: value\` lines.`,
        { field: file, line },
      );
}

function tooLarge(bytes: number, lineOffset: number, file: string): Problem {
  const limit = `more than the ${kib(MAX_YAML_BYTES)} KiB SkillDeck reads`;
  return file === 'SKILL.md'
    ? error(
        'yaml-invalid',
        `The frontmatter is ${kib(bytes)} KiB, ${limit}, so it was not read as YAML. Keep it to short fields; move long text into the body or a file under references/.`,
        { line: lineOffset + 1 },
      )
    : warning(
        'sidecar-invalid',
        `${file} is ${kib(bytes)} KiB, ${limit}; it was ignored. Keep it to short fields.`,
        { field: file, line: 1 },
      );
}

function duplicateWarning(key: string, line: number, file: string): Problem {
  return warning(
    'yaml-duplicate-key',
    `\`${key}\` is given twice in ${file}; the last one is used. Delete the other one.`,
    {
      field: key,
      line,
    },
  );
}

function readDocument(text: string, lineOffset: number, file: string): LenientYaml {
  const sidecar = file !== 'SKILL.md';
  const doc = parseDocument(text);
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const line = lineOf(text, e.pos[0]) + lineOffset;
    const what = e.message.split('\n')[0];
    const message = sidecar
      ? `${file} is not valid YAML (line ${line}: ${what}); it was ignored. Fix the YAML syntax.`
      : `The frontmatter is not valid YAML (line ${line}: ${what}). Fix the syntax; quote values that contain \`: \` or start with \`[\`.`;
    const p = sidecar
      ? warning('sidecar-invalid', message, { field: file, line })
      : error('yaml-invalid', message, { line });
    return { data: {}, ok: false, problems: [p] };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 50 });
  } catch (e) {
    // An alias bomb, or an alias to no anchor (`description: *bold* claims`): the package throws.
    const what = (e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 200);
    const message = sidecar
      ? `${file} could not be read as YAML (${what}); it was ignored. Fix its anchors (&) and aliases (*).`
      : `The frontmatter could not be read as YAML (${what}). Quote a value that starts with \`*\` or \`&\`; do not use anchors and aliases.`;
    const p = sidecar
      ? warning('sidecar-invalid', message, { field: file, line: lineOffset + 1 })
      : error('yaml-invalid', message, { line: lineOffset + 1 });
    return { data: {}, ok: false, problems: [p] };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    const message = sidecar
      ? `${file} must be a YAML mapping of \`key: value\` lines; it was ignored.`
      : 'The frontmatter must be a YAML mapping of `key: value` lines (it is a list or a single value).';
    const p = sidecar
      ? warning('sidecar-invalid', message, { field: file, line: lineOffset + 1 })
      : error('frontmatter-not-mapping', message, { line: lineOffset + 1 });
    return { data: {}, ok: false, problems: [p] };
  }
  const problems: Problem[] = [];
  if (isMap(doc.contents)) {
    const seen = new Set<string>();
    for (const item of doc.contents.items) {
      if (!isScalar(item.key)) continue;
      const key = String(item.key.value);
      if (seen.has(key)) {
        const line =
          doc.contents.range && item.key.range ? lineOf(text, item.key.range[0]) + lineOffset : undefined;
        problems.push(duplicateWarning(key, line ?? lineOffset + 1, file));
      }
      seen.add(key);
    }
  }
  return { data: data as Record<string, unknown>, ok: true, problems };
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

interface Fix {
  /** 1-based line within the YAML text. */
  line: number;
  key: string;
  /** `closed`: JSON whose last brackets were missing, read with `closers` added. */
  how: 'quoted' | 'json' | 'closed';
  closers?: string;
}

const KEY_LINE = /^(\s*)([A-Za-z0-9_][\w.-]*):[ \t]+(\S.*)$/;
const indentOf = (line: string) => line.length - line.trimStart().length;

/** Quotes the values YAML chokes on, line by line; blanks replaced lines to keep numbering. */
function repair(text: string): { text: string; fixes: Fix[] } {
  const lines = text.split('\n');
  const fixes: Fix[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = KEY_LINE.exec(lines[i]);
    if (!m) continue;
    const [, indent, key] = m;
    const value = m[3].trimEnd();
    // Lines that continue this value: more indented than the key (block scalars included).
    let end = i + 1;
    while (end < lines.length && (lines[end].trim() === '' || indentOf(lines[end]) > indent.length)) end++;
    while (end > i + 1 && lines[end - 1].trim() === '') end--;
    const c = value[0];
    if (c === '|' || c === '>' || c === '"' || c === "'") {
      i = end - 1;
      continue;
    }
    if (c === '{' || c === '[') {
      // As in yamlFast: the outer closing bracket may stand alone at column 0.
      let close = end;
      while (close < lines.length && lines[close].trim() === '') close++;
      if (indent === '' && /^[}\]]\s*$/.test(lines[close] ?? '')) end = close + 1;
      const flow = [value, ...lines.slice(i + 1, end)].join('\n');
      if (parseDocument(`x: ${flow}`).errors.length === 0) {
        i = end - 1;
        continue;
      }
      let json = parseJson5ish(flow);
      // `{...` that only lacks its last brackets (two corpus skills drop the final `}`) is
      // still the object it says; `[a] [b` may be text, so only an object is closed.
      const closers = json === undefined && c === '{' ? missingClosers(flow) : undefined;
      if (closers) json = parseJson5ish(flow + closers);
      if (json !== null && typeof json === 'object') {
        lines[i] = `${indent}${key}: ${JSON.stringify(json)}`;
        fixes.push(
          closers ? { line: i + 1, key, how: 'closed', closers } : { line: i + 1, key, how: 'json' },
        );
      } else {
        lines[i] = `${indent}${key}: ${JSON.stringify(flow.replace(/\s*\n\s*/g, ' '))}`;
        fixes.push({ line: i + 1, key, how: 'quoted' });
      }
      for (let j = i + 1; j < end; j++) lines[j] = '';
      i = end - 1;
      continue;
    }
    // A plain value continues on more-indented lines, up to a comment line.
    let last = i + 1;
    while (last < end && !lines[last].trim().startsWith('#')) last++;
    while (last > i + 1 && lines[last - 1].trim() === '') last--;
    const continuation = lines.slice(i + 1, last).map((l) => l.trim());
    const first = value.replace(/\s+#.*$/, '');
    if (/:(\s|$)/.test([first, ...continuation].join(' ')) || '@`%,*'.includes(c) || value.startsWith('- ')) {
      lines[i] = `${indent}${key}: ${JSON.stringify(foldPlain(first, continuation))}`;
      for (let j = i + 1; j < last; j++) lines[j] = '';
      fixes.push({ line: i + 1, key, how: 'quoted' });
      i = last - 1;
    }
  }
  return { text: lines.join('\n'), fixes };
}

/** Top-level `key: value` lines of YAML that failed, so the list can still show a name. */
function salvage(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z0-9_][\w.-]*):[ \t]*(\S.*)$/.exec(line);
    if (!m || m[1] === '__proto__' || Object.hasOwn(out, m[1])) continue;
    const value = m[2].trim();
    if (value === '|' || value === '>' || value.startsWith('{') || value.startsWith('[')) continue;
    out[m[1]] = value.replace(/^(["'])(.*)\1$/, '$2');
  }
  return out;
}
