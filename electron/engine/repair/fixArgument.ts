import { scriptOf } from './eligibility';
import { eolOf, type DraftProposal, type FixContext } from './fixers';

/** `--column` → `column`, `--max-rows` → `max_rows`, `FILE` → `file` (argparse's `dest`). */
export const destOf = (arg: string) => arg.replace(/^-+/, '').replace(/-/g, '_').toLowerCase();

/** The value the run's `INPUT_JSON` holds for an argument, under its dest, camelCase or kebab name. */
function inputValue(input: Record<string, unknown>, dest: string): unknown {
  const camel = dest.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase());
  const kebab = dest.replace(/_/g, '-');
  for (const key of [dest, camel, kebab])
    if (input[key] !== undefined && input[key] !== null) return input[key];
  return undefined;
}

/** `usage: sum.py [-h] --column COLUMN` → `COLUMN` for `--column`. */
function metavarOf(usageLine: string | undefined, arg: string): string {
  const m = usageLine
    ? new RegExp(`${arg.replace(/[-]/g, '\\-')}\\s+([A-Z_][A-Z0-9_]*)`).exec(usageLine)
    : null;
  return m?.[1] ?? destOf(arg).toUpperCase();
}

const INPUT_LINE = (q: string) =>
  `_INPUT = json.loads(os.environ.get(${q}INPUT_JSON${q}) or ${q}{}${q})  # SkillDeck passes the task's fields here`;

/**
 * Fixer (b): a script was called without an argument its usage text requires.
 *
 * What makes the replay pass depends on who builds the command. The executor runs a
 * `script` skill's entrypoint with the task's fields in `INPUT_JSON` and no extra argv, so
 * editing SKILL.md changes nothing for it: the minimal fix is in the script, letting the
 * argparse option default to the `INPUT_JSON` field of the same name (only when the failing
 * run's input holds that field — otherwise there is no value to map and the model is asked).
 * For an `instruction` skill the model builds the command from SKILL.md's example, so the
 * example gets the argument.
 */
export function fixMissingArgument(ctx: FixContext): DraftProposal | null {
  const usage = ctx.evidence.usage;
  const script = scriptOf(ctx.run, ctx.skill) ?? scriptFromUsage(ctx);
  if (!usage || usage.missing.length === 0 || !script) return null;
  if (ctx.skill.metadata.type === 'instruction' || ctx.run.command.length === 0)
    return fixExample(ctx, script);
  if (!script.endsWith('.py')) return null;
  const text = ctx.skill.texts.get(script);
  if (text === undefined) return null;
  const mapped = usage.missing.filter((arg) => inputValue(ctx.input, destOf(arg)) !== undefined);
  if (mapped.length !== usage.missing.length) return null;
  const after = mapArgsToInput(text, mapped);
  if (after === null) return null;
  const names = mapped.map((a) => `\`${destOf(a)}\``).join(', ');
  return {
    source: 'fixer',
    fixer: 'missing-argument',
    error_signature: ctx.eligibility.error_signature,
    root_cause: `${script} requires ${mapped.join(', ')} on its command line, but the skill is run with the task's fields in INPUT_JSON (which holds ${names}); nothing maps one to the other.`,
    expected_effect: `${mapped.join(', ')} now default${mapped.length === 1 ? 's' : ''} to INPUT_JSON's ${names} when not passed, so the same run gets past argument parsing; without the field the usage error stays.`,
    changes: [{ path: script, before: text, after }],
    expect: { kind: 'pass' },
  };
}

function scriptFromUsage(ctx: FixContext): string | undefined {
  const prog = /^usage: (\S+)/im.exec(ctx.evidence.text)?.[1];
  if (!prog) return undefined;
  return ctx.skill.listing.find((f) => f.startsWith('scripts/') && f.endsWith(`/${prog.split('/').pop()}`));
}

