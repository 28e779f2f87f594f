import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '..';
import { skillMd, tempDir, writeTree } from '../../testing/fixtures';
import { lieAboutSize, writeZip, type ZipEntry } from '../../testing/zips';

// Every hostile input is refused with a message naming the entry, and a walk of the whole
// temp root afterwards shows that nothing was written anywhere, staging included.
let root: string;
let engine: Engine;
const escapeName = `sd-escape-${process.pid}-${Date.now()}.txt`;
const MiB = 1024 * 1024;

beforeAll(async () => {
  root = tempDir();
  engine = await createEngine({
    home: path.join(root, 'home'),
    userHome: path.join(root, 'user'),
    workspace: path.join(root, 'ws'),
  });
});
afterAll(async () => {
  await engine.close();
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(path.join(os.tmpdir(), escapeName), { force: true });
});

/** Every path under `dir` (links not followed), with file sizes. */
function walk(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      out.push(e.isFile() ? `${p} ${fs.statSync(p).size}` : p);
      if (e.isDirectory()) visit(p);
    }
  };
  visit(dir);
  return out.sort();
}

const good = skillMd('victim', 'A skill that hides something nasty.');

async function refusedArchive(
  name: string,
  entries: ZipEntry[],
  message: RegExp,
  tweak?: (file: string) => void,
) {
  const file = path.join(root, 'src', name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await writeZip(file, entries);
  tweak?.(file);
  return expectRefused({ kind: 'archive', path: file }, message);
}

async function expectRefused(source: Parameters<Engine['install']['preview']>[0], message: RegExp) {
  const before = walk(root);
  const error = await engine.install.preview(source).then(
    () => undefined,
    (e: unknown) => e as Error & { code?: string },
  );
  expect(error, 'the install should have been refused').toBeDefined();
  expect(error!.message).toMatch(message);
  expect(error!.code).toBe('forbidden');
  // The only trace allowed: the (empty) staging folder and the home that holds it.
  const allowed = new Set([path.join(root, 'home'), path.join(root, 'home/staging')]);
  expect(walk(root).filter((p) => !allowed.has(p))).toEqual(before.filter((p) => !allowed.has(p)));
  expect(fs.existsSync(path.join(os.tmpdir(), escapeName))).toBe(false);
  expect(fs.existsSync(path.join(root, 'home/skills'))).toBe(false);
  return error!.message;
}

describe('hostile archives', () => {
  it('refuses path traversal (zip slip)', async () => {
    const evil = `../../../../../../../../../../../../../../..${os.tmpdir()}/${escapeName}`;
    const msg = await refusedArchive(
      'slip.zip',
      [
        { name: 'SKILL.md', data: good },
        { name: 'x'.repeat(evil.length), rawName: evil, data: 'pwned' },
      ],
      /climbs out of the target/,
    );
    expect(msg).toContain(escapeName);
  });

  it('refuses an absolute path and a drive letter', async () => {
    const abs = `${os.tmpdir()}/${escapeName}`;
    await refusedArchive(
      'abs.zip',
      [
        { name: 'SKILL.md', data: good },
        { name: 'a'.repeat(abs.length), rawName: abs, data: 'pwned' },
      ],
      /is an absolute path/,
    );
    await refusedArchive(
      'drive.zip',
      [
        { name: 'SKILL.md', data: good },
        { name: 'abcdefghijk', rawName: 'C:/evil.txt', data: 'x' },
      ],
      /entry "C:\/evil.txt" is an absolute path/,
    );
    await refusedArchive(
      'nul.zip',
      [
        { name: 'SKILL.md', data: good },
        { name: 'abcdefghijklmn', rawName: 'ok.txt\0../../x', data: 'x' },
      ],
      /contains a NUL byte/,
    );
  });

  it('refuses a backslash trick', async () => {
    await refusedArchive(
      'backslash.zip',
      [
        { name: 'SKILL.md', data: good },
        { name: 'aa/aa/evil.txt', rawName: '..\\..\\evil.txt', data: 'x' },
      ],
      /contains a backslash/,
    );
  });

  it('refuses a symlink entry (escape via a link)', async () => {
    await refusedArchive(
      'link.zip',
      [
        { name: 'SKILL.md', data: good },
        { name: 'passwd', data: '../../../../../../etc/passwd', mode: 0o120777 },
      ],
      /"passwd" is a symbolic link/,
    );
  });

  it('refuses device and FIFO entries', async () => {
    await refusedArchive(
      'fifo.zip',
      [
        { name: 'SKILL.md', data: good },
        { name: 'pipe', data: '', mode: 0o010644 },
      ],
      /"pipe" is a device, FIFO or socket/,
    );
    await refusedArchive(
      'dev.zip',
      [
        { name: 'SKILL.md', data: good },
        { name: 'sda', data: '', mode: 0o060644 },
      ],
      /"sda" is a device/,
    );
  });

  it('refuses a zip bomb over the per-file cap, over the total cap, and with lying headers', async () => {
    const big = Buffer.alloc(11 * MiB);
    await refusedArchive(
      'bomb-file.zip',
      [
        { name: 'SKILL.md', data: good },
        { name: 'zeros.bin', data: big },
      ],
      /"zeros.bin" is larger than the 10 MiB per-file limit/,
    );
    const nine = Buffer.alloc(9 * MiB);
    const parts = Array.from({ length: 6 }, (_, i) => ({ name: `part${i}.bin`, data: nine }));
    await refusedArchive(
      'bomb-total.zip',
      [{ name: 'SKILL.md', data: good }, ...parts],
      /larger than the 50 MiB total limit/,
    );
    // The header claims 1 KiB: yauzl ends the stream at the declared size (archive.ts, plan()).
    const msg = await refusedArchive(
      'bomb-liar.zip',
      [
        { name: 'SKILL.md', data: good },
        { name: 'zeros.bin', data: Buffer.alloc(20 * MiB) },
      ],
      /Install refused/,
      (f) => lieAboutSize(f, 'zeros.bin', 1024),
    );
    expect(msg).toMatch(/"zeros\.bin".*too many bytes/);
  });

  it('refuses more files than the cap', async () => {
    const many = Array.from({ length: 2001 }, (_, i) => ({ name: `f/${i}.txt`, data: 'x' }));
    await refusedArchive('many.zip', [{ name: 'SKILL.md', data: good }, ...many], /more than 2000 files/);
  });

  it('refuses something that is not a zip', async () => {
    const file = path.join(root, 'src', 'fake.zip');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'not a zip at all');
    await expectRefused({ kind: 'archive', path: file }, /not a readable zip archive/);
  });
});

