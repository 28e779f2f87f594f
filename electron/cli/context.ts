import fs from 'node:fs';
import path from 'node:path';
import type { SkillSummary } from '../../shared/contract';
import { createEngine, type Engine } from '../engine';
import { nameSlug } from '../engine/routing/text';

/** Where the CLI bundle lives (`dist/node/`), so it can find `skills/` and `dist/renderer/`. */
export const appRoot = (): string => {
  const candidates = [path.resolve(__dirname, '../..'), path.resolve(__dirname, '..'), process.cwd()];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'package.json'))) ?? candidates[0];
};

export interface DiscoveryFlags {
  skills: string[];
  'no-default-paths': boolean;
}

export function readVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(appRoot(), 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return '0.0.0';
  }
}

/**
 * The engine over the user's folders; `watch` only for long-running commands (`serve`). A one-shot
 * command trusts the folder it runs in (as Claude Code's headless `-p` skips the trust dialog:
 * running the CLI there is the user's act); `serve` opens a window, which asks for trust instead.
 */
export async function openEngine(flags: DiscoveryFlags, watch = false): Promise<Engine> {
  const bundledDir = path.join(appRoot(), 'skills');
  // A mistyped folder finds no skill: say so, on stderr (stdout stays the command's JSON).
  for (const dir of flags.skills) {
    const stat = fs.statSync(dir, { throwIfNoEntry: false });
    if (!stat) process.stderr.write(`skilldeck: warning: --skills ${dir}: no such folder\n`);
    else if (!stat.isDirectory())
      process.stderr.write(
        `skilldeck: warning: --skills ${dir}: not a folder; give the folder that holds the skills (or the skill)\n`,
      );
  }
  const engine = await createEngine({
    bundledDir: fs.existsSync(bundledDir) ? bundledDir : undefined,
    skillDirs: flags.skills,
    noDefaultPaths: flags['no-default-paths'],
    version: readVersion(),
    watch,
    trustWorkspace: !watch,
  });
  // Settings that could not be used (a disabled list of the wrong type) change what runs: say so.
  if (engine.settings.loadProblem)
    process.stderr.write(`skilldeck: warning: ${engine.settings.loadProblem}\n`);
  return engine;
}

/**
 * A skill named on the command line: its folder path, else its name (the visible one first),
 * else its name spelled as one word in any case, else its folder's name — the way `$name`
 * finds it in a message.
 */
export function findSkill(engine: Engine, skill: string): SkillSummary | undefined {
  const { skills } = engine.skills.list();
  const byPath = skills.find((s) => s.id === path.resolve(skill));
  const visibleFirst = (match: (s: SkillSummary) => boolean) =>
    skills.find((s) => match(s) && !s.shadowedBy) ?? skills.find(match);
  const key = nameSlug(skill);
  return (
    byPath ??
    visibleFirst((s) => s.name === skill) ??
    visibleFirst((s) => nameSlug(s.name) === key) ??
    visibleFirst((s) => nameSlug(path.basename(s.id)) === key)
  );
}

/**
 * `flags`, plus the folder `skill` names when it is written as a path (`./my-skill`,
 * `drafts/my-skill/`, `.`) to a folder with a SKILL.md: a skill author runs the skill being written
 * by its folder, which no discovery folder may hold; findSkill then finds it by its path.
 */
export function withSkillFolder<F extends DiscoveryFlags>(flags: F, skill: string): F {
  if (!skill.includes('/') && !skill.includes(path.sep) && skill !== '.' && skill !== '..') return flags;
  const dir = path.resolve(skill);
  const isSkill = ['SKILL.md', 'skill.md'].some((f) => fs.existsSync(path.join(dir, f)));
  return isSkill ? { ...flags, skills: [...flags.skills, dir] } : flags;
}

