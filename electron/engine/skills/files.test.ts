import fsp from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SkillDetail, SkillFile } from '../../../shared/contract';
import { EngineError } from '../errors';
import type { SkillCatalog } from './catalog';
import { readFileTree, readSkillFile, scriptLanguage } from './files';
import { catalogOf, rawSkillMd, tempDir, writeTree } from '../../testing/fixtures';

let base: string;
let root: string;
let id: string;
let catalog: SkillCatalog;

beforeEach(async () => {
  base = tempDir();
  root = path.join(base, 'skills');
  id = path.join(root, 'tool');
  writeTree(root, {
    'tool/SKILL.md': rawSkillMd(
      'name: tool\ndescription: A tool with files.',
      '# Tool\n\nRun `scripts/run.py`.\n',
    ),
    'tool/scripts/run.py': '#!/usr/bin/env python3\nprint("hi")\n',
    'tool/scripts/build': '#!/bin/bash\necho build\n',
    'tool/scripts/helper.ts': 'export const x = 1;\n',
    'tool/references/guide.md': '# Guide\n',
    'tool/assets/logo.bin': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]),
    'tool/.git/HEAD': 'ref: refs/heads/main\n',
    'tool/node_modules/dep/index.js': 'module.exports = 1;\n',
    'other/SKILL.md': rawSkillMd('name: other\ndescription: Another skill.'),
  });
  await fsp.chmod(path.join(id, 'scripts/build'), 0o755);
  writeTree(base, { 'secret.txt': 'outside the skill\n' });
  await fsp.symlink(path.join(base, 'secret.txt'), path.join(id, 'references/escape.txt'));
  await fsp.symlink(path.join(id, 'references/guide.md'), path.join(id, 'references/inside.md'));
  catalog = await catalogOf([root]);
});

afterEach(async () => {
  await fsp.rm(base, { recursive: true, force: true });
});

async function rejection(p: Promise<unknown>): Promise<EngineError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(EngineError);
  return e as EngineError;
}

describe('readFile', () => {
  it('reads a text file of a known skill', async () => {
    const file = await catalog.readFile(id, 'references/guide.md');
    expect(file).toEqual({
      path: 'references/guide.md',
      size: 8,
      binary: false,
      truncated: false,
      content: '# Guide\n',
    });
    expect(SkillFile.safeParse(file).success).toBe(true);
    expect((await catalog.readFile(id, './references//guide.md')).path).toBe('references/guide.md');
  });

  it('follows a symlink that stays inside the skill folder', async () => {
    expect((await catalog.readFile(id, 'references/inside.md')).content).toBe('# Guide\n');
  });

  it('refuses `..`, absolute paths and symlinks leaving the folder', async () => {
    for (const bad of [
      '../other/SKILL.md',
      'references/../../other/SKILL.md',
      '..\\other\\SKILL.md',
      path.join(base, 'secret.txt'),
      '/etc/passwd',
      'C:\\Windows\\win.ini',
    ]) {
      expect((await rejection(catalog.readFile(id, bad))).code, bad).toBe('forbidden');
    }
    const escaped = await rejection(catalog.readFile(id, 'references/escape.txt'));
    expect(escaped.code).toBe('forbidden');
    expect(escaped.message).toMatch(/outside the skill folder/);
  });

  it('answers not_found for unknown ids and missing files', async () => {
    for (const unknown of [path.join(base, 'secret.txt'), base, '/', '', 'tool']) {
      expect((await rejection(catalog.readFile(unknown, 'SKILL.md'))).code).toBe('not_found');
      expect((await rejection(catalog.get(unknown))).code).toBe('not_found');
      expect((await rejection(catalog.validate(unknown))).code).toBe('not_found');
    }
    expect((await rejection(catalog.readFile(id, 'nope.md'))).code).toBe('not_found');
  });

  it('marks binary files and returns no content for them', async () => {
    expect(await catalog.readFile(id, 'assets/logo.bin')).toEqual({
      path: 'assets/logo.bin',
      size: 7,
      binary: true,
      truncated: false,
      content: '',
    });
  });

  it('caps text at the read limit without cutting a character in half', async () => {
    writeTree(id, { 'big.txt': `${'a'.repeat(9)}é${'b'.repeat(10)}` });
    const file = await readSkillFile(id, 'big.txt', { maxEntries: 10, maxRead: 10, sniffBytes: 10 });
    expect(file).toEqual({ path: 'big.txt', size: 21, binary: false, truncated: true, content: 'aaaaaaaaa' });
    writeTree(id, { 'huge.txt': 'x'.repeat(1024 * 1024 + 10) });
    const huge = await catalog.readFile(id, 'huge.txt');
    expect(huge).toMatchObject({ truncated: true, size: 1024 * 1024 + 10 });
    expect(huge.content.length).toBe(1024 * 1024);
  });

  it('refuses a folder', async () => {
    expect((await rejection(catalog.readFile(id, 'scripts'))).code).toBe('invalid_params');
  });
});

