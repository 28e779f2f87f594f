import path from 'node:path';
import { execa, ExecaError } from 'execa';
import type { Progress } from './archive';
import { refused, removeTree, safeEntryPath } from './limits';

/** https, ssh (`ssh://` or scp-like `git@host:path`), git and file URLs; nothing that starts like an option. */
const URL_RE = /^(?:(?:https|ssh|git|file):\/\/\S+|[\w.-]+@[\w.-]+:\S+)$/;
const SHA_RE = /^[0-9a-f]{7,40}$/i;

/** git with no prompts, no hooks from config, and only the transports we accept. */
const GIT_ENV = {
  // Stryker disable next-line StringLiteral: git reads an empty GIT_TERMINAL_PROMPT as false too
  GIT_TERMINAL_PROMPT: '0',
  GIT_ALLOW_PROTOCOL: 'https:ssh:git:file',
  GIT_CONFIG_NOSYSTEM: '1',
  // Stryker disable next-line StringLiteral: only Git Credential Manager reads it, and no test machine has one
  GCM_INTERACTIVE: 'never',
};

async function git(args: string[], onLine?: (line: string) => void): Promise<void> {
  const child = execa('git', args, {
    env: GIT_ENV,
    stdin: 'ignore',
    timeout: 10 * 60_000,
  });
  if (onLine)
    child.stderr.on('data', (chunk: Buffer) =>
      chunk
        .toString()
        .split(/[\r\n]/)
        .forEach(onLine),
    );
  await child;
}

/**
 * One line of git's `--progress` output (`Receiving objects:  45% (9/20)`, after a `remote: `
 * or not) as done / total / what; null for any other line.
 */
export function progressOf(line: string): { done: number; total: number; message: string } | null {
  const m = /(\w[\w ]+):\s+(\d+)% \((\d+)\/(\d+)\)/.exec(line);
  return m ? { done: Number(m[3]), total: Number(m[4]), message: m[1] } : null;
}

/** The `fatal:` / `error:` lines of a failed git, else execa's short message. */
export function gitMessage(error: unknown): string {
  if (error instanceof ExecaError) {
    // No stderr reads as "undefined", which names no fatal or error either.
    const lines = String(error.stderr)
      .split('\n')
      .filter((l) => /fatal|error/i.test(l));
    return lines.join(' ') || error.shortMessage;
  }
  return (error as Error).message;
}

/**
 * Refuses a URL git would read as an option or fetch over a transport we do not accept, and a
 * ref that is an option, holds whitespace or climbs with `..`: both reach git's command line.
 */
export function checkGitSource(url: string, ref: string | undefined): void {
  if (!URL_RE.test(url) || url.startsWith('-'))
    throw refused(`${JSON.stringify(url)} is not a git URL (https://, ssh://, git@host:path or file://).`);
  if (ref !== undefined && (ref.startsWith('-') || /\s|\.\./.test(ref)))
    throw refused(`${JSON.stringify(ref)} is not a valid git ref.`);
}

/**
 * Clones `url` into `target` (shallow; `--branch ref` when a branch or tag is given, a full
 * clone and checkout for a commit sha) and returns the folder to install from: `subpath`
 * inside the checkout, checked to stay inside it.
 */
export async function cloneRepo(
  url: string,
  ref: string | undefined,
  subpath: string | undefined,
  target: string,
  onProgress: Progress,
): Promise<string> {
  checkGitSource(url, ref);
  const report = (line: string) => {
    const p = progressOf(line);
    if (p) onProgress(p.done, p.total, p.message);
  };
  const base = ['-c', 'core.symlinks=true', 'clone', '--progress', '--no-recurse-submodules'];
  try {
    if (ref === undefined) await git([...base, '--depth', '1', '--', url, target], report);
    else {
      try {
        await git([...base, '--depth', '1', '--branch', ref, '--', url, target], report);
      } catch (error) {
        if (!SHA_RE.test(ref)) throw error;
        // `--branch` takes names only: a commit needs the history, then a detached checkout.
        await removeTree(target);
        await git([...base, '--no-checkout', '--', url, target], report);
        await git(['-C', target, 'checkout', '--quiet', '--detach', ref]);
      }
    }
  } catch (error) {
    await removeTree(target);
    throw refused(`git could not fetch ${url}${ref ? ` at ${ref}` : ''}: ${gitMessage(error)}`);
  }
  if (subpath === undefined) return target;
  return path.join(target, ...safeEntryPath(subpath).split('/'));
}
