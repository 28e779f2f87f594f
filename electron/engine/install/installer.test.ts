import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Events } from '../../../shared/contract';
import { skillMd, tempDir, writeTree } from '../../testing/fixtures';
import { Installer, recoverInstalls } from './installer';

// The Installer on its own, on real folders under a throwaway home (install.test.ts and
// trash.test.ts drive it through the engine): staging, commit, names, and start-up repair.
const root = tempDir('skilldeck-installer-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let count = 0;

function setup() {
  const base = path.join(root, `case${++count}`);
  const home = path.join(base, 'home');
  const events: Events['install.progress'][] = [];
  const versions = new Map<string, string>();
  const installer = new Installer({
    home,
    versionOf: (dir) => versions.get(dir),
    progress: (payload) => events.push(payload),
  });
  const source = (name: string, files: Record<string, string>) => {
    const dir = path.join(base, 'src', name);
    writeTree(dir, files);
    return dir;
  };
  const staging = () => (fs.existsSync(installer.stagingRoot) ? fs.readdirSync(installer.stagingRoot) : []);
  const managed = (name: string) => path.join(installer.skillsRoot, name);
  return { base, home, installer, events, versions, source, staging, managed };
}

/** Previews a folder and commits its one candidate. */
async function install(
  installer: Installer,
  src: string,
  sel: { onConflict?: 'replace' | 'rename' | 'cancel'; newName?: string } = {},
) {
  const preview = await installer.preview({ kind: 'folder', path: src });
  const name = preview.candidates[0].name;
  return installer.commit(preview.previewId, [
    { name, onConflict: sel.onConflict ?? 'cancel', newName: sel.newName },
  ]);
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e as Error & { code?: string },
  );

describe('Installer.preview and cancel', () => {
  it('stages under its id, owned by this process, and reports each phase', async () => {
    const { installer, events, source } = setup();
    const src = source('notes', { 'SKILL.md': skillMd('notes', 'Notes.'), 'b.txt': 'b', 'a.txt': 'a' });
    const preview = await installer.preview({ kind: 'folder', path: src }, 'p1');
    expect(preview).toMatchObject({ previewId: 'p1', fileCount: 3, candidates: [{ name: 'notes' }] });
    expect(preview.totalBytes).toBe(fs.statSync(path.join(src, 'SKILL.md')).size + 2);
    const owner = JSON.parse(fs.readFileSync(path.join(installer.stagingRoot, 'p1', 'owner.json'), 'utf8'));
    expect(owner).toEqual({ pid: process.pid });
    expect(events).toEqual([
      { previewId: 'p1', phase: 'copying', done: 1, total: 0, message: 'SKILL.md' },
      { previewId: 'p1', phase: 'copying', done: 2, total: 0, message: 'a.txt' },
      { previewId: 'p1', phase: 'copying', done: 3, total: 0, message: 'b.txt' },
      { previewId: 'p1', phase: 'scanning', done: 0, total: 0, message: 'Reading the skills' },
      { previewId: 'p1', phase: 'done', done: 1, total: 1, message: '1 skill(s) found' },
    ]);
    const again = await rejection(installer.preview({ kind: 'folder', path: src }, 'p1'));
    expect(again).toMatchObject({ code: 'invalid_params', message: 'Preview p1 already exists.' });
  });

  it('refuses a source without a skill, and leaves no staging behind', async () => {
    const { installer, source, staging } = setup();
    const src = source('empty', { 'README.md': 'no skill here\n' });
    const error = await rejection(installer.preview({ kind: 'folder', path: src }, 'p2'));
    expect(error).toMatchObject({
      code: 'invalid_params',
      message: 'No skill found: the source holds no SKILL.md.',
    });
    expect(staging()).toEqual([]);
  });

  it('cancel drops one preview and its staging, cancelAll every one', async () => {
    const { installer, source, staging } = setup();
    const src = source('notes', { 'SKILL.md': skillMd('notes', 'Notes.') });
    await installer.preview({ kind: 'folder', path: src }, 'a');
    await installer.preview({ kind: 'folder', path: src }, 'b');
    await installer.preview({ kind: 'folder', path: src }, 'c');
    expect(await installer.cancel('a')).toBe(true);
    expect(await installer.cancel('a')).toBe(false);
    expect(await installer.cancel('never')).toBe(false);
    expect(staging().sort()).toEqual(['b', 'c']);
    await installer.cancelAll();
    expect(staging()).toEqual([]);
    await expect(installer.commit('b', [])).rejects.toMatchObject({
      code: 'not_found',
      message: 'No preview "b"; it was committed, cancelled or never made.',
    });
  });

  it('names a nameless root skill after its source, as a skill name', async () => {
    const { installer, source } = setup();
    const nameless = '---\ndescription: No name.\n---\nbody\n';
    for (const [folder, expected] of [
      ['My  Tool', 'my-tool'],
      ['--tool--', 'tool'],
      ['tools.zipper', 'tools-zipper'],
      ['Pack.GIT', 'pack'],
      ['___', 'skill'],
    ]) {
      const preview = await installer.preview({
        kind: 'folder',
        path: `${source(folder, { 'SKILL.md': nameless })}/`,
      });
      expect(preview.candidates[0].name, folder).toBe(expected);
      await installer.cancel(preview.previewId);
    }
    // A SKILL.md with no frontmatter at all has no name either: named after its source, not "tree".
    const bare = await installer.preview({
      kind: 'folder',
      path: source('bare-notes', { 'SKILL.md': '# Notes\n\nJust Markdown.\n' }),
    });
    expect(bare.candidates[0].name).toBe('bare-notes');
    await installer.cancel(bare.previewId);
  });
});

describe('Installer.commit', () => {
  it('installs the chosen candidates, skips unknown names, and always drops the staging', async () => {
    const { installer, source, staging, managed } = setup();
    const src = source('notes', { 'SKILL.md': skillMd('notes', 'Notes.') });
    const preview = await installer.preview({ kind: 'folder', path: src });
    const result = await installer.commit(preview.previewId, [
      { name: 'nope', onConflict: 'cancel' },
      { name: 'notes', onConflict: 'cancel' },
    ]);
    expect(result).toEqual({
      installed: [{ id: managed('notes'), name: 'notes', path: managed('notes') }],
      skipped: [{ name: 'nope', reason: 'No candidate of that name in this preview.' }],
    });
    expect(staging()).toEqual([]);
  });

  it('renames on conflict to the first free -2, -3 …', async () => {
    const { installer, source } = setup();
    const src = source('notes', { 'SKILL.md': skillMd('notes', 'Notes.') });
    const names = [];
    for (let i = 0; i < 3; i++)
      names.push((await install(installer, src, { onConflict: 'rename' })).installed[0].name);
    expect(names).toEqual(['notes', 'notes-2', 'notes-3']);
  });

  it('refuses a new name that is not a skill name', async () => {
    const { installer, source } = setup();
    const src = source('notes', { 'SKILL.md': skillMd('notes', 'Notes.') });
    expect(await install(installer, src, { newName: 'Not Valid' })).toEqual({
      installed: [],
      skipped: [
        {
          name: 'notes',
          reason:
            '"Not Valid" is not a valid skill name; install it under a new name (lowercase, digits, hyphens), such as "not-valid".',
        },
      ],
    });
  });

  it('skips a skill that lived inside another one already installed', async () => {
    const { installer, source } = setup();
    const src = source('outer', {
      'SKILL.md': skillMd('outer', 'Outer.'),
      'inner/SKILL.md': skillMd('inner', 'Inner, inside outer.'),
    });
    const preview = await installer.preview({ kind: 'folder', path: src });
    expect(preview.candidates.map((c) => c.name).sort()).toEqual(['inner', 'outer']);
    const result = await installer.commit(preview.previewId, [
      { name: 'outer', onConflict: 'cancel' },
      { name: 'inner', onConflict: 'cancel' },
    ]);
    expect(result.installed.map((i) => i.name)).toEqual(['outer']);
    expect(result.skipped).toEqual([
      { name: 'inner', reason: 'It was inside another selected skill, installed with it.' },
    ]);
  });

  it('leaves SKILL.md byte for byte under its own name, and renames only the frontmatter otherwise', async () => {
    const { installer, source, managed } = setup();
    const quoted = "---\nname: 'notes'\r\ndescription: Notes.\n---\nname: in the body\n";
    await install(installer, source('notes', { 'SKILL.md': quoted }));
    expect(fs.readFileSync(managed('notes/SKILL.md'), 'utf8')).toBe(quoted);

    await install(installer, source('again', { 'SKILL.md': quoted }), { newName: 'copy' });
    expect(fs.readFileSync(managed('copy/SKILL.md'), 'utf8')).toBe(
      '---\nname: copy\r\ndescription: Notes.\n---\nname: in the body\n',
    );

    const nameless = '\uFEFF---\ndescription: No name.\n---\nname: in the body\n';
    await install(installer, source('nameless', { 'SKILL.md': nameless }), { newName: 'named' });
    expect(fs.readFileSync(managed('named/SKILL.md'), 'utf8')).toBe(
      '\uFEFF---\nname: named\ndescription: No name.\n---\nname: in the body\n',
    );
  });

  it('finds the frontmatter block only at the top, closed by a line of just ---', async () => {
    const { installer, source, managed } = setup();
    const renamed = async (folder: string, text: string) => {
      await install(installer, source(folder, { 'SKILL.md': text }), { newName: `${folder}-new` });
      return fs.readFileSync(managed(`${folder}-new/SKILL.md`), 'utf8');
    };
    // Not at the top: left as it is.
    expect(await renamed('late', '# Title\n\n---\nname: late\n---\n')).toBe(
      '# Title\n\n---\nname: late\n---\n',
    );
    // A value ending in ---, or a longer rule, does not close it.
    expect(await renamed('dashes', '---\ndescription: ends---\n----\nname: dashes\n---\nbody\n')).toBe(
      '---\ndescription: ends---\n----\nname: dashes-new\n---\nbody\n',
    );
    // A closing line with trailing spaces does; a `name:` below it is body.
    expect(await renamed('spaced', '---\ndescription: d\n---  \nname: prose\n')).toBe(
      '---\nname: spaced-new\ndescription: d\n---  \nname: prose\n',
    );
    expect(await renamed('empty', '---\n---\nname: prose\n')).toBe(
      '---\nname: empty-new\n---\nname: prose\n',
    );
    // Unclosed: the whole rest is frontmatter, to its last character.
    expect(await renamed('open', '---\nname: open')).toBe('---\nname: open-new');
    // Another key that ends in "name" is not the name.
    expect(await renamed('display', '---\ndisplay_name: Display\n---\n')).toBe(
      '---\nname: display-new\ndisplay_name: Display\n---\n',
    );
  });

  describe('replacing', () => {
    afterEach(() => {
      delete process.env.SKILLDECK_TEST_INSTALL_DELAY_MS;
    });

    it('journals the old version in the trash until the new one is in place', async () => {
      const { installer, source, managed, versions } = setup();
      await install(installer, source('v1', { 'SKILL.md': skillMd('notes', 'Notes v1.') }));
      versions.set(managed('notes'), '1.0.0');
      const preview = await installer.preview({
        kind: 'folder',
        path: source('v2', { 'SKILL.md': skillMd('notes', 'Notes v2.') }),
      });
      expect(preview.candidates[0].conflict).toEqual({
        existingId: managed('notes'),
        existingVersion: '1.0.0',
      });

      process.env.SKILLDECK_TEST_INSTALL_DELAY_MS = '60';
      const committing = installer.commit(preview.previewId, [{ name: 'notes', onConflict: 'replace' }]);
      const manifest = () => {
        const ids = fs.existsSync(installer.trash.dir) ? fs.readdirSync(installer.trash.dir) : [];
        const file = ids.length ? path.join(installer.trash.dir, ids[0], 'manifest.json') : '';
        return file && fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
      };
      while (!manifest()) await new Promise((r) => setTimeout(r, 5));
      expect(manifest()).toMatchObject({
        name: 'notes',
        version: '1.0.0',
        reason: 'replaced',
        pending: true,
      });
      expect(fs.existsSync(managed('notes'))).toBe(false);

      const result = await committing;
      expect('pending' in manifest()).toBe(false);
      const backup = result.installed[0].replacedBackup!;
      expect(backup.path).toBe(path.join(installer.trash.dir, backup.trashId, 'skill'));
      expect(fs.readFileSync(path.join(backup.path, 'SKILL.md'), 'utf8')).toContain('Notes v1.');
      expect(fs.readFileSync(managed('notes/SKILL.md'), 'utf8')).toContain('Notes v2.');
    });
  });
});

describe('Installer.remove', () => {
  it('moves a managed skill to the trash, and refuses anything else, naming where it lives', async () => {
    const { installer, source, managed, base } = setup();
    await install(installer, source('notes', { 'SKILL.md': skillMd('notes', 'Notes.') }));
    await install(installer, source('other', { 'SKILL.md': skillMd('other', 'Other.') }));
    const refusal = (id: string, kind: string) => {
      expect(() => installer.remove(id, 'x', kind)).toThrow(
        `x is not a managed skill: it lives in ${path.resolve(id)} (${kind}).`,
      );
    };
    refusal(managed('notes'), 'user');
    refusal(path.join(base, 'src', 'notes'), 'managed');
    refusal(managed('notes/nested'), 'managed');
    expect(fs.existsSync(managed('notes'))).toBe(true);
    expect(installer.remove(managed('notes'), 'notes', 'managed')).toMatchObject({
      name: 'notes',
      reason: 'removed',
    });
    expect(fs.existsSync(managed('notes'))).toBe(false);
  });
});

describe('recoverInstalls', () => {
  it('drops staging whose owner is gone, keeps a live one, and puts back a replace cut short', async () => {
    const { home, installer, source, managed, staging } = setup();
    await install(installer, source('notes', { 'SKILL.md': skillMd('notes', 'Notes.') }));
    const exited = spawnSync(process.execPath, ['-e', '']).pid;
    const owned = (id: string, owner: string | null) => {
      writeTree(path.join(installer.stagingRoot, id), {
        'tree/x': 'x',
        ...(owner === null ? {} : { 'owner.json': owner }),
      });
    };
    owned('live', JSON.stringify({ pid: process.pid }));
    owned('dead', JSON.stringify({ pid: exited }));
    owned('no-owner', null);
    owned('garbled', '{');
    owned('zero', JSON.stringify({ pid: 0 }));
    owned('negative', JSON.stringify({ pid: -1 }));
    owned('fraction', JSON.stringify({ pid: 1.5 }));
    // A kill between the two renames of a replace: the old version is journaled in the trash.
    installer.trash.put(managed('notes'), 'notes', undefined, 'replaced', true);

    recoverInstalls(home);
    expect(staging()).toEqual(['live']);
    expect(fs.readFileSync(managed('notes/SKILL.md'), 'utf8')).toContain('Notes.');
    expect(fs.readdirSync(installer.trash.dir)).toEqual([]);
  });

  it('does nothing on a fresh home', () => {
    const { home } = setup();
    expect(() => recoverInstalls(home)).not.toThrow();
    expect(fs.existsSync(home)).toBe(false);
  });
});
