import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { skillMd, tempDir, writeTree } from '../../testing/fixtures';
import { checkGitSource, cloneRepo, gitMessage, progressOf } from './git';

// The git source on its own: what may reach git's command line, and real clones of a local
// repository over file:// (install.test.ts installs from one through the engine).
const root = tempDir('skilldeck-git-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let url = '';
let v1 = '';
let count = 0;
const target = () => path.join(root, `clone${++count}`);

beforeAll(() => {
  const work = path.join(root, 'work');
  writeTree(work, { 'skills/alpha/SKILL.md': skillMd('alpha', 'Alpha, version one.'), 'README.md': 'r\n' });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: work })
      .toString()
      .trim();
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'v1');
  v1 = git('rev-parse', 'HEAD');
  writeTree(work, { 'skills/alpha/SKILL.md': skillMd('alpha', 'Alpha, version two.') });
  git('commit', '-q', '-am', 'v2');
  const bare = path.join(root, 'skills.git');
  execFileSync('git', ['clone', '-q', '--bare', work, bare]);
  url = `file://${bare}`;
});

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toMatchObject({ code: 'forbidden' });
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('checkGitSource', () => {
  it('takes https, ssh, git and file URLs, scp-like ssh, and ordinary refs', () => {
    for (const ok of [
      'https://github.com/o/r.git',
      'ssh://git@example.com/o/r',
      'git://example.com/r',
      'file:///srv/r.git',
      'git@github.com:o/r.git',
      'deploy.bot-1@my-host.example:o/r',
    ])
      expect(() => checkGitSource(ok, undefined), ok).not.toThrow();
    for (const ref of ['v1', 'main', 'feature/x-', 'a.b', v1])
      expect(() => checkGitSource('https://example.com/r', ref), ref).not.toThrow();
  });

  it('refuses other transports, options and URLs with more around them', () => {
    for (const bad of [
      'http://example.com/r',
      'ftp://example.com/r',
      'ext::sh -c touch% /tmp/x',
      '--upload-pack=touch /tmp/x',
      '-x@example.com:o/r',
      'evil https://example.com/r',
      'https://example.com/r evil',
      'https://',
      '@example.com:o/r',
      'git@:o/r',
      'git@example.com:',
      'git@exa/mple.com:o/r',
      'g!t@example.com:o/r',
    ])
      expect(
        refusal(() => checkGitSource(bad, undefined)),
        bad,
      ).toBe(
        `Install refused: ${JSON.stringify(bad)} is not a git URL (https://, ssh://, git@host:path or file://).`,
      );
  });

  it('refuses a ref that is an option, holds whitespace or climbs with ..', () => {
    for (const bad of ['-b', '--upload-pack=x', 'a b', 'a\tb', '../x', 'a..b'])
      expect(
        refusal(() => checkGitSource('https://example.com/r', bad)),
        bad,
      ).toBe(`Install refused: ${JSON.stringify(bad)} is not a valid git ref.`);
  });
});

describe('progressOf', () => {
  it('reads what, done and total from a progress line, padded or after remote:', () => {
    expect(progressOf('Receiving objects:  45% (9/20)')).toEqual({
      done: 9,
      total: 20,
      message: 'Receiving objects',
    });
    expect(progressOf('remote: Counting objects: 100% (12/12), done.')).toEqual({
      done: 12,
      total: 12,
      message: 'Counting objects',
    });
    expect(progressOf('Resolving deltas: 100% (1234/1234), done.')).toEqual({
      done: 1234,
      total: 1234,
      message: 'Resolving deltas',
    });
  });

  it('passes other lines by', () => {
    for (const line of [
      "Cloning into 'x'...",
      '',
      'warning: redirecting to https://x/',
      'Receiving objects: 45%',
    ])
      expect(progressOf(line), line).toBeNull();
  });
});

describe('gitMessage', () => {
  const failure = async (args: string[], opts: { stderr?: 'ignore' } = {}) =>
    execa('git', args, { cwd: root, ...opts }).then(
      () => {
        throw new Error('git succeeded');
      },
      (error: unknown) => error,
    );

  it("keeps git's fatal and error lines, one after another", async () => {
    const missing = path.join(root, 'missing.git');
    const error = await failure(['clone', `file://${missing}`, path.join(root, 'never')]);
    expect(gitMessage(error)).toBe(
      `fatal: '${missing}' does not appear to be a git repository fatal: Could not read from remote repository.`,
    );
  });

  it("falls back to the command's own summary when git says nothing", async () => {
    const quiet = await failure([
      '-C',
      path.join(root, 'skills.git'),
      'rev-parse',
      '-q',
      '--verify',
      'refs/heads/none',
    ]);
    expect(gitMessage(quiet)).toBe((quiet as Error & { shortMessage: string }).shortMessage);
    const silent = await failure(['clone', 'file:///missing.git', path.join(root, 'never')], {
      stderr: 'ignore',
    });
    expect(gitMessage(silent)).toBe((silent as Error & { shortMessage: string }).shortMessage);
    expect(gitMessage(new Error('spawn git ENOENT'))).toBe('spawn git ENOENT');
  });
});

