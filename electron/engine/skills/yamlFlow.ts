/**
 * Pieces of the fast YAML reader (yamlFast.ts): quoted strings and JSON-like flow
 * collections, under the failsafe schema (every scalar stays its text).
 */

/** Thrown when the input uses YAML the fast reader does not handle. One instance: no stack to capture. */
export class Unsupported {}
const UNSUPPORTED = new Unsupported();

export function unsupported(): never {
  throw UNSUPPORTED;
}

const MAX_DEPTH = 32;

/** Index of the closing `"` of a string starting at `from`; -1 when not on this text. */
export function doubleQuotedEnd(s: string, from = 0): number {
  for (let i = s.indexOf('"', from + 1); i >= 0; i = s.indexOf('"', i + 1)) {
    let backslashes = 0;
    while (s.charCodeAt(i - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return i;
  }
  return -1;
}

export function singleQuotedEnd(s: string, from = 0): number {
  for (let i = s.indexOf("'", from + 1); i >= 0; i = s.indexOf("'", i + 1)) {
    if (s.charCodeAt(i + 1) !== 39) return i;
    i++;
  }
  return -1;
}

/** JSON escapes are a subset of YAML's; anything JSON rejects goes to the real parser. */
export function parseJsonString(token: string): string {
  try {
    return JSON.parse(token) as string;
  } catch {
    return unsupported();
  }
}

/**
 * A YAML flow collection in its JSON-like form, under the failsafe schema (scalars keep
 * their text): quoted strings, JSON numbers and words, `key: value` with plain keys.
 * Plain scalars with `:` or `#`, and comments go to the real parser.
 */
const PLAIN = /[A-Za-z0-9_./+$~()][^,[\]{}\n:#"']*/y;

export class FlowScanner {
  pos = 0;
  constructor(private readonly s: string) {}

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) unsupported();
    this.ws();
    const c = this.s[this.pos];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"' || c === "'") return this.quoted();
    return this.plain();
  }

  private object(depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.pos++;
    this.ws();
    if (this.s[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.ws();
      const quotedKey = this.s[this.pos] === '"' || this.s[this.pos] === "'";
      const key = quotedKey ? this.quoted() : this.plain();
      if (key === '__proto__') unsupported();
      this.ws();
      if (this.s[this.pos] !== ':') unsupported();
      this.pos++;
      // After a plain key, `:` must be followed by a space (`a:b` is one scalar in YAML).
      if (!quotedKey && !/[ \t\n]/.test(this.s[this.pos] ?? '')) unsupported();
      out[key] = this.value(depth + 1);
      if (this.next('}')) return out;
    }
  }

  private array(depth: number): unknown[] {
    const out: unknown[] = [];
    this.pos++;
    this.ws();
    if (this.s[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      if (this.next(']')) return out;
    }
  }

  /** After an element: `,` continues, `close` ends; YAML allows one trailing comma. */
  private next(close: string): boolean {
    this.ws();
    const c = this.s[this.pos++];
    if (c === close) return true;
    if (c !== ',') unsupported();
    this.ws();
    if (this.s[this.pos] !== close) return false;
    this.pos++;
    return true;
  }

  private quoted(): string {
    const double = this.s[this.pos] === '"';
    const end = double ? doubleQuotedEnd(this.s, this.pos) : singleQuotedEnd(this.s, this.pos);
    if (end < 0) unsupported();
    const token = this.s.slice(this.pos, end + 1);
    if (token.includes('\n')) unsupported();
    this.pos = end + 1;
    return double ? parseJsonString(token) : token.slice(1, -1).replace(/''/g, "'");
  }

  private plain(): string {
    PLAIN.lastIndex = this.pos;
    const m = PLAIN.exec(this.s);
    if (!m) unsupported();
    this.pos += m[0].length;
    const text = m[0].trimEnd();
    if (/\t/.test(text)) unsupported();
    return text;
  }

  private ws(): void {
    for (;;) {
      const c = this.s[this.pos];
      if (c !== ' ' && c !== '\n' && c !== '\t') return;
      this.pos++;
    }
  }
}
