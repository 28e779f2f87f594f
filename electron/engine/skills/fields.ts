import type { Problem } from '../../../shared/contract';
import { warning } from './problems';

export type YamlMap = Record<string, unknown>;

export const isMap = (v: unknown): v is YamlMap => v !== null && typeof v === 'object' && !Array.isArray(v);

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'a list';
  if (isMap(v)) return 'a mapping';
  if (typeof v === 'boolean') return 'true/false';
  if (typeof v === 'number') return 'a number';
  return `"${String(v).slice(0, 40)}"`;
}

/**
 * Typed reads of loosely typed YAML values. A value of the wrong type becomes a
 * `field-type` warning naming the field and is ignored; nothing here throws.
 * Values are mostly strings (the failsafe schema), so booleans and numbers are parsed here.
 */
export class Fields {
  constructor(
    readonly file: string,
    readonly problems: Problem[],
  ) {}

  wrong(field: string, expected: string, got: unknown): undefined {
    const where = this.file === 'SKILL.md' ? 'the frontmatter' : this.file;
    this.problems.push(
      warning(
        'field-type',
        `\`${field}\` in ${where} should be ${expected}, not ${describe(got)}; it was ignored.`,
        { field },
      ),
    );
    return undefined;
  }

  /** Text, trimmed; '' counts as absent. */
  str(v: unknown, field: string): string | undefined {
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'string') return v.trim() || undefined;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    return this.wrong(field, 'text', v);
  }

  bool(v: unknown, field: string): boolean | undefined {
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'boolean') return v;
    if (typeof v === 'string') {
      const s = v.trim().toLowerCase();
      if (s === '') return undefined;
      if (['true', 'yes', 'on', '1'].includes(s)) return true;
      if (['false', 'no', 'off', '0'].includes(s)) return false;
    }
    return this.wrong(field, 'true or false', v);
  }

  /** A list of strings; a single string is split on `split` (commas by default). */
  list(v: unknown, field: string, split: RegExp = /,/): string[] | undefined {
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'string')
      return v
        .split(split)
        .map((s) => s.trim())
        .filter(Boolean);
    if (typeof v === 'number' || typeof v === 'boolean') return [String(v)];
    if (!Array.isArray(v)) return this.wrong(field, 'a list of strings', v);
    const out: string[] = [];
    let skipped: unknown;
    for (const item of v) {
      if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') {
        const s = String(item).trim();
        if (s) out.push(s);
      } else if (item !== null && item !== undefined) skipped = item;
    }
    if (skipped !== undefined) this.wrong(`${field}[]`, 'text', skipped);
    return out;
  }

  map(v: unknown, field: string): YamlMap | undefined {
    if (v === undefined || v === null || v === '') return undefined;
    if (isMap(v)) return v;
    return this.wrong(field, 'a mapping of `key: value` lines', v);
  }

  /** One of `allowed` (case-insensitive), or undefined with a warning. */
  oneOf<T extends string>(v: unknown, field: string, allowed: readonly T[]): T | undefined {
    const s = this.str(v, field)?.toLowerCase();
    if (s === undefined) return undefined;
    const hit = allowed.find((a) => a === s);
    return hit ?? this.wrong(field, `one of ${allowed.join(', ')}`, v);
  }

  /** A duration in ms: a number in `unit`, or text with a unit (`500ms`, `30s`, `2m`, `1h`). */
  duration(v: unknown, field: string, unit: 'ms' | 's'): number | undefined {
    const s = this.str(v, field);
    if (s === undefined) return undefined;
    const m = /^(\d+(?:\.\d+)?)\s*(ms|s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?)?$/i.exec(s);
    if (!m)
      return this.wrong(
        field,
        `a duration (a number of ${unit === 'ms' ? 'milliseconds' : 'seconds'}, or e.g. "30s")`,
        v,
      );
    const n = Number(m[1]);
    const u = (m[2] ?? unit).toLowerCase();
    if (u === 'ms') return Math.round(n);
    if (u.startsWith('m')) return Math.round(n * 60_000);
    if (u.startsWith('h')) return Math.round(n * 3_600_000);
    return Math.round(n * 1000);
  }
}

/** Splits `allowed-tools` on spaces and commas, but not inside `Bash(git status:*)`. */
export function splitTools(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const c of s) {
    if (c === '(') depth++;
    if (c === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (c === ',' || /\s/.test(c))) {
      if (current) out.push(current);
      current = '';
    } else current += c;
  }
  if (current) out.push(current);
  return out;
}

/** OS names as Node spells them (`process.platform`): macos → darwin, windows → win32. */
export function normalizeOs(name: string): string {
  const s = name.trim().toLowerCase();
  if (['macos', 'mac', 'osx', 'darwin', 'apple'].includes(s)) return 'darwin';
  if (['windows', 'win', 'win32', 'win64'].includes(s)) return 'win32';
  return s;
}

export const unique = (items: string[]): string[] => [...new Set(items)];
