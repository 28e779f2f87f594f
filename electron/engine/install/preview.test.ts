import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { skillMd, tempDir, writeTree } from '../../testing/fixtures';
import { describeStaged } from './preview';

// describeStaged on a real staged tree: what the install preview shows for each skill in it.
const root = tempDir('skilldeck-preview-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const skillsRoot = path.join(root, 'managed');
writeTree(skillsRoot, { 'alpha/SKILL.md': skillMd('alpha', 'Installed alpha.'), 'beta/SKILL.md': 'x' });
const versions: Record<string, string> = { [path.join(skillsRoot, 'alpha')]: '2.0.0' };
const managed = { skillsRoot, versionOf: (dir: string) => versions[dir] };
let count = 0;

function tree(files: Record<string, string>): string {
  const dir = path.join(root, `tree${++count}`);
  writeTree(dir, files);
  return dir;
}

describe('describeStaged', () => {
  it('names each skill by its frontmatter, and a nameless one by the source or its folder', async () => {
    const nameless = '---\ndescription: No name here.\n---\nbody\n';
    const staged = tree({
      'SKILL.md': nameless,
      'skills/alpha/SKILL.md': skillMd('alpha', 'Alpha.'),
      'skills/Other Folder/SKILL.md': skillMd('gamma', 'Gamma, in a folder of another name.'),
      'skills/delta-dir/SKILL.md': nameless,
      // Named after a folder that is no skill name: the root gets its source's name as one, and so
      // does this (it was skipped at install as '"vendor___Echo Notes" is not a valid skill name').
      'skills/vendor___Echo Notes/SKILL.md': '# Echo notes\n\nNo frontmatter at all.\n',
    });
    const candidates = await describeStaged(staged, managed, 'from-source');
    expect(candidates.map((c) => [c.sourcePath, c.name]).sort()).toEqual([
      ['', 'from-source'],
      ['skills/Other Folder', 'gamma'],
      ['skills/alpha', 'alpha'],
      ['skills/delta-dir', 'delta-dir'],
      ['skills/vendor___Echo Notes', 'vendor-echo-notes'],
    ]);
    expect((await describeStaged(tree({ 'SKILL.md': nameless }), managed))[0].name).toBe('skill');
    // Nameless with other problems too: still named after the source.
    const bare = await describeStaged(
      tree({ 'SKILL.md': '---\nlicense: MIT\n---\nbody\n' }),
      managed,
      'bare',
    );
    expect(bare[0].name).toBe('bare');
  });

  it('shows a skill whose SKILL.md is a link to nothing, with that error, named by the source', async () => {
    const staged = tree({ 'docs/readme.md': 'Docs.\n' });
    fs.symlinkSync('docs/SKILL.md', path.join(staged, 'SKILL.md'));
    const [c] = await describeStaged(staged, managed, 'from-source');
    expect(c.name).toBe('from-source');
    expect(c.problems).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'file-unreadable',
        message: expect.stringMatching(/^SKILL\.md is a link to docs\/SKILL\.md, which does not exist;/),
      }),
    ]);
  });

  it("reports the skill's own problems, but not a folder named differently (it is installed under its name)", async () => {
    const staged = tree({ 'my-folder/SKILL.md': '---\nname: gamma\n---\nNo description.\n' });
    const [c] = await describeStaged(staged, managed);
    expect(c.name).toBe('gamma');
    expect(c.problems.map((p) => p.code)).toEqual(['description-missing']);
  });

  it('lists files with sizes, the total, scripts and the capability summary', async () => {
    const staged = tree({
      'SKILL.md': skillMd('tool', 'A tool.'),
      'scripts/run.py': 'print(1)\n',
      'notes.txt': '12345',
    });
    const [c] = await describeStaged(staged, managed);
    expect(c.files.map((f) => [f.path, f.size]).sort()).toEqual([
      ['SKILL.md', fs.statSync(path.join(staged, 'SKILL.md')).size],
      ['notes.txt', 5],
      ['scripts/run.py', 9],
    ]);
    expect(c.totalBytes).toBe(c.files.reduce((sum, f) => sum + f.size, 0));
    expect(c.totalBytes).toBeGreaterThan(14);
    expect(c.scripts).toEqual([{ path: 'scripts/run.py', language: 'python' }]);
    expect(c.capabilities).toContain('runs python scripts');
    expect(c.targetPath).toBe(path.join(skillsRoot, 'tool'));
    expect(c.conflict).toBeNull();
    expect('version' in c).toBe(false);
  });

  it('names a conflict with a managed skill, with its version when it has one', async () => {
    const staged = tree({
      'a/SKILL.md': skillMd('alpha', 'New alpha.').replace('---\n', '---\nversion: 3.0.0\n'),
      'b/SKILL.md': skillMd('beta', 'New beta.'),
    });
    const byName = Object.fromEntries((await describeStaged(staged, managed)).map((c) => [c.name, c]));
    expect(byName.alpha.conflict).toEqual({
      existingId: path.join(skillsRoot, 'alpha'),
      existingVersion: '2.0.0',
    });
    expect(byName.alpha.version).toBe('3.0.0');
    expect(byName.beta.conflict).toEqual({ existingId: path.join(skillsRoot, 'beta') });
    expect('existingVersion' in byName.beta.conflict!).toBe(false);
  });
});
