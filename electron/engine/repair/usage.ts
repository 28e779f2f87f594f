/** A usage error: the arguments a script's usage text says are missing or wrong. */
export interface UsageError {
  /** `--column`, `FILE` … as the usage text names them. */
  missing: string[];
  unrecognized: string[];
  /** `invalid choice: 'xlsx' (choose from 'csv', 'json')`. */
  invalidChoice?: { value: string; choices: string[] };
  /** The `usage:` line, when printed. */
  usageLine?: string;
}

const unquote = (s: string) => s.trim().replace(/^['"`]|['"`.]+$/g, '');

/** argparse, click, commander and plain "missing argument" usage errors. */
export function parseUsage(text: string): UsageError | undefined {
  const usageLine = /^usage: .+$/im.exec(text)?.[0];
  const missing: string[] = [];
  const required = /the following arguments are required: (.+)$/im.exec(text);
  if (required) missing.push(...required[1].split(',').map(unquote).filter(Boolean));
  for (const m of text.matchAll(/Missing (?:option|argument|parameter) ['"`]?([^'"`\s]+)['"`]?/gi))
    missing.push(unquote(m[1]));
  for (const m of text.matchAll(/required option ['"`]?(--?[\w-]+)/gi)) missing.push(m[1]);
  for (const m of text.matchAll(/missing required (?:argument|option)[: ]+['"`]?(--?[\w-]+|[A-Za-z_]\w*)/gi))
    missing.push(unquote(m[1]));
  const unrecognized = /unrecognized arguments: (.+)$/im.exec(text)?.[1].split(/\s+/).filter(Boolean) ?? [];
  const invalidChoice = parseInvalidChoice(text);
  if (missing.length === 0 && unrecognized.length === 0 && !invalidChoice) return undefined;
  return { missing: [...new Set(missing)], unrecognized, invalidChoice, usageLine };
}

const CHOICE_HEAD = /invalid choice: '([^']*)' \(choose from /gi;
const CHOICE_LIST = /(.+?)\)/y;
const LINE_END = /[\n\r\u2028\u2029]|$/g;

/**
 * argparse's `invalid choice: 'x' (choose from 'a', 'b')`, read as
 * `/invalid choice: '([^']*)' \(choose from (.+?)\)/i` reads it. That pattern looked for the `)`
 * up to the line's end after every head, quadratic on a line of heads; a head whose list finds
 * none before the line ends means every later head on that line finds none either.
 */
function parseInvalidChoice(text: string): UsageError['invalidChoice'] {
  let noCloseBefore = -1;
  for (const head of text.matchAll(CHOICE_HEAD)) {
    const from = head.index + head[0].length;
    if (from < noCloseBefore) continue;
    CHOICE_LIST.lastIndex = from;
    const list = CHOICE_LIST.exec(text);
    if (list) return { value: head[1], choices: list[1].split(',').map(unquote).filter(Boolean) };
    LINE_END.lastIndex = from;
    noCloseBefore = LINE_END.exec(text)?.index ?? text.length;
  }
  return undefined;
}
