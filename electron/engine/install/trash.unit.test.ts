import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import { Trash } from './trash';

// The Trash class on its own, on real folders (the undo promise: nothing removed is lost).
// trash.test.ts drives remove / replace / restore through the engine.
const root = tempDir('skilldeck-trash-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let count = 0;

function setup() {
  const base = path.join(root, `case${++count}`);
  const trash = new Trash(path.join(base, 'trash'));
  const skill = (name: string) => {
    const dir = path.join(base, 'skills', name);
    writeTree(dir, { 'SKILL.md': `${name}\n` });
    return dir;
  };
  return { base, trash, skill };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const manifest = (trash: Trash, id: string) =>
  JSON.parse(fs.readFileSync(path.join(trash.dir, id, 'manifest.json'), 'utf8')) as Record<string, unknown>;

describe('Trash', () => {
  it('moves a skill in with its manifest, lists newest first, and reads an item back', async () => {
    const { trash, skill } = setup();
    const a = trash.put(skill('a'), 'a', '1.0.0', 'removed');
    await sleep(5);
    const b = trash.put(skill('b'), 'b', undefined, 'replaced');
    expect(a).toMatchObject({ name: 'a', version: '1.0.0', reason: 'removed' });
    expect('version' in b).toBe(false);
    expect(manifest(trash, a.trashId)).toEqual({ ...a, pending: false });
    expect(trash.list().map((i) => i.name)).toEqual(['b', 'a']);
    expect(trash.list()[1]).toEqual(a);
    const read = trash.read(a.trashId);
    expect(read).toEqual({ ...a, skillDir: path.join(trash.dir, a.trashId, 'skill') });
    expect(fs.readFileSync(path.join(read.skillDir, 'SKILL.md'), 'utf8')).toBe('a\n');
  });

  it('hides pending and broken items from the list, and lists nothing before the first put', () => {
    const { trash, skill } = setup();
    expect(trash.list()).toEqual([]);
    const pending = trash.put(skill('p'), 'p', undefined, 'replaced', true);
    expect(trash.list()).toEqual([]);
    trash.settle(pending);
    expect(trash.list()).toEqual([pending]);
    fs.mkdirSync(path.join(trash.dir, 'junk'));
    fs.writeFileSync(path.join(trash.dir, 'junk', 'manifest.json'), '{not json');
    expect(trash.list()).toEqual([pending]);
  });

  it('refuses ids that are not one plain folder name, even where a valid item lies', () => {
    const { base, trash, skill } = setup();
    const item = trash.put(skill('x'), 'x', undefined, 'removed');
    // Real items where a sloppy id check would find them: hidden, and outside the trash.
    fs.cpSync(path.join(trash.dir, item.trashId), path.join(trash.dir, '.hidden'), { recursive: true });
    fs.cpSync(path.join(trash.dir, item.trashId), path.join(base, 'evil'), { recursive: true });
    for (const id of ['.hidden', 'x/../../evil', '../evil'])
      expect(() => trash.read(id), id).toThrow(expect.objectContaining({ code: 'not_found' }));
    for (const id of ['../x', '.hidden', '..', 'a/b', '', 'x'.repeat(129), `${item.trashId}/..`])
      expect(() => trash.read(id), id).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => trash.read('no-such-item')).toThrow(/No trash item "no-such-item"; list the trash/);
    expect(trash.read(item.trashId).name).toBe('x');
  });

  it('takes an item out to a free place and drops its folder; refuses a place that exists', () => {
    const { base, trash, skill } = setup();
    const item = trash.put(skill('t'), 't', undefined, 'removed');
    const taken = path.join(base, 'skills', 't');
    skill('t');
    expect(() => trash.takeOut(item.trashId, taken)).toThrow(expect.objectContaining({ code: 'forbidden' }));
    expect(trash.list()).toHaveLength(1);
    const target = path.join(base, 'elsewhere', 'deep', 't');
    trash.takeOut(item.trashId, target);
    expect(fs.readFileSync(path.join(target, 'SKILL.md'), 'utf8')).toBe('t\n');
    expect(fs.readdirSync(trash.dir)).toEqual([]);
  });

  it('empties one item or all of them and says how many went', () => {
    const { trash, skill } = setup();
    const one = trash.put(skill('one'), 'one', undefined, 'removed');
    trash.put(skill('two'), 'two', undefined, 'removed');
    trash.put(skill('three'), 'three', undefined, 'removed');
    expect(trash.empty(one.trashId)).toBe(1);
    expect(
      trash
        .list()
        .map((i) => i.name)
        .sort(),
    ).toEqual(['three', 'two']);
    expect(trash.empty()).toBe(2);
    expect(fs.readdirSync(trash.dir)).toEqual([]);
    expect(trash.empty()).toBe(0);
  });

  it('recovers replaces cut short: puts a skill back, settles one whose new version landed, drops an empty one', () => {
    const { trash, skill } = setup();
    expect(() => trash.recover()).not.toThrow();
    // Cut before the new version landed: the original place is empty, the skill goes back.
    const backDir = skill('back');
    const back = trash.put(backDir, 'back', undefined, 'replaced', true);
    // Cut after the new version landed: the item becomes a normal, listed backup.
    const keptDir = skill('kept');
    const kept = trash.put(keptDir, 'kept', undefined, 'replaced', true);
    skill('kept');
    // Cut before the skill moved in: only the manifest exists.
    const emptyDir = skill('empty');
    const empty = trash.put(emptyDir, 'empty', undefined, 'replaced', true);
    fs.renameSync(path.join(trash.dir, empty.trashId, 'skill'), emptyDir);
    // A settled item is left alone.
    const done = trash.put(skill('done'), 'done', undefined, 'removed');

    trash.recover();
    expect(fs.readFileSync(path.join(backDir, 'SKILL.md'), 'utf8')).toBe('back\n');
    expect(fs.existsSync(path.join(trash.dir, back.trashId))).toBe(false);
    expect(fs.existsSync(path.join(trash.dir, empty.trashId))).toBe(false);
    expect(fs.existsSync(path.join(emptyDir, 'SKILL.md'))).toBe(true);
    expect(manifest(trash, kept.trashId)).toEqual(kept);
    expect(
      trash
        .list()
        .map((i) => i.name)
        .sort(),
    ).toEqual(['done', 'kept']);
    expect(trash.read(done.trashId).name).toBe('done');
  });

  it('names items by when they went in, and lists the newest removal first', () => {
    const { trash, skill } = setup();
    const items = ['a', 'b', 'c'].map((n) => trash.put(skill(n), n, undefined, 'removed'));
    for (const item of items)
      expect(item.trashId).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[0-9a-f]{6}$/);
    // Removal times out of the folders' order: the list follows removedAt, not the folder.
    const at = {
      a: '2026-01-02T00:00:00.000Z',
      b: '2026-01-03T00:00:00.000Z',
      c: '2026-01-01T00:00:00.000Z',
    };
    for (const item of items) trash.settle({ ...item, removedAt: at[item.name as keyof typeof at] });
    expect(trash.list().map((i) => i.name)).toEqual(['b', 'a', 'c']);
  });

  it('says which id it could not find, and which place is taken', () => {
    const { base, trash, skill } = setup();
    expect(() => trash.read('../x')).toThrow('No trash item "../x".');
    const item = trash.put(skill('t'), 't', undefined, 'removed');
    const taken = skill('t');
    expect(() => trash.takeOut(item.trashId, taken)).toThrow(
      `${path.join(base, 'skills', 't')} already exists.`,
    );
  });

  it('leaves out an item whose skill folder is gone', () => {
    const { trash, skill } = setup();
    const kept = trash.put(skill('kept'), 'kept', undefined, 'removed');
    const gone = trash.put(skill('gone'), 'gone', undefined, 'removed');
    fs.rmSync(path.join(trash.dir, gone.trashId, 'skill'), { recursive: true });
    expect(trash.list()).toEqual([kept]);
  });
});
