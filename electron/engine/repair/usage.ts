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
  const choice = /invalid choice: '([^']*)' \(choose from (.+?)\)/i.exec(text);
  const invalidChoice = choice
    ? { value: choice[1], choices: choice[2].split(',').map(unquote).filter(Boolean) }
    : undefined;
  if (missing.length === 0 && unrecognized.length === 0 && !invalidChoice) return undefined;
  return { missing: [...new Set(missing)], unrecognized, invalidChoice, usageLine };
}
