import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../testing/fixtures';
import { listRunFiles, makeRunDirs, removeTree } from './workdir';

// What a run left is listed after every script, on the engine's thread: a script that leaves
// more folders than anyone reads must not hold that thread (found probing the CLI with 100,000
// empty folders in ./out: 3.5 s per listing, two listings per run).
const roots: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

function run() {
  const root = tempDir('skilldeck-workdir-');
  roots.push(root);
  return makeRunDirs(root, 'r1');
}

describe('listRunFiles', () => {
  it('reads a bounded number of folder entries, however many empty folders a script left', () => {
    const dirs = run();
    for (let i = 0; i < 1_500; i++) fs.mkdirSync(path.join(dirs.out, `d${String(i).padStart(6, '0')}`));
    fs.writeFileSync(path.join(dirs.work, 'z.txt'), 'z');
    const reads = vi.spyOn(fs, 'readdirSync');
    // A bound of 1,000: work and out are read, none of the 1,500 folders in out; z.txt still listed.
    expect(listRunFiles(dirs, 200, 1_000).map((f) => f.path)).toEqual(['z.txt']);
    expect(reads.mock.calls.length).toBe(2);
  });

  it('still lists up to 200 files of one folder that holds more than the bound', () => {
    const dirs = run();
    for (let i = 0; i < 1_010; i++)
      fs.writeFileSync(path.join(dirs.out, `f${String(i).padStart(6, '0')}`), '');
    const files = listRunFiles(dirs, 200, 1_000);
    expect(files).toHaveLength(200);
    expect(files[0].path).toBe('out/f000000');
  });

  it('lists names that are no UTF-8, and files in folders so named, with U+FFFD for the bytes', () => {
    const dirs = run();
    // Made by bytes, as unzip leaves a name from another system: \xff is no UTF-8.
    const bytes = (rel: string) => Buffer.concat([Buffer.from(`${dirs.out}/`), Buffer.from(rel, 'latin1')]);
    fs.writeFileSync(bytes('bad\xff.txt'), 'abc');
    fs.mkdirSync(bytes('dir\xfe'));
    fs.writeFileSync(bytes('dir\xfe/inner.txt'), 'de');
    expect(listRunFiles(dirs).map((f) => [f.path, f.size])).toEqual([
      ['out/bad\ufffd.txt', 3],
      ['out/dir\ufffd/inner.txt', 2],
    ]);
  });

  it('lists files in name order, skips links, FIFOs and TMPDIR', () => {
    const dirs = run();
    fs.writeFileSync(path.join(dirs.out, 'b.txt'), 'b');
    fs.writeFileSync(path.join(dirs.out, 'B.txt'), 'B');
    fs.writeFileSync(path.join(dirs.tmp, 'scratch'), 's');
    fs.symlinkSync('/etc/passwd', path.join(dirs.out, 'link.txt'));
    fs.symlinkSync('/', path.join(dirs.out, 'root'));
    spawnFifo(path.join(dirs.out, 'pipe'));
    expect(listRunFiles(dirs).map((f) => [f.path, f.size])).toEqual([
      ['out/B.txt', 1],
      ['out/b.txt', 1],
    ]);
  });
});

describe('removeTree', () => {
  it('removes a tree deeper than PATH_MAX that a script left, locked at its bottom, and no link target', () => {
    const dirs = run();
    const outside = path.join(path.dirname(dirs.root), 'outside.txt');
    fs.writeFileSync(outside, 'keep');
    // Made one folder below the other by relative paths, as a script can (2,100 × 'dd/' > 4,096).
    const made = spawnSync(
      process.execPath,
      [
        '-e',
        `const fs = require('fs'); process.chdir(${JSON.stringify(dirs.out)});
         for (let i = 0; i < 2100; i++) { fs.mkdirSync('dd'); process.chdir('dd'); }
         fs.writeFileSync('f', 'x'); fs.symlinkSync(${JSON.stringify(outside)}, 'link'); fs.chmodSync('.', 0o500);`,
      ],
      { encoding: 'utf8' },
    );
    expect(made.stderr).toBe('');
    expect(removeTree(dirs.root)).toBe(true);
    expect(fs.existsSync(dirs.root)).toBe(false);
    expect(fs.readFileSync(outside, 'utf8')).toBe('keep');
  });
});

/** mkfifo(1): Node has no mkfifo of its own. */
function spawnFifo(file: string): void {
  expect(spawnSync('mkfifo', [file]).status).toBe(0);
}