describe('cloneRepo', () => {
  const noProgress = () => undefined;

  it('clones the default branch shallowly, reporting git progress as it goes', async () => {
    const into = target();
    const progress: [number, number, string][] = [];
    expect(await cloneRepo(url, undefined, undefined, into, (...p) => progress.push(p))).toBe(into);
    expect(fs.readFileSync(path.join(into, 'skills/alpha/SKILL.md'), 'utf8')).toContain('version two');
    expect(execFileSync('git', ['-C', into, 'rev-list', '--count', 'HEAD']).toString().trim()).toBe('1');
    const done = progress.filter(([d, total]) => d === total && total > 0);
    expect(done.map(([, , what]) => what)).toContain('Receiving objects');
  });

  it('checks out a commit by its sha, and returns the sub-path inside the checkout', async () => {
    const into = target();
    const from = await cloneRepo(url, v1.slice(0, 10), './skills//alpha/', into, noProgress);
    expect(from).toBe(path.join(into, 'skills', 'alpha'));
    expect(fs.readFileSync(path.join(from, 'SKILL.md'), 'utf8')).toContain('version one');
  });

  it('starts the full clone for a sha from an empty folder, whatever the branch attempt left', async () => {
    const into = target();
    writeTree(into, { 'left-over/file': 'x' });
    await cloneRepo(url, v1, undefined, into, noProgress);
    expect(fs.existsSync(path.join(into, 'left-over'))).toBe(false);
    expect(fs.readFileSync(path.join(into, 'skills/alpha/SKILL.md'), 'utf8')).toContain('version one');
  });

  it('says which ref git could not find, and leaves no folder behind', async () => {
    // Refs that hold a sha-like run of hex are still branch names: no fallback to a full clone.
    for (const ref of ['no-such-branch', 'release-deadbeef1', 'deadbeef1-release']) {
      const into = target();
      await expect(cloneRepo(url, ref, undefined, into, noProgress)).rejects.toThrow(
        `Install refused: git could not fetch ${url} at ${ref}: fatal: Remote branch ${ref} not found in upstream origin`,
      );
      expect(fs.existsSync(into)).toBe(false);
    }
  });

  it('removes the fetched history when a sha is not in it', async () => {
    const into = target();
    await expect(cloneRepo(url, 'deadbeef12', undefined, into, noProgress)).rejects.toThrow(
      /^Install refused: git could not fetch .* at deadbeef12: (fatal|error): /,
    );
    expect(fs.existsSync(into)).toBe(false);
  });

  it('names no ref when none was asked for', async () => {
    const missing = `file://${path.join(root, 'missing.git')}`;
    await expect(cloneRepo(missing, undefined, undefined, target(), noProgress)).rejects.toThrow(
      `Install refused: git could not fetch ${missing}: fatal:`,
    );
  });

  it('refuses a sub-path that climbs out of the checkout', async () => {
    await expect(cloneRepo(url, undefined, 'skills/../..', target(), noProgress)).rejects.toThrow(
      /climbs out/,
    );
  });

  describe('under a hostile machine-wide git config', () => {
    // A system gitconfig may hold hooks or URL rewrites; git runs with GIT_CONFIG_NOSYSTEM.
    const saved = process.env.GIT_CONFIG_SYSTEM;
    afterEach(() => {
      if (saved === undefined) delete process.env.GIT_CONFIG_SYSTEM;
      else process.env.GIT_CONFIG_SYSTEM = saved;
    });

    it('ignores it', async () => {
      const config = path.join(root, 'system.gitconfig');
      fs.writeFileSync(config, `[url "file://${path.join(root, 'nowhere')}/"]\n\tinsteadOf = ${url}\n`);
      process.env.GIT_CONFIG_SYSTEM = config;
      const into = target();
      await cloneRepo(url, undefined, undefined, into, noProgress);
      expect(fs.existsSync(path.join(into, 'skills/alpha/SKILL.md'))).toBe(true);
    });
  });
});
