#!/usr/bin/env node
// Validate, pretty-print, minify, sort or query JSON. Node standard library only.
//
// INPUT_JSON (a JSON object):
//   { "json": "<text or any JSON value>", "path": "file.json",
//     "action": "validate" | "pretty" | "minify" | "sort" | "query" | "keys",
//     "query": "items[0].name", "indent": 2, "raw": false }
// Without "json"/"path" the JSON is taken from the task: a ```json fence, or the text from
// the first { or [ to the last } or ]. Without "action" it is guessed from the task.
// Exit codes: 0 ok (an invalid document still exits 0 for "validate"), 1 bad input or
// invalid JSON for the other actions.
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';

const MAX_BYTES = 5 * 1024 * 1024;
const ACTIONS = ['validate', 'pretty', 'minify', 'sort', 'query', 'keys'];

function fail(message) {
  process.stderr.write(`json-format: ${message}\n`);
  process.exit(1);
}

function readInput() {
  const raw = (process.env.INPUT_JSON ?? '').trim();
  if (!raw) fail('INPUT_JSON is empty. Pass e.g. {"json": "{\\"a\\":1}", "action": "pretty"}.');
  let data;
  try {
    data = JSON.parse(raw);
  } catch (err) {
    fail(`INPUT_JSON is not valid JSON (${err.message}).`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    fail('INPUT_JSON must be a JSON object, e.g. {"path": "package.json"}.');
  }
  return data;
}

/** Returns { label, text } or { label, value } for an already-parsed value. */
function documentFrom(data) {
  if (data.path !== undefined) {
    if (typeof data.path !== 'string' || !data.path.trim()) fail('"path" must be a non-empty string.');
    const file = data.path.trim().replace(/^~(?=\/|$)/, homedir());
    let size;
    try {
      size = statSync(file).size;
    } catch {
      fail(`file not found: ${file}`);
    }
    if (size > MAX_BYTES) fail(`${file} is larger than 5 MB.`);
    return { label: file, text: readFileSync(file, 'utf8').replace(/^\uFEFF/, '') };
  }
  if (data.json !== undefined) {
    if (typeof data.json === 'string') return { label: 'input', text: data.json };
    return { label: 'input', value: data.json };
  }
  if (typeof data.task === 'string') {
    const fence = data.task.match(/```(?:json|jsonc)?\s*\n([\s\S]*?)```/);
    if (fence) return { label: 'the message', text: fence[1] };
    const start = data.task.search(/[[{]/);
    const end = Math.max(data.task.lastIndexOf('}'), data.task.lastIndexOf(']'));
    if (start !== -1 && end > start) return { label: 'the message', text: data.task.slice(start, end + 1) };
  }
  fail('no JSON given. Pass "json" (text or a value), "path" (a .json file), or paste JSON in the task.');
}

function guessAction(data) {
  if (data.action !== undefined) {
    if (!ACTIONS.includes(data.action)) fail(`"action" must be one of ${ACTIONS.join(', ')}.`);
    return data.action;
  }
  if (data.query !== undefined) return 'query';
  const task = typeof data.task === 'string' ? data.task.toLowerCase() : '';
  if (/\bminif|compact|one line|压缩/.test(task)) return 'minify';
  if (/\bsort/.test(task)) return 'sort';
  if (/\bkeys\b|structure|schema|结构/.test(task)) return 'keys';
  if (/\bvalid|\bcheck|\blint|校验|验证/.test(task) && !/pretty|format|格式化/.test(task)) return 'validate';
  return 'pretty';
}

/**
 * A strict JSON scanner used only to explain a failure: JSON.parse messages differ between
 * Node versions and do not always carry a position. Returns { pos, message } or null.
 */
function findError(text) {
  let i = 0;
  const err = (message) => {
    throw { pos: i, message };
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const show = () => (i >= text.length ? 'end of input' : `'${text[i]}'`);
  const literal = (word) => {
    if (text.startsWith(word, i)) i += word.length;
    else err(`unexpected ${show()}`);
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) err('bad \\u escape in a string');
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? '')) err('bad escape in a string');
      } else if (text.charCodeAt(i) < 0x20)
        err('unescaped control character (e.g. a raw newline) in a string');
      i++;
    }
    if (i >= text.length) err('unterminated string');
    i++;
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) err(`unexpected ${show()}`);
    i += m[0].length;
  };
  const value = () => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') err(`expected a double-quoted property name, found ${show()}`);
        string();
        ws();
        if (text[i] !== ':') err(`expected ':' after the property name, found ${show()}`);
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else err(`expected ',' or '}', found ${show()}`);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else err(`expected ',' or ']', found ${show()}`);
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    err(`unexpected ${show()}`);
  };
  try {
    value();
    ws();
    if (i < text.length) err(`unexpected ${show()} after the end of the JSON value`);
    return null;
  } catch (e) {
    return e;
  }
}