describe('get', () => {
  it('loads the body, the file tree, the hash and the strict report on demand', async () => {
    const detail = await catalog.get(id);
    expect(SkillDetail.safeParse(detail).success).toBe(true);
    expect(detail).toMatchObject({
      id,
      name: 'tool',
      body: '# Tool\n\nRun `scripts/run.py`.\n',
      filesTruncated: false,
      sidecars: [],
    });
    expect(detail.rawFrontmatter).toBe('name: tool\ndescription: A tool with files.');
    expect(detail.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(detail.validation).toEqual({ valid: true, errors: [] });
    expect(detail.metadata.type).toBe('script');
    const files = Object.fromEntries(detail.files.map((f) => [f.path, f]));
    expect(Object.keys(files)).toEqual([
      'SKILL.md',
      'assets',
      'assets/logo.bin',
      'references',
      'references/escape.txt',
      'references/guide.md',
      'references/inside.md',
      'scripts',
      'scripts/build',
      'scripts/helper.ts',
      'scripts/run.py',
    ]);
    expect(files['scripts/run.py']).toMatchObject({
      kind: 'file',
      scriptLanguage: 'python',
      executable: false,
    });
    expect(files['scripts/build']).toMatchObject({ scriptLanguage: 'bash', executable: true });
    expect(files['scripts/helper.ts'].scriptLanguage).toBe('typescript');
    expect(files['references/guide.md'].size).toBe(8);
    expect(files['references/guide.md'].scriptLanguage).toBeUndefined();
    expect(files.scripts.kind).toBe('dir');
  });

  it('caps the file tree and says so', async () => {
    const tree = await readFileTree(id, { maxEntries: 3, maxRead: 1024, sniffBytes: 10 });
    expect(tree.truncated).toBe(true);
    expect(tree.files).toHaveLength(3);
  });

  it('changes the content hash when any file changes, and only then', async () => {
    const hash = async () => (await readFileTree(id)).contentHash;
    const first = await hash();
    expect(await hash()).toBe(first);
    const seen = new Set([first]);
    const change = async (what: string, edit: () => Promise<void>) => {
      await edit();
      const next = await hash();
      expect(seen.has(next), what).toBe(false);
      seen.add(next);
    };
    await change('edit a script', () => fsp.appendFile(path.join(id, 'scripts/run.py'), '# more\n'));
    await change('edit the body', () => fsp.appendFile(path.join(id, 'SKILL.md'), '\nMore.\n'));
    await change('add a file', async () => writeTree(id, { 'references/new.md': 'new\n' }));
    await change('rename a file', () =>
      fsp.rename(path.join(id, 'references/new.md'), path.join(id, 'references/renamed.md')),
    );
    await change('retarget a link', async () => {
      await fsp.unlink(path.join(id, 'references/inside.md'));
      await fsp.symlink(path.join(id, 'SKILL.md'), path.join(id, 'references/inside.md'));
    });
    const before = await hash();
    writeTree(id, { '.git/ORIG_HEAD': 'x', 'node_modules/dep/more.js': 'y' });
    expect(await hash()).toBe(before);
  });
});

describe('reload', () => {
  it('reports added, removed and changed skills', async () => {
    writeTree(root, { 'fresh/SKILL.md': rawSkillMd('name: fresh\ndescription: New.') });
    await fsp.rm(path.join(root, 'other'), { recursive: true });
    await fsp.appendFile(path.join(id, 'SKILL.md'), '\nEdited body.\n');
    const { list, diff } = await catalog.reload();
    expect(diff).toEqual({
      added: [path.join(root, 'fresh')],
      removed: [path.join(root, 'other')],
      changed: [id],
    });
    expect(list.skills.map((s) => s.name).sort()).toEqual(['fresh', 'tool']);
    expect((await catalog.get(path.join(root, 'fresh'))).name).toBe('fresh');
  });
});

describe('scriptLanguage', () => {
  it('reads the shebang first and the extension second', () => {
    const head = (s: string) => Buffer.from(s);
    expect(scriptLanguage('x', head('#!/usr/bin/env node\n'))).toBe('node');
    expect(scriptLanguage('x.sh', head('#!/bin/sh\n'))).toBe('sh');
    expect(scriptLanguage('x.sh', head('#!/usr/bin/env bash\n'))).toBe('bash');
    expect(scriptLanguage('x.sh', head('echo\n'))).toBe('sh');
    expect(scriptLanguage('x', head('#!/usr/bin/env -S python3 -u\n'))).toBe('python');
    expect(scriptLanguage('x.rb', head(''))).toBe('ruby');
    expect(scriptLanguage('x.pl', head(''))).toBe('perl');
    expect(scriptLanguage('x.mjs', head(''))).toBe('node');
    expect(scriptLanguage('README.md', head('# hi'))).toBeUndefined();
  });
});
