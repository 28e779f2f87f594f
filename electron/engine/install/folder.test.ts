import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import { copyFolder } from './folder';
import type { InstallLimits } from './limits';

// copyFolder on its own, with caps a few bytes wide; hostile.test.ts drives it through the engine.
const root = tempDir('skilldeck-folder-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const LIMITS = { maxTotalBytes: 1000, maxFiles: 3, maxFileBytes: 400 };
let count = 0;
const bytes = (n: number) => Buffer.alloc(n, 'x');

function source(files: Record<string, string | Buffer>): string {
  const dir = path.join(root, `src${++count}`);
  writeTree(dir, files);
  return dir;
}

/** Copies into a fresh target; the refusal, or the progress calls when it succeeds. */
async function copy(src: string, limits: InstallLimits = LIMITS) {
  const target = path.join(root, `t${++count}`);
  const progress: [number, number, string][] = [];
  const error = await copyFolder(src, target, (...args) => progress.push(args), limits).then(
    () => undefined,
    (e: Error & { code?: string }) => e,
  );
  return { target, progress, error };
}

async function refusal(src: string, message: RegExp, limits: InstallLimits = LIMITS) {
  const { target, error } = await copy(src, limits);
  expect(error?.message).toMatch(message);
  expect(error).toMatchObject({ code: 'forbidden' });
  expect(fs.existsSync(target), 'nothing may be left behind').toBe(false);
}

describe('copyFolder', () => {
  it('copies files and inner links in name order, skips .git and node_modules, keeps the x bit', async () => {
    const src = source({
      'b.md': 'b',
      'a/x.sh': '#!/bin/sh\n',
      '.git/HEAD': 'ref',
      'node_modules/m/i.js': '',
    });
    fs.chmodSync(path.join(src, 'a/x.sh'), 0o755);
    fs.symlinkSync('b.md', path.join(src, 'c.md'));
    const { target, progress, error } = await copy(src);
    expect(error).toBeUndefined();
    expect(fs.readdirSync(target).sort()).toEqual(['a', 'b.md', 'c.md']);
    expect(fs.readFileSync(path.join(target, 'b.md'), 'utf8')).toBe('b');
    expect(fs.readlinkSync(path.join(target, 'c.md'))).toBe('b.md');
    expect(fs.statSync(path.join(target, 'a/x.sh')).mode & 0o111).toBe(0o111);
    expect(fs.statSync(path.join(target, 'b.md')).mode & 0o111).toBe(0);
    expect(progress).toEqual([
      [1, 0, 'a/x.sh'],
      [2, 0, 'b.md'],
    ]);
  });

  it('takes exactly the total cap and refuses one byte more', async () => {
    const parts = (last: number) => ({ 'a.bin': bytes(400), 'b.bin': bytes(400), 'c.bin': bytes(last) });
    expect((await copy(source(parts(200)))).error).toBeUndefined();
    await refusal(source(parts(201)), /larger than the 0 MiB total limit \(at "c\.bin"\)/);
  });

  it('takes a file of exactly the per-file cap and refuses one byte more', async () => {
    expect((await copy(source({ 'max.bin': bytes(400) }))).error).toBeUndefined();
    await refusal(
      source({ 'a.txt': 'x', 'big.bin': bytes(401) }),
      /"big\.bin" is larger than the 0 MiB per-file/,
    );
  });

  it('counts files and links against the file cap', async () => {
    const src = source({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' });
    expect((await copy(src)).error).toBeUndefined();
    fs.symlinkSync('a.txt', path.join(src, 'd.txt'));
    await refusal(src, /more than 3 files \(at "d\.txt"\)/);
  });

  // procfs files report size 0 and still hold bytes, like a file that grows after it was
  // measured: only the bytes counted while copying can hold the caps.
  const procfs = '/proc/sys/kernel/random';
  it.skipIf(!fs.existsSync(procfs))(
    'measures the bytes it copies, not the size a file reported',
    async () => {
      await refusal(procfs, /"boot_id" is larger than the 0 MiB per-file limit/, {
        ...LIMITS,
        maxFileBytes: 20,
      });
      await refusal(procfs, /larger than the 0 MiB total limit \(at "boot_id"\)/, {
        ...LIMITS,
        maxTotalBytes: 20,
        maxFiles: 10,
      });
    },
  );

  it('refuses links that leave the folder, directly, absolutely or through another link', async () => {
    const outside = source({ 'secret.txt': 'secret' });
    const up = source({ 'SKILL.md': 'x' });
    fs.symlinkSync(`../${path.basename(outside)}/secret.txt`, path.join(up, 'up'));
    await refusal(up, /"up" is a symbolic link to "\.\.\/src\d+\/secret\.txt", outside the skill/);
    const absolute = source({ 'SKILL.md': 'x' });
    fs.symlinkSync(path.join(absolute, 'SKILL.md'), path.join(absolute, 'abs'));
    await refusal(absolute, /"abs" is a symbolic link to ".*SKILL\.md", outside the skill/);
    const chained = source({ 'SKILL.md': 'x' });
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(chained, 'hop'));
    fs.symlinkSync('hop', path.join(chained, 'a-link'));
    await refusal(chained, /"a-link" is a symbolic link to "hop", outside the skill/);
  });

  it('refuses links that stay inside only by the source folder’s own name, or by climbing past /', async () => {
    // Installed under another name, `../<source name>/SKILL.md` points at whatever skill has that name.
    const byName = source({ 'SKILL.md': 'x' });
    fs.symlinkSync(`../${path.basename(byName)}/SKILL.md`, path.join(byName, 'steal'));
    await refusal(byName, /"steal" is a symbolic link to "\.\.\/src\d+\/SKILL\.md", outside the skill/);
    // Extra `..` collapse at / and come back down to the source: after the copy it still points there.
    const deep = source({ 'real.txt': 'x' });
    const climb = `${'../'.repeat(deep.split('/').length + 2)}${deep.slice(1)}/real.txt`;
    fs.symlinkSync(climb, path.join(deep, 'data'));
    await refusal(deep, /"data" is a symbolic link to .*, outside the skill/);
    // A link within the skill, into a subfolder and back up to the root, is copied as a link.
    const fine = source({ 'SKILL.md': 'x', 'docs/guide.md': 'g' });
    fs.symlinkSync('../SKILL.md', path.join(fine, 'docs', 'skill-link'));
    const target = path.join(root, 'fine-copy');
    await copyFolder(fine, target, undefined, LIMITS);
    expect(fs.readlinkSync(path.join(target, 'docs', 'skill-link'))).toBe('../SKILL.md');
  });

  it('refuses a FIFO, a missing source and a file as source, and never writes into an existing target', async () => {
    const fifo = source({ 'SKILL.md': 'x' });
    execFileSync('mkfifo', [path.join(fifo, 'pipe')]);
    await refusal(fifo, /"pipe" is a device, FIFO or socket/);
    await refusal(path.join(root, 'missing'), /missing is not a readable folder/);
    await refusal(path.join(source({ 'f.txt': 'x' }), 'f.txt'), /f\.txt is not a readable folder/);
    const target = path.join(root, 'existing');
    writeTree(target, { 'keep.txt': 'keep' });
    await expect(copyFolder(source({ 'x.txt': 'x' }), target, undefined, LIMITS)).rejects.toMatchObject({
      code: 'EEXIST',
    });
    expect(fs.readdirSync(target)).toEqual(['keep.txt']);
  });

  it('copies in one name order on every platform, not the order the folder lists', async () => {
    // Node lists in byte order on Linux (ｘ before 😀); the copy goes by UTF-16 units (😀 first).
    const src = source({ 'ｘ.md': 'x', 'b.md': 'b', '😀.md': 'e', 'a.md': 'a' });
    expect(fs.readdirSync(src)).toEqual(['a.md', 'b.md', 'ｘ.md', '😀.md']);
    const { progress, error } = await copy(src, { ...LIMITS, maxFiles: 10 });
    expect(error).toBeUndefined();
    expect(progress.map(([, , rel]) => rel)).toEqual(['a.md', 'b.md', '😀.md', 'ｘ.md']);
  });

  it('removes what it copied when it refuses a later file', async () => {
    const src = source({ 'a/one.txt': 'x', 'a/two.txt': 'y', 'z.bin': bytes(401) });
    await refusal(src, /"z\.bin" is larger than the 0 MiB per-file limit/);
  });
});
