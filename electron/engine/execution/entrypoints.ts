import fs from 'node:fs';
import path from 'node:path';
import { parse as parseShell } from 'shell-quote';
import type { FileEntry, SkillMetadata } from '../../../shared/contract';
import { which } from './sandbox/probe';
import { fillTemplate, type TemplateValues } from './template';

/** A runnable script of a skill: its file inside the skill and the words around it. */
export interface ScriptChoice {
  /** Entrypoint name (or the file's base name for a bare script). */
  name: string;
  /** Relative to the skill folder, `/`-separated. */
  path: string;
  /** Arguments written after the file in the entrypoint. */
  args: string[];
  /** Why the entrypoint as written cannot run (a pipe, a redirect), when it cannot. */
  problem?: string;
}

export type ScriptPick = { ok: true; script: ScriptChoice } | { ok: false; error: string; choices: string[] };

/**
 * A path a skill or a model names, confined to the skill folder: relative, no `..`, and
 * (after symlinks) still inside. Returns the absolute path, or why it is refused.
 */
export function confine(skillDir: string, rel: string): { abs: string } | { error: string } {
  const clean = rel.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  if (!clean) return { error: 'an empty path' };
  if (path.isAbsolute(clean) || /^[A-Za-z]:/.test(clean))
    return { error: `"${rel}" is absolute; give a path relative to the skill folder` };
  if (clean.split('/').includes('..')) return { error: `"${rel}" leaves the skill folder ("..")` };
  const abs = path.join(skillDir, clean);
  try {
    const real = fs.realpathSync(abs);
    const root = fs.realpathSync(skillDir);
    if (real !== root && !real.startsWith(`${root}${path.sep}`))
      return { error: `"${rel}" is a link that points outside the skill folder` };
  } catch {
    // Not there: the caller says "not found" with the list of files.
  }
  return { abs };
}

/**
 * The words of a command line as a POSIX shell splits them: quotes group, a backslash
 * escapes, `$NAME` stays as written (the run's environment is the sandbox's, not ours).
 * Operators (`|`, `>`, `&&`, `;`) need a shell, which SkillDeck never starts, so they are
 * an error; a `#` comment ends the line.
 */
export function commandWords(line: string): { words: string[] } | { error: string } {
  const words: string[] = [];
  for (const token of parseShell(line, (name) => `$${name}`)) {
    if (typeof token === 'string') words.push(token);
    else if ('comment' in token) break;
    else if (token.op === 'glob') words.push(token.pattern);
    else
      return {
        error: `"${line}" uses the shell operator "${token.op}"; scripts run without a shell, so point the entrypoint at a script that does it`,
      };
  }
  return { words };
}

/**
 * Split `python3 scripts/x.py --flag "two words"` into the file and its arguments. The
 * interpreter comes from the file's extension or shebang, resolved on the host (never a name
 * the skill typed).
 */
