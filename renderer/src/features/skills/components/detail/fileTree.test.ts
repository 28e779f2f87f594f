import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../../../../../shared/contract';
import { buildTree, defaultFile } from './fileTree';

const file = (path: string): FileEntry => ({ path, kind: 'file', size: 1, executable: false });
const dir = (path: string): FileEntry => ({ path, kind: 'dir', size: 0, executable: false });

describe('buildTree', () => {
  it('nests files under folders, SKILL.md first, folders before files', () => {
    const tree = buildTree([
      file('README.md'),
      dir('scripts'),
      file('scripts/run.py'),
      file('SKILL.md'),
      file('a/b/c.txt'),
    ]);
    expect(tree.map((n) => n.name)).toEqual(['SKILL.md', 'a', 'scripts', 'README.md']);
    expect(tree[1].children[0].children[0].path).toBe('a/b/c.txt');
    expect(tree[2].children.map((n) => n.path)).toEqual(['scripts/run.py']);
  });

  it('opens SKILL.md first, else the first file', () => {
    expect(defaultFile([file('x.md'), file('SKILL.md')])).toBe('SKILL.md');
    expect(defaultFile([dir('d'), file('d/x.md')])).toBe('d/x.md');
    expect(defaultFile([])).toBeUndefined();
  });
});
