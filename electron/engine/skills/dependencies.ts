import os from 'node:os';
import { stripVTControlCharacters } from 'node:util';
import { execa } from 'execa';
import type { DependencyInstall, SkillMetadata } from '../../../shared/contract';
import { EngineError, forbidden } from '../errors';
import { runnableHints } from './installHints';
import { onPath, unmetRequirements } from './readiness';

/** An installer that has not finished in this long is stopped (a cargo build can take minutes). */
const INSTALL_TIMEOUT_MS = 15 * 60_000;
/** The output kept for the answer: its end, where an installer says what went wrong. */
const OUTPUT_TAIL = 16_000;

/** The install hints of the programs a skill misses right now, with those SkillDeck can run marked. */
export function dependencyHints(m: SkillMetadata, env: NodeJS.ProcessEnv = process.env) {
  const unmet = unmetRequirements(m, env);
  const missing = [...unmet.bins, ...unmet.anyBins];
  return { missing, hints: runnableHints(m.install, missing, process.platform, 2, (b) => onPath(b, env)) };
}

/**
 * Runs one of the skill's own install hints for a program it misses (users' ask #13: one-click
 * dependency installs), when the user asks: only a `runnable` hint, named by its exact command, so
 * a caller cannot run anything the skill's metadata and the user's package managers do not give.
 * It runs outside the sandbox, as the user, with the network: an installer writes to the
 * package manager's own folders. Then the requirements are checked again.
 */
export async function installDependency(
  m: SkillMetadata,
  command: string,
  env: NodeJS.ProcessEnv = process.env,
  onOutput: (chunk: string) => void = () => {},
): Promise<DependencyInstall> {
  const { missing, hints } = dependencyHints(m, env);
  if (missing.length === 0)
    throw new EngineError(
      'invalid_params',
      `${m.name} misses no program: nothing to install. Reload if it still says so.`,
    );
  const chosen = hints.find((h) => h.hint.command === command);
  if (!chosen)
    throw forbidden(
      `"${command.slice(0, 200)}" is not one of ${m.name}'s install commands for what it misses (${missing.join(', ')}).`,
    );
  if (!chosen.argv)
    throw forbidden(
      `SkillDeck does not run "${command.slice(0, 200)}" for you (sudo, a download, or no package manager for it on PATH); copy it into a terminal.`,
    );
  const [program, ...args] = chosen.argv;
  const start = Date.now();
  const subprocess = execa(program, args, {
    env: { ...env, npm_config_yes: 'true', HOMEBREW_NO_AUTO_UPDATE: '1' },
    extendEnv: false,
    cwd: env.HOME || os.homedir(),
    stdin: 'ignore',
    all: true,
    reject: false,
    timeout: INSTALL_TIMEOUT_MS,
    maxBuffer: 8 * 1024 * 1024,
  });
  const relay = outputRelay(onOutput);
  subprocess.all?.on('data', (data: Buffer | string) => relay.push(String(data)));
  const result = await subprocess;
  relay.flush();
  const text = readable(String(result.all ?? ''));
  const still = dependencyHints(m, env).missing;
  const exitCode = typeof result.exitCode === 'number' ? result.exitCode : null;
  const why = result.timedOut
    ? `stopped after ${INSTALL_TIMEOUT_MS / 60_000} minutes`
    : result.failed && exitCode === null
      ? (result.shortMessage ?? 'the installer could not start')
      : undefined;
  return {
    command,
    ok: exitCode === 0 && !result.timedOut,
    exit_code: exitCode,
    output: text.length > OUTPUT_TAIL ? `…${text.slice(-OUTPUT_TAIL)}` : text,
    duration_ms: Date.now() - start,
    missing: still,
    ...(why ? { error: why } : {}),
  };
}

/** Installer output as text: terminal escapes removed, a progress bar's carriage returns as lines. */
const readable = (text: string) => stripVTControlCharacters(text).replace(/\r(?!\n)/g, '\n');

/** How often a running install's output goes out: often enough to watch, not an event per byte. */
const OUTPUT_EVERY_MS = 150;

/** Collects an installer's output and hands it on at most every OUTPUT_EVERY_MS, readable. */
function outputRelay(onOutput: (chunk: string) => void) {
  let pending = '';
  let timer: NodeJS.Timeout | null = null;
  // A carriage return or a terminal escape cut at the chunk's end waits for the rest of it.
  const send = (final: boolean) => {
    if (timer) clearTimeout(timer);
    timer = null;
    const esc = pending.lastIndexOf('\x1b');
    const open = esc >= 0 && !/[@-~]/u.test(pending.slice(esc + 2));
    const cut = final
      ? pending.length
      : open
        ? esc
        : pending.endsWith('\r')
          ? pending.length - 1
          : pending.length;
    const chunk = readable(pending.slice(0, cut));
    pending = pending.slice(cut);
    if (chunk) onOutput(chunk);
  };
  return {
    push(data: string) {
      pending += data;
      timer ??= setTimeout(() => send(false), OUTPUT_EVERY_MS);
    },
    flush: () => send(true),
  };
}
