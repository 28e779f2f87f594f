import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/fixtures';
import { lieAboutSize, markEncrypted, setMadeBy, writeZip, type ZipEntry } from '../../testing/zips';
import { extractArchive } from './archive';

// extractArchive on its own, with caps small enough that every boundary is a few bytes away.
// hostile.test.ts drives the same rules through the engine with the real caps.
const root = tempDir('skilldeck-archive-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const LIMITS = { maxTotalBytes: 1000, maxFiles: 3, maxFileBytes: 400 };
let count = 0;

async function zipOf(entries: ZipEntry[], tweak?: (file: string) => void): Promise<string> {
  const file = path.join(root, `a${++count}.zip`);
  await writeZip(file, entries);
  tweak?.(file);
  return file;
}

const bytes = (n: number) => Buffer.alloc(n, 'x');

/** Extracts into a fresh target; the refusal message, or the progress calls when it succeeds. */
async function extract(file: string) {
  const target = path.join(root, `t${++count}`);
  const progress: [number, number, string][] = [];
  const error = await extractArchive(file, target, (...args) => progress.push(args), LIMITS).then(
    () => undefined,
    (e: Error & { code?: string }) => e,
  );
  return { target, progress, error };
}

async function refusal(file: string, message: RegExp): Promise<string> {
  const { target, error } = await extract(file);
  expect(error?.message).toMatch(message);
  expect(error).toMatchObject({ code: 'forbidden' });
  expect(fs.existsSync(target), 'nothing may be left behind').toBe(false);
  return error!.message;
}

describe('extractArchive', () => {
  it('extracts files and folders, keeps only the executable bit, and reports progress per file', async () => {
    const file = await zipOf([
      { name: './', data: '' },
      { name: 'docs/', data: '' },
      { name: 'SKILL.md', data: 'skill\n', mode: 0o100600 },
      { name: 'scripts/run.sh', data: '#!/bin/sh\n', mode: 0o100744 },
      { name: 'a/./b.txt', data: 'b' },
    ]);
    const { target, progress, error } = await extract(file);
    expect(error).toBeUndefined();
    expect(fs.readFileSync(path.join(target, 'SKILL.md'), 'utf8')).toBe('skill\n');
    expect(fs.readFileSync(path.join(target, 'a/b.txt'), 'utf8')).toBe('b');
    expect(fs.statSync(path.join(target, 'docs')).isDirectory()).toBe(true);
    expect(fs.statSync(path.join(target, 'scripts/run.sh')).mode & 0o111).toBe(0o111);
    expect(fs.statSync(path.join(target, 'SKILL.md')).mode & 0o111).toBe(0);
    expect(progress).toEqual([
      [3, 5, 'SKILL.md'],
      [4, 5, 'scripts/run.sh'],
      [5, 5, 'a/b.txt'],
    ]);
  });

  it('takes a file of exactly the per-file cap and refuses one byte more, before writing anything', async () => {
    expect((await extract(await zipOf([{ name: 'max.bin', data: bytes(400) }]))).error).toBeUndefined();
    await refusal(
      await zipOf([
        { name: 'first.txt', data: 'x' },
        { name: 'big.bin', data: bytes(401) },
      ]),
      /"big\.bin" is larger than the 0 MiB per-file limit/,
    );
  });

  it('takes exactly the total cap and refuses one byte more', async () => {
    const parts = (last: number) => [
      { name: 'a.bin', data: bytes(400) },
      { name: 'b.bin', data: bytes(400) },
      { name: 'c.bin', data: bytes(last) },
    ];
    expect((await extract(await zipOf(parts(200)))).error).toBeUndefined();
    await refusal(await zipOf(parts(201)), /larger than the 0 MiB total limit \(at "c\.bin"\)/);
  });

  it('counts files, not folders, against the file cap, and refuses a flood of entries', async () => {
    const files = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `f${i}.txt`, data: 'x' }));
    const dirs = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `d${i}/`, data: '' }));
    expect((await extract(await zipOf([...dirs(3), ...files(3)]))).error).toBeUndefined();
    await refusal(await zipOf(files(4)), /more than 3 files \(at "f3\.txt"\)/);
    await refusal(await zipOf([...dirs(6), ...files(1)]), /holds 7 entries; at most 3 files/);
  });

  it('stops a deflated entry whose header lies about its size: yauzl ends the stream at the declared size', async () => {
    // Declared 10 bytes (under every cap), inflates to 5000: the budget saw 10, yauzl refuses the rest.
    const file = await zipOf([{ name: 'liar.bin', data: bytes(5000) }], (f) =>
      lieAboutSize(f, 'liar.bin', 10),
    );
    const message = await refusal(file, /could not be extracted at entry "liar\.bin": too many bytes/);
    expect(message).toContain('expected 10');
  });

  it('refuses a stored entry whose header lies about its size before reading it', async () => {
    const file = await zipOf([{ name: 'liar.bin', data: bytes(5000), store: true }], (f) =>
      lieAboutSize(f, 'liar.bin', 10),
    );
    await refusal(file, /a\d+\.zip could not be read: .*compressed\/uncompressed size mismatch/);
  });

  it('refuses links, special files and encrypted entries, but reads no type from a DOS-made entry', async () => {
    const link: ZipEntry = { name: 'link', data: '/etc/passwd', mode: 0o120777 };
    await refusal(await zipOf([link]), /"link" is a symbolic link/);
    await refusal(await zipOf([link], (f) => setMadeBy(f, 'link', 19)), /"link" is a symbolic link/);
    await refusal(await zipOf([{ name: 'fifo', data: '', mode: 0o010644 }]), /"fifo" is a device, FIFO/);
    await refusal(await zipOf([{ name: 'dir', data: '', mode: 0o040755 }, link]), /symbolic link/);
    await refusal(
      await zipOf([{ name: 'secret', data: 'x' }], (f) => markEncrypted(f, 'secret')),
      /"secret" is encrypted/,
    );
    // MS-DOS attributes are not st_mode: the same bits are a plain file's, extracted as text.
    const { target, error } = await extract(await zipOf([link], (f) => setMadeBy(f, 'link', 0)));
    expect(error).toBeUndefined();
    expect(fs.lstatSync(path.join(target, 'link')).isFile()).toBe(true);
  });

  it('takes a folder declared by its Unix mode alone', async () => {
    const { target, error } = await extract(await zipOf([{ name: 'dir', data: '', mode: 0o040755 }]));
    expect(error).toBeUndefined();
    expect(fs.statSync(path.join(target, 'dir')).isDirectory()).toBe(true);
  });

  it('refuses an entry listed twice instead of overwriting the first', async () => {
    const file = await zipOf([
      { name: 'a.txt', data: 'first' },
      { name: 'b.txt', data: 'other', rawName: 'a.txt' },
    ]);
    await refusal(file, /could not be extracted at entry "a\.txt": .*EEXIST/);
  });

  it('refuses what is not a zip, and never writes into a target that exists', async () => {
    const fake = path.join(root, 'fake.zip');
    fs.writeFileSync(fake, 'not a zip at all');
    await refusal(fake, /fake\.zip is not a readable zip archive/);
    const target = path.join(root, 'existing');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'keep.txt'), 'keep');
    await expect(
      extractArchive(await zipOf([{ name: 'x.txt', data: 'x' }]), target, undefined, LIMITS),
    ).rejects.toMatchObject({ code: 'EEXIST' });
    expect(fs.readdirSync(target)).toEqual(['keep.txt']);
  });

  it('creates the folders on the way to a file or folder, shared by what is under them', async () => {
    const { target, error } = await extract(
      await zipOf([
        { name: 'x/y/z.txt', data: 'z' },
        { name: 'x/y/w.txt', data: 'w' },
        { name: 'deep/er/', data: '' },
        { name: 'deep/er/', data: '', rawName: 'deep/er/' },
      ]),
    );
    expect(error).toBeUndefined();
    expect(fs.readdirSync(path.join(target, 'x/y')).sort()).toEqual(['w.txt', 'z.txt']);
    expect(fs.statSync(path.join(target, 'deep/er')).isDirectory()).toBe(true);
  });

  it('takes a folder entry made on DOS by its trailing slash, and skips an entry naming the root', async () => {
    const file = await zipOf(
      [
        { name: 'docs/', data: '' },
        { name: 'q', data: 'root?', rawName: '.' },
        { name: 'docs/a.txt', data: 'a' },
      ],
      (f) => setMadeBy(f, 'docs/', 0),
    );
    const { target, progress, error } = await extract(file);
    expect(error).toBeUndefined();
    expect(fs.readdirSync(target)).toEqual(['docs']);
    expect(fs.readFileSync(path.join(target, 'docs/a.txt'), 'utf8')).toBe('a');
    expect(progress).toEqual([[3, 3, 'docs/a.txt']]);
  });

  it('closes the archive when done, and when it refuses one', async () => {
    const open = (file: string) =>
      fs.readdirSync('/proc/self/fd').some((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`) === file;
        } catch {
          return false;
        }
      });
    // yauzl closes the file asynchronously, soon after close(): wait for it, not forever.
    const closed = async (file: string) => {
      for (const end = Date.now() + 2000; open(file) && Date.now() < end;)
        await new Promise((r) => setTimeout(r, 5));
      return !open(file);
    };
    const good = await zipOf([{ name: 'a.txt', data: 'a' }]);
    expect((await extract(good)).error).toBeUndefined();
    expect(await closed(good)).toBe(true);
    const bad = await zipOf([{ name: 'a.txt', data: 'a' }], (f) => markEncrypted(f, 'a.txt'));
    expect((await extract(bad)).error).toBeDefined();
    expect(await closed(bad)).toBe(true);
  });
});
