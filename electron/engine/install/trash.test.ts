import fs from 'node:fs';
import path from 'node:path';
import type { Engine } from '..';
import { afterEach, describe, expect, it } from 'vitest';
import { skillMd, writeTree, isolatedEngines } from '../../testing/fixtures';

const engines = isolatedEngines();
afterEach(() => engines.cleanup());
const setup = () => engines.open();

/** Every file under `dir` with its bytes, for byte-for-byte comparisons. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(d, e.name), r);
      else out[r] = fs.readFileSync(path.join(d, e.name)).toString('base64');
    }
  };
  walk(dir, '');
  return out;
}

async function installFolder(
  engine: Engine,
  src: string,
  onConflict: 'replace' | 'rename' | 'cancel' = 'cancel',
  newName?: string,
) {
  const preview = await engine.install.preview({ kind: 'folder', path: src });
  const name = preview.candidates[0].name;
  return { preview, result: await engine.install.commit(preview.previewId, [{ name, onConflict, newName }]) };
}

describe('replace, remove and restore', () => {
  it('replace keeps the old version in the trash, and restoring it swaps back byte for byte', async () => {
    const { root, home, engine, managed } = await setup();
    const v1 = path.join(root, 'v1/notes');
    const v2 = path.join(root, 'v2/notes');
    writeTree(v1, { 'SKILL.md': skillMd('notes', 'Notes v1.'), 'scripts/a.py': 'print(1)\n' });
    writeTree(v2, { 'SKILL.md': skillMd('notes', 'Notes v2.') });
    await installFolder(engine, v1);
    const id = path.join(managed, 'notes');
    const before = snapshot(id);
    const hashBefore = (await engine.skills.get(id)).contentHash;

    const { preview, result: skipped } = await installFolder(engine, v2);
    expect(preview.candidates[0].conflict).toEqual({ existingId: id });
    expect(skipped.installed).toEqual([]);
    expect(skipped.skipped[0].reason).toMatch(/already exists/);
    expect(snapshot(id)).toEqual(before);

    const { result } = await installFolder(engine, v2, 'replace');
    const backup = result.installed[0].replacedBackup!;
    expect(snapshot(backup.path)).toEqual(before);
    expect((await engine.skills.get(id)).description).toBe('Notes v2.');
    expect(engine.install.trashList().map((i) => i.reason)).toEqual(['replaced']);

    await engine.install.restore(backup.trashId);
    expect(snapshot(id)).toEqual(before);
    expect((await engine.skills.get(id)).contentHash).toBe(hashBefore);
    // The version it displaced is in the trash now: nothing is lost either way.
    const items = engine.install.trashList();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ name: 'notes', reason: 'replaced' });
    expect(fs.readdirSync(path.join(home, 'trash'))).toEqual([items[0].trashId]);
  });

  it('rename installs beside the existing skill under the new name', async () => {
    const { root, engine, managed } = await setup();
    const src = path.join(root, 'src/notes');
    writeTree(src, { 'SKILL.md': skillMd('notes', 'Notes.') });
    await installFolder(engine, src);
    const { result } = await installFolder(engine, src, 'rename', 'notes-copy');
    expect(result.installed[0].name).toBe('notes-copy');
    expect(fs.readFileSync(path.join(managed, 'notes-copy/SKILL.md'), 'utf8')).toMatch(/^name: notes-copy$/m);
    const copy = engine.listSkills().skills.find((s) => s.name === 'notes-copy')!;
    expect(copy.problems).toEqual([]);
    const { result: auto } = await installFolder(engine, src, 'rename');
    expect(auto.installed[0].name).toBe('notes-2');
  });

  it('remove + restore brings the skill back byte for byte; trash.empty deletes for good', async () => {
    const { root, home, engine, managed } = await setup();
    const src = path.join(root, 'src/keep');
    writeTree(src, {
      'SKILL.md': skillMd('keep', 'Keep me.'),
      'references/r.md': 'ref\n',
      'scripts/x.sh': '#!/bin/sh\n',
    });
    fs.chmodSync(path.join(src, 'scripts/x.sh'), 0o755);
    await installFolder(engine, src);
    const id = path.join(managed, 'keep');
    const before = snapshot(id);
    const hash = (await engine.skills.get(id)).contentHash;

    const item = await engine.install.remove(id);
    expect(item).toMatchObject({ name: 'keep', originalPath: id, reason: 'removed' });
    expect(fs.existsSync(id)).toBe(false);
    expect(engine.listSkills().skills.some((s) => s.name === 'keep')).toBe(false);

    const restored = await engine.install.restore(item.trashId);
    expect(restored).toEqual({ id, name: 'keep' });
    expect(snapshot(id)).toEqual(before);
    expect((await engine.skills.get(id)).contentHash).toBe(hash);
    expect(fs.statSync(path.join(id, 'scripts/x.sh')).mode & 0o111).not.toBe(0);
    expect(engine.install.trashList()).toEqual([]);
    // list() hides a folder without skill/, so look at the disk: restore leaves nothing behind.
    expect(fs.readdirSync(path.join(home, 'trash'))).toEqual([]);

    const again = await engine.install.remove(id);
    expect(engine.install.emptyTrash()).toBe(1);
    await expect(engine.install.restore(again.trashId)).rejects.toThrow(/No trash item/);
  });

  it('refuses to remove a skill SkillDeck does not manage, saying where it lives', async () => {
    const { workspace, engine } = await setup();
    writeTree(path.join(workspace, 'skills/local'), { 'SKILL.md': skillMd('local', 'A workspace skill.') });
    await engine.reloadSkills();
    const id = path.join(workspace, 'skills/local');
    await expect(engine.install.remove(id)).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining(id),
    });
    expect(fs.existsSync(path.join(id, 'SKILL.md'))).toBe(true);
  });
});

describe('switches and diagnosis', () => {
  it('persists enable / auto-select switches and lists every reason in diagnose', async () => {
    const { home, workspace, engine } = await setup();
    writeTree(path.join(workspace, 'skills'), {
      'needy/SKILL.md': `---\nname: needy\ndescription: Needs things.\ndisable-model-invocation: true\nmetadata:\n  openclaw:\n    requires:\n      bins: [definitely-not-a-binary-xyz]\n      env: [SKILLDECK_TEST_UNSET_VAR]\n---\nbody\n`,
      'broken/SKILL.md': '---\nname: broken\n---\nno description\n',
    });
    await engine.reloadSkills();
    const id = path.join(workspace, 'skills/needy');
    expect(engine.install.setSwitches('needy', { enabled: false })).toEqual({
      name: 'needy',
      enabled: false,
      autoSelect: true,
    });
    expect(engine.install.setSwitches('needy', { autoSelect: false })).toEqual({
      name: 'needy',
      enabled: false,
      autoSelect: false,
    });
    const stored = JSON.parse(fs.readFileSync(path.join(home, 'settings.json'), 'utf8'));
    expect(stored.skills).toMatchObject({ disabled: ['needy'], neverAutoSelect: ['needy'] });
    expect(engine.listSkills().skills.find((s) => s.name === 'needy')).toMatchObject({
      enabled: false,
      autoSelect: false,
    });

    const d = engine.install.diagnose(id);
    expect(d.reasons.map((r) => r.code).sort()).toEqual(
      ['disabled', 'implicit-off', 'missing-bin', 'missing-env', 'never-auto-select'].sort(),
    );
    expect(d.reasons.find((r) => r.code === 'missing-bin')?.detail).toEqual(['definitely-not-a-binary-xyz']);
    expect(d).toMatchObject({ autoSelectable: false, invocable: false });

    engine.install.setSwitches('needy', { enabled: true, autoSelect: true });
    expect(engine.install.diagnose(id).reasons.map((r) => r.code)).not.toContain('disabled');
    const broken = engine.install.diagnose(path.join(workspace, 'skills/broken'));
    expect(broken.reasons[0]).toMatchObject({ code: 'parse-error', blocks: 'all' });
  });

  it('switches one skill without touching the others, and only the switch asked for', async () => {
    const { home, workspace, engine } = await setup();
    writeTree(path.join(workspace, 'skills'), {
      'a/SKILL.md': skillMd('a', 'Skill a.'),
      'b/SKILL.md': skillMd('b', 'Skill b.'),
    });
    await engine.reloadSkills();
    expect(engine.install.setSwitches('a', { autoSelect: false })).toEqual({
      name: 'a',
      enabled: true,
      autoSelect: false,
    });
    engine.install.setSwitches('a', { enabled: false });
    engine.install.setSwitches('b', { enabled: false });
    engine.install.setSwitches('a', { enabled: true });
    const stored = JSON.parse(fs.readFileSync(path.join(home, 'settings.json'), 'utf8'));
    expect(stored.skills).toMatchObject({ disabled: ['b'], neverAutoSelect: ['a'] });
  });

  it('answers not_found for an id that is not listed, showing at most 200 characters of it', async () => {
    const { engine } = await setup();
    const id = `/nowhere/${'x'.repeat(300)}`;
    const message = `No skill with id "${id.slice(0, 200)}"; list the skills to get valid ids.`;
    expect(() => engine.install.diagnose(id)).toThrow(message);
    await expect(engine.install.remove(id)).rejects.toMatchObject({ code: 'not_found', message });
  });
});

describe('the install facade', () => {
  it('announces preview progress, and shows the installed version of a skill it would replace', async () => {
    const { root, engine, managed } = await setup();
    const src = path.join(root, 'src', 'notes');
    writeTree(src, { 'SKILL.md': skillMd('notes', 'Notes.').replace('---\n', '---\nversion: 1.2.0\n') });
    const phases: string[] = [];
    engine.events.subscribe((name, payload) => {
      if (name === 'install.progress') phases.push((payload as { phase: string }).phase);
    });
    await installFolder(engine, src);
    expect(phases).toEqual(['copying', 'scanning', 'done']);
    const again = await engine.install.preview({ kind: 'folder', path: src });
    expect(again.candidates[0].conflict).toEqual({
      existingId: path.join(managed, 'notes'),
      existingVersion: '1.2.0',
    });
    await engine.install.cancel(again.previewId);
  });
});
