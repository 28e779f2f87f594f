import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { skillMd, tempDir, writeTree } from '../../testing/fixtures';
import { parseUnifiedDiff } from './diffs';
import { resolvePatch } from './guards';
import { readSnapshot } from './snapshot';

// Paths a model writes from the folder above the skill, on a real skill folder.
const root = tempDir('skilldeck-guard-paths-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const dir = path.join(root, 'skills', 'notes-folder');
writeTree(dir, {
  'SKILL.md': skillMd('notes', 'Takes notes.'),
  'references/r.md': 'r1\n',
});
const edit = (file: string) => {
  const side = (p: string) => (file.startsWith('/') ? file : `${p}/${file}`);
  const parsed = parseUnifiedDiff(`--- ${side('a')}\n+++ ${side('b')}\n@@ -1 +1 @@\n-r1\n+R1\n`);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.files;
};

describe('resolvePatch on paths from above the skill', () => {
  it('strips the folders up to the skill’s folder name or its name when the rest is one of its files', async () => {
    const skill = await readSnapshot(dir);
    for (const file of ['notes-folder/references/r.md', 'skills/notes/references/r.md'])
      expect(resolvePatch(skill, edit(file)), file).toEqual({
        ok: true,
        changes: [{ path: 'references/r.md', before: 'r1\n', after: 'R1\n' }],
      });
  });

  it('leaves another folder, "..", an absolute path or a file the skill lacks to the rules', async () => {
    const skill = await readSnapshot(dir);
    const reason = async (file: string) => {
      const result = resolvePatch(skill, edit(file));
      return result.ok ? 'applied' : result.reason;
    };
    expect(await reason('other/references/r.md')).toMatch(/it touches other\/references\/r\.md/);
    expect(await reason('../notes-folder/references/r.md')).toMatch(/leaves the skill folder/);
    expect(await reason(`${dir}/references/r.md`)).toMatch(/is an absolute path/);
    expect(await reason('notes/references/none.md')).toMatch(/it touches notes\/references\/none\.md/);
  });
});