describe('hostile folders', () => {
  it('refuses a symlink that points outside the skill', async () => {
    const src = path.join(root, 'src', 'linky');
    writeTree(src, { 'SKILL.md': good });
    fs.symlinkSync('/etc/passwd', path.join(src, 'passwd'));
    await expectRefused(
      { kind: 'folder', path: src },
      /"passwd" is a symbolic link to "\/etc\/passwd", outside the skill/,
    );
    fs.rmSync(path.join(src, 'passwd'));
    fs.symlinkSync('../../home', path.join(src, 'up'));
    await expectRefused({ kind: 'folder', path: src }, /"up" is a symbolic link to "..\/..\/home"/);
  });

  it('keeps a symlink that stays inside the skill', async () => {
    const src = path.join(root, 'src', 'inner-link');
    writeTree(src, { 'SKILL.md': skillMd('inner-link', 'Links inside.'), 'references/a.md': 'a\n' });
    fs.symlinkSync('references/a.md', path.join(src, 'a.md'));
    const preview = await engine.install.preview({ kind: 'folder', path: src });
    await engine.install.cancel(preview.previewId);
    expect(preview.candidates[0].files.map((f) => f.path)).toContain('a.md');
  });

  it('refuses a FIFO (device file) in a folder', async () => {
    const src = path.join(root, 'src', 'fifo');
    writeTree(src, { 'SKILL.md': good });
    execFileSync('mkfifo', [path.join(src, 'pipe')]);
    await expectRefused({ kind: 'folder', path: src }, /"pipe" is a device, FIFO or socket/);
  });

  it('refuses an oversized file in a folder', async () => {
    const src = path.join(root, 'src', 'fat');
    writeTree(src, { 'SKILL.md': good });
    fs.writeFileSync(path.join(src, 'fat.bin'), Buffer.alloc(10 * MiB + 1));
    await expectRefused({ kind: 'folder', path: src }, /"fat.bin" is larger than the 10 MiB per-file limit/);
  });
});
