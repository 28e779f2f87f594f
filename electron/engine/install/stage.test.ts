import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UPLOAD_MAX_BYTES } from '../../../shared/contract';
import { skillMd, tempDir, writeTree } from '../../testing/fixtures';
import { writeZip } from '../../testing/zips';
import { stageSource, type PhaseProgress } from './stage';

// stageSource on its own: each source kind's own checks, before the archive and folder rules
// (archive.test.ts, folder.test.ts) take over. Nothing may land outside the staging dir.
const root = tempDir('skilldeck-stage-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let count = 0;

function staging(): string {
  const dir = path.join(root, `staging${++count}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e as Error & { code?: string },
  );
const noProgress: PhaseProgress = () => undefined;

describe('stageSource: folder', () => {
  it('copies the folder into tree/, reporting the copying phase', async () => {
    const src = path.join(root, 'notes');
    writeTree(src, { 'SKILL.md': skillMd('notes', 'Notes.') });
    const dir = staging();
    const calls: Parameters<PhaseProgress>[] = [];
    const tree = await stageSource({ kind: 'folder', path: src }, dir, (...args) => calls.push(args));
    expect(tree).toBe(path.join(dir, 'tree'));
    expect(fs.readFileSync(path.join(tree, 'SKILL.md'), 'utf8')).toContain('Notes.');
    expect(calls).toEqual([['copying', 1, 0, 'SKILL.md']]);
  });

  it("refuses a folder that holds SkillDeck's own staging dir", async () => {
    const home = path.join(root, 'home-as-source');
    const dir = path.join(home, 'staging', 'p1');
    fs.mkdirSync(dir, { recursive: true });
    const error = await rejection(stageSource({ kind: 'folder', path: home }, dir, noProgress));
    expect(error).toMatchObject({
      code: 'forbidden',
      message: `Install refused: ${home} holds SkillDeck's own data folder; pick the skill's folder itself.`,
    });
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('stageSource: archive', () => {
  it('refuses a path that is not a file, or not a .zip / .skill', async () => {
    const folder = path.join(root, 'a-folder.zip');
    fs.mkdirSync(folder, { recursive: true });
    const error0 = await rejection(stageSource({ kind: 'archive', path: folder }, staging(), noProgress));
    expect(error0).toMatchObject({ code: 'forbidden', message: `Install refused: ${folder} is not a file.` });
    // A mistyped folder or archive path says it is not there, not that it is "not a file".
    const missing = path.join(root, 'my-skil');
    const gone = await rejection(stageSource({ kind: 'archive', path: missing }, staging(), noProgress));
    expect(gone).toMatchObject({
      code: 'not_found',
      message: `Install refused: ${missing} does not exist; give a skill folder, a .zip or .skill archive, or a git URL.`,
    });
    const renamed = path.join(root, 'skill.zip.txt');
    await writeZip(renamed, [{ name: 'SKILL.md', data: skillMd('z', 'Zipped.') }]);
    const error = await rejection(stageSource({ kind: 'archive', path: renamed }, staging(), noProgress));
    expect(error).toMatchObject({
      code: 'forbidden',
      message: 'Install refused: skill.zip.txt is not a .zip or .skill archive.',
    });
  });

  it('extracts a .SKILL file, reporting the extracting phase', async () => {
    const file = path.join(root, 'Notes.SKILL');
    await writeZip(file, [{ name: 'SKILL.md', data: skillMd('notes', 'Notes.') }]);
    const calls: Parameters<PhaseProgress>[] = [];
    const tree = await stageSource({ kind: 'archive', path: file }, staging(), (...args) => calls.push(args));
    expect(fs.readdirSync(tree)).toEqual(['SKILL.md']);
    expect(calls).toEqual([['extracting', 1, 1, 'SKILL.md']]);
  });
});

describe('stageSource: upload', () => {
  const upload = (fileName: string, dataBase64: string, dir = staging()) =>
    rejection(stageSource({ kind: 'upload', fileName, dataBase64 }, dir, noProgress));

  it('extracts the bytes and keeps no copy of the upload', async () => {
    const file = path.join(root, 'up.zip');
    await writeZip(file, [{ name: 'SKILL.md', data: skillMd('up', 'Uploaded.') }]);
    const dir = staging();
    const tree = await stageSource(
      { kind: 'upload', fileName: 'up.zip', dataBase64: fs.readFileSync(file).toString('base64') },
      dir,
      noProgress,
    );
    expect(fs.readdirSync(tree)).toEqual(['SKILL.md']);
    expect(fs.readdirSync(dir)).toEqual(['tree']);
  });

  it('takes only a bare .zip or .skill file name', async () => {
    for (const name of ['a.zip.txt', 'a\\b.zip', 'dir/a.zip', '.zip', 'a.zip\0'])
      expect(await upload(name, ''), name).toMatchObject({
        code: 'invalid_params',
        message: `${JSON.stringify(name)} is not a .zip or .skill file name.`,
      });
    const long = `${'x'.repeat(300)}.txt`;
    expect((await upload(long, '')).message).toBe(
      `${JSON.stringify(long.slice(0, 200))} is not a .zip or .skill file name.`,
    );
  });

  it('takes only strict base64', async () => {
    for (const data of ['abc', 'ab!d', 'abcd====', ' abc', 'ab=c'])
      expect(await upload('a.zip', data), data).toMatchObject({
        code: 'invalid_params',
        message: 'a.zip: the uploaded data is not valid base64.',
      });
  });

  it('takes an upload of exactly the limit, and refuses one byte more', async () => {
    const at = await upload('a.zip', Buffer.alloc(UPLOAD_MAX_BYTES).toString('base64'));
    expect(at.message).toMatch(/^Install refused: a\.zip is not a readable zip archive/);
    const over = await upload('a.zip', Buffer.alloc(UPLOAD_MAX_BYTES + 1).toString('base64'));
    expect(over).toMatchObject({
      code: 'forbidden',
      message:
        'Install refused: a.zip is larger than the upload limit; archives over 3 MB: paste their path instead.',
    });
  });
});

describe('stageSource: git', () => {
  const repo = path.join(root, 'repo');
  const outside = path.join(root, 'outside');
  writeTree(outside, { 'SKILL.md': skillMd('outside', 'Not in the repository.') });
  writeTree(repo, { 'skills/alpha/SKILL.md': skillMd('alpha', 'Alpha.') });
  fs.symlinkSync(outside, path.join(repo, 'skills', 'escape'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'skills');
  const url = `file://${repo}`;

  it('copies the sub-path out of the checkout, then drops the checkout', async () => {
    const dir = staging();
    const calls: Parameters<PhaseProgress>[] = [];
    const tree = await stageSource({ kind: 'git', url, subpath: 'skills/alpha' }, dir, (...args) =>
      calls.push(args),
    );
    expect(fs.readdirSync(tree)).toEqual(['SKILL.md']);
    expect(fs.readdirSync(dir)).toEqual(['tree']);
    expect(calls.at(-1)).toEqual(['copying', 1, 0, 'SKILL.md']);
    expect(calls.some(([phase]) => phase === 'cloning')).toBe(true);
  });

  it('refuses a sub-path that is missing, or a link out of the repository', async () => {
    const dir = staging();
    const missing = await rejection(
      stageSource({ kind: 'git', url, subpath: 'skills/none' }, dir, noProgress),
    );
    expect(missing.message).toBe(`Install refused: skills/none does not exist in ${url}.`);
    const escape = await rejection(
      stageSource({ kind: 'git', url, subpath: 'skills/escape' }, dir, noProgress),
    );
    expect(escape.message).toBe(
      'Install refused: "skills/escape" is a link that leads outside the repository.',
    );
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