/** Opens the engine, finds the named skill (or refuses: exit 2), runs `body`, closes the engine. */
export async function withSkill(
  flags: DiscoveryFlags & { json: boolean },
  skill: string,
  body: (engine: Engine, match: SkillSummary) => Promise<number>,
): Promise<number> {
  const engine = await openEngine(withSkillFolder(flags, skill));
  try {
    const match = findSkill(engine, skill);
    if (!match)
      return refuse(`No skill named "${skill}"; \`skilldeck skills list\` shows what was found.`, flags.json);
    return await body(engine, match);
  } finally {
    await engine.close();
  }
}

/**
 * A command that cannot start (no such skill, bad `--input`, an unknown conversation): the
 * message on stderr and exit 2, and with `--json` also one JSON document on stdout, so a
 * script that parses stdout reads why — `shape` when the command has one for a failure (a
 * run's), else `{ error }`.
 */
export function refuse(message: string, json: boolean, shape?: (error: string) => unknown): 2 {
  process.stderr.write(message.endsWith('\n') ? message : `${message}\n`);
  if (json) {
    const error = message.split('\n')[0].trim();
    process.stdout.write(`${JSON.stringify(shape ? shape(error) : { error }, null, 2)}\n`);
  }
  return 2;
}

/** The DESIGN §7 run shape of a run that never started. */
export const unstartedRun = (error: string) => ({
  status: 'failure' as const,
  output: '',
  error,
  sandbox: 'none' as const,
  duration_ms: 0,
});

/**
 * A one-shot command told to stop: the exit status shells report for it (128 + the signal).
 * SIGHUP is the terminal closing (its window, a lost ssh connection): by default it ended the
 * process at once, without the JSON, and left the run's record "running".
 */
const STOP_SIGNALS = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;

/** 128 + SIGPIPE: what shells report for a command whose reader went away. */
const PIPE_CLOSED = 141;
let stdoutClosed = false;
const onStdoutClosed = new Set<() => void>();

/**
 * `skilldeck … | head`: Node ignores SIGPIPE, so a write after the reader went away fails with
 * EPIPE, and unhandled that crashed the CLI with a stack trace, mid-run too. Called once at start:
 * the output ends quietly, what runs is stopped (onStopSignal) and the exit status is 141, as for
 * a tool that SIGPIPE ended. Any other stream error is thrown as before.
 */
export function endQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (error: NodeJS.ErrnoException) => {
      // EIO: the terminal itself is gone (after SIGHUP), which ends the output the same way.
      if (error.code !== 'EPIPE' && error.code !== 'EIO') throw error;
      if (stream !== process.stdout || stdoutClosed) return;
      stdoutClosed = true;
      // Also when the command had returned already and its last write failed.
      process.exitCode = PIPE_CLOSED;
      for (const stop of [...onStdoutClosed]) stop();
    });
}

/** The exit status: `code`, or 141 when stdout's reader went away. */
export const exitStatus = (code: number): number => (stdoutClosed ? PIPE_CLOSED : code);

/**
 * Ctrl-C, or `timeout` / a job runner's SIGTERM, or stdout's reader gone (`| head`): `stop` cancels
 * what runs, and the command still prints what there is (a caller reading --json gets its record). A second signal ends the process
 * at once (the handlers are gone). `status()` is the exit status once a signal came; `off()` stops
 * listening.
 */
export function onStopSignal(stop: () => void): { status: () => number | undefined; off: () => void } {
  let status: number | undefined;
  const stopWith = (code: number) => () => {
    status ??= code;
    off();
    stop();
  };
  const handlers = Object.entries(STOP_SIGNALS).map(
    ([name, code]) => [name as NodeJS.Signals, stopWith(code)] as const,
  );
  const pipeClosed = stopWith(PIPE_CLOSED);
  const off = () => {
    handlers.forEach(([name, handler]) => process.off(name, handler));
    onStdoutClosed.delete(pipeClosed);
  };
  handlers.forEach(([name, handler]) => process.once(name, handler));
  onStdoutClosed.add(pipeClosed);
  return { status: () => status, off };
}
