/**
 * A forgiving reader for the JSON-ish objects people write in `metadata: {...}`
 * (OpenClaw flattens nested metadata and re-reads it as JSON5, skill-formats.md §2.4):
 * unquoted keys and words, single quotes, trailing or missing commas, `//` and `/* *\/`
 * comments, and stray backslashes before brackets. Returns `undefined` when even that fails.
 */
export function parseJson5ish(text: string): unknown {
  const reader = new Reader(text);
  try {
    const value = reader.value(0);
    reader.ws();
    return reader.atEnd() ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The brackets that close what `text` leaves open (`}`, `]}`, ...), in order; '' when
 * nothing is open, undefined when a closing bracket does not match its opener (then
 * adding some at the end would not fix it). Brackets inside quoted strings do not count.
 */
export function missingClosers(text: string): string | undefined {
  const open: string[] = [];
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '{') open.push('}');
    else if (c === '[') open.push(']');
    else if ((c === '}' || c === ']') && open.pop() !== c) return undefined;
  }
  return quote ? undefined : open.reverse().join('');
}

const MAX_DEPTH = 64;

class Reader {
  private pos = 0;
  constructor(private readonly s: string) {}

  atEnd(): boolean {
    return this.pos >= this.s.length;
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw new Error('too deep');
    this.ws();
    const c = this.s[this.pos];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"' || c === "'") return this.string();
    const word = this.word();
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (word === 'null') return null;
    const n = Number(word);
    return word !== '' && Number.isFinite(n) && /^[-+]?(\d|\.\d)/.test(word) ? n : word;
  }

  private object(depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.pos++;
    for (;;) {
      this.ws();
      if (this.s[this.pos] === ',') {
        this.pos++;
        continue;
      }
      if (this.s[this.pos] === '}') {
        this.pos++;
        return out;
      }
      if (this.atEnd()) throw new Error('unclosed object');
      const key = this.s[this.pos] === '"' || this.s[this.pos] === "'" ? this.string() : this.word();
      this.ws();
      if (this.s[this.pos] !== ':') throw new Error('expected :');
      this.pos++;
      const value = this.value(depth + 1);
      if (key !== '__proto__') out[key] = value;
    }
  }

  private array(depth: number): unknown[] {
    const out: unknown[] = [];
    this.pos++;
    for (;;) {
      this.ws();
      if (this.s[this.pos] === ',') {
        this.pos++;
        continue;
      }
      if (this.s[this.pos] === ']') {
        this.pos++;
        return out;
      }
      if (this.atEnd()) throw new Error('unclosed array');
      out.push(this.value(depth + 1));
    }
  }

  private string(): string {
    const quote = this.s[this.pos++];
    let out = '';
    while (this.pos < this.s.length) {
      const c = this.s[this.pos++];
      if (c === quote) return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.s[this.pos++];
      const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0' };
      if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(this.s.slice(this.pos, this.pos + 4))) {
        out += String.fromCharCode(parseInt(this.s.slice(this.pos, this.pos + 4), 16));
        this.pos += 4;
      } else {
        out += simple[e] ?? e;
      }
    }
    throw new Error('unclosed string');
  }

  private word(): string {
    const m = /^[^\s,:[\]{}"']+/.exec(this.s.slice(this.pos));
    if (!m) throw new Error(`unexpected ${this.s[this.pos] ?? 'end'}`);
    this.pos += m[0].length;
    return m[0];
  }

  /** Whitespace, comments, and backslashes outside strings (`\[` seen in the corpus). */
  ws(): void {
    for (;;) {
      const c = this.s[this.pos];
      if (c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\\') this.pos++;
      else if (this.s.startsWith('//', this.pos)) {
        const end = this.s.indexOf('\n', this.pos);
        this.pos = end < 0 ? this.s.length : end;
      } else if (this.s.startsWith('/*', this.pos)) {
        const end = this.s.indexOf('*/', this.pos + 2);
        this.pos = end < 0 ? this.s.length : end + 2;
      } else return;
    }
  }
}