function parseEntrypoint(name: string, spec: string, skillDir: string): ScriptChoice {
  const parsed = commandWords(spec.trim());
  const tokens = 'words' in parsed && parsed.words.length > 0 ? parsed.words : spec.trim().split(/\s+/);
  const problem = 'error' in parsed ? `The entrypoint ${name}: ${parsed.error}.` : undefined;
  const fileAt = tokens.findIndex((t) => {
    const found = confine(skillDir, t);
    return 'abs' in found && fs.existsSync(found.abs) && fs.statSync(found.abs).isFile();
  });
  const choice: ScriptChoice =
    fileAt === -1
      ? { name, path: tokens[tokens.length - 1].replace(/^\.\//, ''), args: [] }
      : { name, path: tokens[fileAt].replace(/^\.\//, ''), args: tokens.slice(fileAt + 1) };
  return problem ? { ...choice, problem } : choice;
}

/**
 * An entrypoint's arguments with `{{input.x}}` and `{{system.cwd}}` filled in, as a direct
 * skill's body is (DESIGN §2); a placeholder the input does not give is an error that says
 * how to give it, never a literal `{{input.x}}` passed to the script.
 */
export function fillArgs(
  script: ScriptChoice,
  values: TemplateValues,
): { args: string[] } | { error: string } {
  const missing = new Set<string>();
  const args = script.args.map((arg) => {
    const filled = fillTemplate(arg, values);
    filled.missing.forEach((m) => missing.add(m));
    return filled.text;
  });
  if (missing.size === 0) return { args };
  const names = [...missing].map((m) => `{{${m}}}`).join(', ');
  const example = [...missing]
    .filter((m) => m.startsWith('input.'))
    .map((m) => `"${m.slice('input.'.length).split('.')[0]}": "…"`);
  const how =
    example.length > 0
      ? ` Give it with --input '{${example.join(', ')}}', or in a chat the model passes it.`
      : '';
  return { error: `The entrypoint ${script.name} needs ${names}, and the run gave no value for it.${how}` };
}

/** Every script a user could run: declared entrypoints, else runnable files in `scripts/`. */
export function listScripts(m: SkillMetadata, files: FileEntry[], skillDir: string): ScriptChoice[] {
  if (m.entrypoints.length > 0) return m.entrypoints.map((e) => parseEntrypoint(e.name, e.path, skillDir));
  return files
    .filter((f) => f.kind === 'file' && f.scriptLanguage && f.path.startsWith('scripts/'))
    .map((f) => ({ name: path.basename(f.path).replace(/\.[^.]+$/, ''), path: f.path, args: [] }));
}

/** The first line of a file when it is a shebang (`#!…`), else undefined. */
function shebangOf(abs: string): string | undefined {
  const head = Buffer.alloc(256);
  let fd: number | undefined;
  try {
    fd = fs.openSync(abs, 'r');
    const line = head
      .subarray(0, fs.readSync(fd, head, 0, head.length, 0))
      .toString('utf8')
      .split('\n')[0];
    return line.startsWith('#!') ? line.replace(/\r$/, '').trim() : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Why the files in `scripts/` that start with a shebang naming an interpreter SkillDeck does
 * not know (so listScripts leaves them out) cannot run: one sentence each, at most three.
 */
function unknownInterpreters(m: SkillMetadata, files: FileEntry[], skillDir: string, env: NodeJS.ProcessEnv) {
  const known =
    'a known interpreter such as "#!/usr/bin/env python3", or give it a .py, .sh, .js or .ts extension.';
  return files
    .filter((f) => f.kind === 'file' && !f.scriptLanguage && f.path.startsWith('scripts/'))
    .flatMap((f) => {
      const where = confine(skillDir, f.path);
      const line = 'abs' in where ? shebangOf(where.abs) : undefined;
      if (!line) return [];
      const [command = '', ...args] = line.slice(2).trim().split(/\s+/);
      // `#!/usr/bin/env -S tool -x`: the interpreter is the first word after env's own options.
      const interpreter =
        path.posix.basename(command) === 'env' ? (args.find((a) => !a.startsWith('-')) ?? command) : command;
      const needs = `${m.name}'s script ${f.path} needs the interpreter ${interpreter} (its first line is "${line}"), which`;
      return which(interpreter, env)
        ? [`${needs} SkillDeck does not know how to run. Start the script with ${known}`]
        : [
            `${needs} is not installed here and which SkillDeck does not know. Install it, or start the script with ${known}`,
          ];
    })
    .slice(0, 3);
}

/** The script a run uses: the one asked for (by name or path), else the only or first entrypoint. */
export function pickScript(
  m: SkillMetadata,
  files: FileEntry[],
  skillDir: string,
  wanted?: string,
  env: NodeJS.ProcessEnv = process.env,
): ScriptPick {
  const scripts = listScripts(m, files, skillDir);
  const choices = scripts.map((s) => s.name);
  if (wanted) {
    const w = wanted.replace(/^\.\//, '');
    const hit = scripts.find((s) => s.name === w || s.path === w);
    if (hit) return hit.problem ? { ok: false, error: hit.problem, choices } : { ok: true, script: hit };
    return {
      ok: false,
      error: `${m.name} has no entrypoint or script "${wanted}"; it has: ${choices.join(', ') || 'none'}.`,
      choices,
    };
  }
  if (scripts.length === 0) {
    const unknown = unknownInterpreters(m, files, skillDir, env);
    const error = unknown.join(' ') || `${m.name} declares no entrypoint and has no script in scripts/.`;
    return { ok: false, error, choices };
  }
  // A declared entrypoint list is ordered by the author; the first is the default.
  if (m.entrypoints.length > 0 || scripts.length === 1)
    return scripts[0].problem
      ? { ok: false, error: scripts[0].problem, choices }
      : { ok: true, script: scripts[0] };
  return {
    ok: false,
    error: `${m.name} has several scripts and no declared entrypoint; pick one: ${choices.join(', ')}.`,
    choices,
  };
}

/** Interpreters a model may write before the script; the executor picks its own from the file. */
const INTERPRETERS = new Set(['python', 'python3', 'bash', 'sh', 'node', 'tsx', 'deno']);

/**
 * The script a model's `run_skill_script` call means, written the way models write it:
 * `scripts/convert.py`, `./scripts/convert.py`, `convert.py` (for `scripts/convert.py`),
 * `<skill-name>/scripts/convert.py`, or a
 * whole command line (`python3 scripts/convert.py --pages 2`, whose words after the file come
 * before `args`). Anything that is not a file of the skill stays as written, so the runner
 * reports it with the skill's files.
 */
export function resolveScriptCall(
  files: FileEntry[],
  script: string,
  args: string[],
  skillName?: string,
): { path: string; args: string[] } {
  const known = new Set(files.filter((f) => f.kind === 'file').map((f) => f.path));
  // `report-maker/scripts/x.py`: the skill's own folder named first, as its listing in a
  // catalog of skills shows it (only its own name: another skill's script is not this one's).
  const own = skillName ? new RegExp(`^(?:\\./)?${skillName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`) : null;
  const clean = (word: string) => {
    const plain = word.replace(/\\/g, '/').replace(/^\.\//, '');
    return own && !known.has(plain) ? plain.replace(own, '') : plain;
  };
  const find = (word: string) =>
    [clean(word), `scripts/${clean(word)}`].find((candidate) => known.has(candidate));
  const whole = script.trim();
  const direct = find(whole);
  if (direct) return { path: direct, args };
  const parsed = commandWords(whole);
  const words = 'words' in parsed ? parsed.words : whole.split(/\s+/);
  const start = INTERPRETERS.has(path.basename(words[0] ?? '')) ? 1 : 0;
  const named = words[start] === undefined ? undefined : find(words[start]);
  if (named) return { path: named, args: [...words.slice(start + 1), ...args] };
  return { path: clean(whole), args };
}