/** Rewrites the `add_argument` calls of `args` so they fall back to `INPUT_JSON`; null when they cannot be found. */
export function mapArgsToInput(text: string, args: string[]): string | null {
  const eol = eolOf(text);
  const lines = text.split(/\r?\n/);
  for (const arg of args) {
    const dest = destOf(arg);
    const start = lines.findIndex(
      (l) =>
        new RegExp(`add_argument\\(\\s*(['"])${arg.replace(/-/g, '\\-')}\\1`).test(l) ||
        (!arg.startsWith('-') && new RegExp(`add_argument\\(\\s*(['"])${dest}\\1`).test(l)),
    );
    if (start < 0) return null;
    let end = start;
    let depth = 0;
    for (let i = start; i < lines.length; i++) {
      for (const ch of lines[i]) depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
      end = i;
      if (depth <= 0) break;
    }
    const quote = /add_argument\(\s*'/.test(lines[start]) ? "'" : '"';
    const value = `_INPUT.get(${quote}${dest}${quote})`;
    let call = lines.slice(start, end + 1).join('\n');
    if (/required\s*=\s*True/.test(call))
      call = call.replace(/required\s*=\s*True/, `required=${value} is None`);
    else if (arg.startsWith('-')) return null;
    else call = call.replace(/(add_argument\(\s*(['"])[^'"]+\2)/, `$1, nargs=${quote}?${quote}`);
    if (/\bdefault\s*=/.test(call)) return null;
    call = call.replace(/(add_argument\(\s*(['"])[^'"]+\2)/, `$1, default=${value}`);
    lines.splice(start, end - start + 1, ...call.split('\n'));
  }
  if (!lines.some((l) => l.startsWith('_INPUT = '))) {
    const at = importInsertionPoint(lines);
    const q = /"/.test(lines.join('')) ? '"' : "'";
    const needed = [
      ...(lines.some((l) => /^import\s+(?:[\w, ]*\b)?json\b/.test(l)) ? [] : ['import json']),
      ...(lines.some((l) => /^import\s+(?:[\w, ]*\b)?os\b/.test(l)) ? [] : ['import os']),
    ];
    lines.splice(at, 0, ...needed, INPUT_LINE(q));
  }
  return lines.join(eol);
}

/** After the last top-level import before the first def / class; else after the shebang and docstring. */
function importInsertionPoint(lines: string[]): number {
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    if (/^(def|class|if __name__)\b/.test(lines[i])) break;
    if (/^(import\s|from\s+\S+\s+import\s)/.test(lines[i])) last = i;
  }
  if (last >= 0) return last + 1;
  let i = lines[0]?.startsWith('#!') ? 1 : 0;
  while (i < lines.length && lines[i].startsWith('#')) i++;
  const doc = /^\s*("""|''')/.exec(lines[i] ?? '');
  if (doc) {
    const closesSameLine = lines[i].trim().length > 3 && lines[i].trim().endsWith(doc[1]);
    if (!closesSameLine) while (++i < lines.length && !lines[i].includes(doc[1]));
    i++;
  }
  return i;
}

/** Instruction skills: the example invocations of `script` in SKILL.md gain the missing arguments. */
function fixExample(ctx: FixContext, script: string): DraftProposal | null {
  const usage = ctx.evidence.usage;
  const doc = ctx.skill.texts.get(ctx.skill.skillFile);
  if (!usage || doc === undefined) return null;
  const eol = eolOf(doc);
  const lines = doc.split(/\r?\n/);
  let fence = false;
  let changed = 0;
  const addition = usage.missing
    .map((arg) => {
      const v = inputValue(ctx.input, destOf(arg));
      const shown =
        typeof v === 'string' || typeof v === 'number' ? String(v) : `<${metavarOf(usage.usageLine, arg)}>`;
      return arg.startsWith('-') ? `${arg} ${shown}` : shown;
    })
    .join(' ');
  const next = lines.map((line) => {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (!line.includes(script) || usage.missing.every((a) => line.includes(a))) return line;
    if (fence) {
      changed++;
      return `${line.trimEnd()} ${addition}`;
    }
    const inline = new RegExp(`(\`[^\`]*${script.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\`]*)\``);
    if (!inline.test(line)) return line;
    changed++;
    return line.replace(inline, `$1 ${addition}\``);
  });
  if (changed === 0) return null;
  return {
    source: 'fixer',
    fixer: 'missing-argument',
    error_signature: ctx.eligibility.error_signature,
    root_cause: `SKILL.md's example runs ${script} without ${usage.missing.join(', ')}, which its usage text requires.`,
    expected_effect: `The example now passes ${usage.missing.join(', ')}, so a model following it builds a command the script accepts.`,
    changes: [{ path: ctx.skill.skillFile, before: doc, after: next.join(eol) }],
    expect: { kind: 'pass' },
  };
}
