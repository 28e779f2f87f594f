import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFileTree } from './files';
import { grantHash, uncoveredFingerprint } from './fingerprint';
import { tempDir, writeTree } from '../../testing/fixtures';

describe('uncoveredFingerprint', () => {
  it('is null for a skill the content hash covers whole, and stable while nothing changes', async () => {
    const dir = path.join(tempDir(), 'plain');
    writeTree(dir, { 'SKILL.md': 'x\n', 'scripts/run.sh': 'echo\n' });
    expect(await uncoveredFingerprint(dir)).toBeNull();
    writeTree(dir, { 'node_modules/a/index.js': '1\n' });
    const first = await uncoveredFingerprint(dir);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(await uncoveredFingerprint(dir)).toBe(first);
    // Files the content hash reads do not move it.
    fs.appendFileSync(path.join(dir, 'SKILL.md'), 'more\n');
    expect(await uncoveredFingerprint(dir)).toBe(first);
  });

  it('moves with any change under node_modules or .git, a link retargeted or a mode too', async () => {
    const dir = path.join(tempDir(), 'deps');
    writeTree(dir, { 'SKILL.md': 'x\n', 'node_modules/a/index.js': '1\n', 'lib/.git/hooks/x': 'h\n' });
    const seen = new Set([await uncoveredFingerprint(dir)]);
    const change = async (what: string, edit: () => void) => {
      edit();
      const next = await uncoveredFingerprint(dir);
      expect(seen.has(next), what).toBe(false);
      seen.add(next);
    };
    const file = path.join(dir, 'node_modules/a/index.js');
    await change('same size, old times put back', () => {
      const st = fs.statSync(file);
      fs.writeFileSync(file, '2\n');
      fs.utimesSync(file, st.atime, st.mtime);
    });
    await change('chmod', () => fs.chmodSync(file, 0o755));
    await change('a new file', () => writeTree(dir, { 'node_modules/b.js': '' }));
    await change('a nested .git', () => writeTree(dir, { 'lib/.git/hooks/x': 'H\n' }));
    await change('a link', () => fs.symlinkSync('/etc/hostname', path.join(dir, 'node_modules/l')));
    await change('retargeted', () => {
      fs.unlinkSync(path.join(dir, 'node_modules/l'));
      fs.symlinkSync('/etc/hosts', path.join(dir, 'node_modules/l'));
    });
  });

  it('covers the whole folder when its listing was cut short', async () => {
    const dir = path.join(tempDir(), 'big');
    writeTree(dir, { 'SKILL.md': 'x\n', 'a.txt': 'a\n', 'z.txt': 'z\n' });
    const tree = await readFileTree(dir, { maxEntries: 2, maxRead: 1024, sniffBytes: 10 });
    expect(tree.truncated).toBe(true);
    const skill = { path: dir, contentHash: tree.contentHash, filesTruncated: true };
    const before = await grantHash(skill);
    // z.txt is past the listing's cap, so the content hash never read it.
    fs.writeFileSync(path.join(dir, 'z.txt'), 'Z\n');
    expect((await readFileTree(dir, { maxEntries: 2, maxRead: 1024, sniffBytes: 10 })).contentHash).toBe(
      tree.contentHash,
    );
    expect(await grantHash(skill)).not.toBe(before);
    expect(await grantHash({ ...skill, filesTruncated: false })).toBe(tree.contentHash);
  });
});

describe('grantHash: code a link reaches outside the skill', () => {
  // Found probing the CLI: scripts/lib linked to a folder outside the skill, "always allow",
  // then lib/helper.sh edited there; the run sourced the edited helper with no question asked.
  const skillWithLink = (target: string) => {
    const dir = path.join(tempDir(), 'linked');
    writeTree(dir, { 'SKILL.md': 'x\n', 'scripts/run.sh': 'source "$SKILL_PATH/scripts/lib/helper.sh"\n' });
    fs.symlinkSync(target, path.join(dir, 'scripts/lib'));
    return dir;
  };
  const hashOf = async (dir: string) => {
    const tree = await readFileTree(dir, { maxEntries: 100, maxRead: 1024, sniffBytes: 10 });
    return grantHash({ path: dir, contentHash: tree.contentHash, filesTruncated: false });
  };

  it('moves when a file in a linked folder outside changes, even to the same size and times', async () => {
    const outside = tempDir();
    writeTree(outside, { 'helper.sh': 'echo v1\n', 'deep/more.sh': 'echo a\n' });
    const dir = skillWithLink(outside);
    const before = await hashOf(dir);
    expect(await hashOf(dir)).toBe(before);
    const helper = path.join(outside, 'helper.sh');
    const st = fs.statSync(helper);
    fs.writeFileSync(helper, 'echo v2\n');
    fs.utimesSync(helper, st.atime, st.mtime);
    const after = await hashOf(dir);
    expect(after).not.toBe(before);
    fs.writeFileSync(path.join(outside, 'deep/more.sh'), 'echo b\n');
    expect(await hashOf(dir)).not.toBe(after);
  });

  it('moves when a linked file outside changes', async () => {
    const outside = tempDir();
    writeTree(outside, { 'helper.sh': 'echo v1\n' });
    const dir = skillWithLink(path.join(outside, 'helper.sh'));
    const before = await hashOf(dir);
    fs.writeFileSync(path.join(outside, 'helper.sh'), 'echo v2 longer\n');
    expect(await hashOf(dir)).not.toBe(before);
  });

  it('never matches twice when the linked tree is too big to watch (a link to /): the grant asks again', async () => {
    const dir = skillWithLink('/');
    expect(await hashOf(dir)).not.toBe(await hashOf(dir));
  }, 30_000);
});
