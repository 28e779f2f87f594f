import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../../shared/contract';
import { resolveScriptCall } from './entrypoints';

const file = (p: string) => ({ path: p, kind: 'file', size: 1 }) as FileEntry;
const FILES = [
  file('SKILL.md'),
  file('scripts/convert.py'),
  file('tool.sh'),
  { path: 'scripts', kind: 'dir', size: 0 } as FileEntry,
];

describe('resolveScriptCall: the script a model means, written as models write it', () => {
  it('takes a path relative to the skill as it is', () => {
    expect(resolveScriptCall(FILES, 'scripts/convert.py', ['a'])).toEqual({
      path: 'scripts/convert.py',
      args: ['a'],
    });
    expect(resolveScriptCall(FILES, './tool.sh', [])).toEqual({ path: 'tool.sh', args: [] });
    expect(resolveScriptCall(FILES, 'scripts\\convert.py', [])).toEqual({
      path: 'scripts/convert.py',
      args: [],
    });
  });

  it('finds a bare file name under scripts/', () => {
    expect(resolveScriptCall(FILES, 'convert.py', ['x'])).toEqual({
      path: 'scripts/convert.py',
      args: ['x'],
    });
  });

  it('reads a command line: the interpreter dropped, the words after the file before args', () => {
    expect(resolveScriptCall(FILES, 'python3 scripts/convert.py --pages 2', ['in.pdf'])).toEqual({
      path: 'scripts/convert.py',
      args: ['--pages', '2', 'in.pdf'],
    });
    expect(resolveScriptCall(FILES, '/usr/bin/bash tool.sh go', [])).toEqual({
      path: 'tool.sh',
      args: ['go'],
    });
    expect(resolveScriptCall(FILES, 'convert.py  -v', [])).toEqual({
      path: 'scripts/convert.py',
      args: ['-v'],
    });
  });

  it('leaves what names no file of the skill as written, for the runner to refuse with the file list', () => {
    expect(resolveScriptCall(FILES, 'scripts/missing.py', [])).toEqual({
      path: 'scripts/missing.py',
      args: [],
    });
    expect(resolveScriptCall(FILES, 'rm -rf /', [])).toEqual({ path: 'rm -rf /', args: [] });
    expect(resolveScriptCall(FILES, 'scripts', [])).toEqual({ path: 'scripts', args: [] });
    expect(resolveScriptCall(FILES, 'python3', ['x'])).toEqual({ path: 'python3', args: ['x'] });
  });

  it('takes the skill’s own folder named first (found driving chat against an outside server)', () => {
    expect(resolveScriptCall(FILES, 'pdf-tools/scripts/convert.py', ['a'], 'pdf-tools')).toEqual({
      path: 'scripts/convert.py',
      args: ['a'],
    });
    expect(resolveScriptCall(FILES, 'python3 ./pdf-tools/tool.sh go', [], 'pdf-tools')).toEqual({
      path: 'tool.sh',
      args: ['go'],
    });
    // Another skill's folder is not this one's, even where a file of the same name exists here.
    expect(resolveScriptCall(FILES, 'other/scripts/convert.py', [], 'pdf-tools')).toEqual({
      path: 'other/scripts/convert.py',
      args: [],
    });
  });
});