/** Line, column, message, caret excerpt and hints for an invalid document. */
function locate(text, parseError) {
  const found = findError(text) ?? { pos: text.length, message: parseError.message };
  const pos = found.pos;
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  const lineText = text.split('\n')[line - 1] ?? '';
  const hints = [];
  if (/,\s*[}\]]/.test(text)) hints.push('JSON does not allow trailing commas');
  if (/'[^']*'\s*:/.test(text) || /:\s*'/.test(text)) hints.push("strings need double quotes, not '");
  if (/^\s*\/\/|\/\*/m.test(text)) hints.push('comments are not allowed in JSON');
  if (/[{,]\s*[A-Za-z_$][\w$]*\s*:/.test(text)) hints.push('object keys must be quoted');
  if (/\b(NaN|Infinity|undefined)\b/.test(text))
    hints.push('NaN, Infinity and undefined are not JSON values');
  const from = Math.max(0, column - 61);
  const excerpt = `${lineText.slice(from, column + 40)}\n${' '.repeat(column - 1 - from)}^`;
  return { line, column, message: found.message, excerpt, hints };
}

function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys(value[k])]),
    );
  }
  return value;
}

/** Parses a path like `a.b[0]["odd key"].c` or `items[*].name` into segments. */
function parsePath(query) {
  const segments = [];
  const re = /\.?([A-Za-z_$][\w$-]*)|\[(\d+|-\d+|\*)\]|\["((?:[^"\\]|\\.)*)"\]|\.(\*)/gy;
  let q = query.trim().replace(/^\$/, '');
  if (q.startsWith('.')) q = q.slice(1);
  let index = 0;
  while (index < q.length) {
    re.lastIndex = index;
    const m = re.exec(q);
    if (!m || m.index !== index) fail(`cannot read the query "${query}" at character ${index + 1}.`);
    if (m[1] !== undefined) segments.push(m[1]);
    else if (m[2] !== undefined) segments.push(m[2] === '*' ? '*' : Number(m[2]));
    else if (m[3] !== undefined) segments.push(JSON.parse(`"${m[3]}"`));
    else segments.push('*');
    index = re.lastIndex;
  }
  return segments;
}

function select(values, segment) {
  const out = [];
  for (const v of values) {
    if (segment === '*') {
      if (Array.isArray(v)) out.push(...v);
      else if (v && typeof v === 'object') out.push(...Object.values(v));
    } else if (typeof segment === 'number' && Array.isArray(v)) {
      const i = segment < 0 ? v.length + segment : segment;
      if (i >= 0 && i < v.length) out.push(v[i]);
    } else if (v && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, segment)) {
      out.push(v[segment]);
    }
  }
  return out;
}

function describe(value, depth = 0, maxDepth = 3) {
  const pad = '  '.repeat(depth);
  if (Array.isArray(value)) {
    const lines = [`array(${value.length})`];
    if (value.length && depth < maxDepth)
      lines.push(`${pad}  [0]: ${describe(value[0], depth + 1, maxDepth)}`);
    return lines.join('\n');
  }
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    if (depth >= maxDepth) return `object(${keys.length} keys)`;
    return [
      `object(${keys.length} keys)`,
      ...keys.map((k) => `${pad}  ${k}: ${describe(value[k], depth + 1, maxDepth)}`),
    ].join('\n');
  }
  return value === null ? 'null' : typeof value;
}

function output(text, raw, lang = 'json') {
  process.stdout.write(raw ? `${text}\n` : `\`\`\`${lang}\n${text}\n\`\`\`\n`);
}

function main() {
  const data = readInput();
  const action = guessAction(data);
  const indent = data.indent ?? 2;
  if (!(indent === '\t' || (Number.isInteger(indent) && indent >= 0 && indent <= 8))) {
    fail('"indent" must be an integer from 0 to 8, or "\\t".');
  }
  const raw = data.raw === true;
  const doc = documentFrom(data);

  let value = doc.value;
  if (doc.text !== undefined) {
    if (Buffer.byteLength(doc.text) > MAX_BYTES) fail('the JSON is larger than 5 MB.');
    try {
      value = JSON.parse(doc.text);
    } catch (err) {
      const where = locate(doc.text, err);
      const report = [
        `❌ Invalid JSON in ${doc.label}: ${where.message} at line ${where.line}, column ${where.column}.`,
        '',
        '```text',
        where.excerpt,
        '```',
        ...where.hints.map((h) => `- Hint: ${h}.`),
      ].join('\n');
      if (action === 'validate') {
        process.stdout.write(`${report}\n`);
        return;
      }
      fail(report);
    }
  }

  switch (action) {
    case 'validate': {
      const kind = Array.isArray(value) ? `array of ${value.length}` : value === null ? 'null' : typeof value;
      const keys =
        value && typeof value === 'object' && !Array.isArray(value)
          ? `, ${Object.keys(value).length} keys`
          : '';
      process.stdout.write(`✅ Valid JSON in ${doc.label} (${kind}${keys}).\n`);
      return;
    }
    case 'minify':
      return output(JSON.stringify(value), raw);
    case 'sort':
      return output(JSON.stringify(sortKeys(value), null, indent), raw);
    case 'keys':
      return output(describe(value), raw, 'text');
    case 'query': {
      if (typeof data.query !== 'string' || !data.query.trim())
        fail('"query" must be a path such as "items[0].name".');
      const segments = parsePath(data.query);
      let results = [value];
      for (const segment of segments) results = select(results, segment);
      const wildcard = segments.includes('*');
      if (!results.length) fail(`nothing matches "${data.query}". Top-level: ${describe(value, 0, 1)}`);
      return output(JSON.stringify(wildcard ? results : results[0], null, indent), raw);
    }
    default:
      return output(JSON.stringify(value, null, indent), raw);
  }
}

main();
