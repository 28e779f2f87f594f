import { describe, expect, it } from 'vitest';
import { applyFilePatch, parseUnifiedDiff } from './diffs';
import { otherPatchForm } from './patchForms';
import { parseModelAnswer } from './prompt';

const SOURCE = 'import os\n\ndef main():\n    print("a")\n    print("b")\n\nmain()\n';

/** The file patches of an answer, read the way the repair reads them. */
function files(answer: string) {
  const parsed = parseModelAnswer(answer);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.files;
}

describe('Codex apply_patch envelopes', () => {
  it('reads Update, Add and Delete File sections and a Move to as a unified diff', () => {
    const answer = [
      '*** Begin Patch',
      '*** Update File: scripts/run.py',
      '@@ def main():',
      '     print("a")',
      '-    print("b")',
      '+    print("B")',
      '*** Add File: references/new.md',
      '+# New',
      '+text',
      '*** Delete File: references/old.md',
      '*** Update File: references/a.md',
      '*** Move to: references/b.md',
      '@@',
      ' x',
      '*** End Patch',
      'Anything after the end is prose.',
    ].join('\n');
    expect(otherPatchForm(answer)?.diff).toBe(
      [
        '--- a/scripts/run.py',
        '+++ b/scripts/run.py',
        '@@',
        '     print("a")',
        '-    print("b")',
        '+    print("B")',
        '--- /dev/null',
        '+++ b/references/new.md',
        '@@ -0,0 +1,2 @@',
        '+# New',
        '+text',
        '--- a/references/old.md',
        '+++ /dev/null',
        '--- a/references/a.md',
        '+++ b/references/b.md',
        '@@',
        ' x',
        '',
      ].join('\n'),
    );
    expect(files(answer).map((f) => [f.path, f.isCreate, f.isDelete, f.isRename])).toEqual([
      ['scripts/run.py', false, false, false],
      ['references/new.md', true, false, false],
      ['references/old.md', false, true, false],
      ['references/b.md', false, false, true],
    ]);
  });

  it('places a hunk by its lines, fenced or not, CRLF or not, with a bare line read as context', () => {
    const answer =
      '```\r\n*** Begin Patch\r\n*** Update File: scripts/run.py\r\ndef main():\r\n     print("a")\r\n-    print("b")\r\n+    print("B")\r\n*** End of File\r\n*** End Patch\r\n```\r\n';
    const [file] = files(answer);
    expect(applyFilePatch(SOURCE, file.hunks)).toBe(SOURCE.replace('"b"', '"B"'));
  });

  it('reads an envelope indented as a whole at the indentation of its Begin line', () => {
    const answer = [
      '1. Apply this:',
      '',
      '   *** Begin Patch',
      '   *** Update File: scripts/run.py',
      '   @@',
      '        print("a")',
      '   -    print("b")',
      '   +    print("B")',
      '',
      '   *** End Patch',
    ].join('\n');
    const [file] = files(answer);
    expect(file.path).toBe('scripts/run.py');
    expect(applyFilePatch(SOURCE, file.hunks)).toBe(SOURCE.replace('"b"', '"B"'));
  });
});

describe('Aider SEARCH/REPLACE blocks', () => {
  const block = (search: string[], replace: string[]) => [
    '<<<<<<< SEARCH',
    ...search,
    '=======',
    ...replace,
    '>>>>>>> REPLACE',
  ];

  it('takes the path from the line above, however it is dressed, or from the first line in the fence', () => {
    for (const pathLine of [
      'scripts/run.py',
      '`scripts/run.py`',
      '**scripts/run.py**',
      'File: scripts/run.py',
      '### scripts/run.py',
    ]) {
      const answer = [pathLine, '```python', ...block(['    print("b")'], ['    print("B")']), '```'].join(
        '\n',
      );
      const [file] = files(answer);
      expect(file.path, pathLine).toBe('scripts/run.py');
      expect(applyFilePatch(SOURCE, file.hunks)).toBe(SOURCE.replace('"b"', '"B"'));
    }
    const inside = ['```python', 'scripts/run.py', ...block(['    print("b")'], ['    print("B")']), '```'];
    expect(files(inside.join('\n'))[0].path).toBe('scripts/run.py');
  });

  it('gives a block without a path line the path before it, and creates a file from an empty SEARCH', () => {
    const answer = [
      'scripts/run.py',
      '```python',
      ...block(['    print("a")'], ['    print("A")']),
      '```',
      '```python',
      ...block(['    print("b")'], ['    print("B")']),
      '```',
      'references/new.md',
      '```',
      ...block([], ['# New']),
      '```',
    ].join('\n');
    const [first, second, created] = files(answer);
    expect([first.path, second.path, created.path, created.isCreate]).toEqual([
      'scripts/run.py',
      'scripts/run.py',
      'references/new.md',
      true,
    ]);
    expect(applyFilePatch(applyFilePatch(SOURCE, first.hunks) ?? '', second.hunks)).toBe(
      SOURCE.replace('"a"', '"A"').replace('"b"', '"B"'),
    );
    expect(applyFilePatch('', created.hunks)).toBe('# New\n');
  });

  it('reads nothing from a block with no path or no end, and leaves unified diffs alone', () => {
    expect(otherPatchForm(block(['a'], ['b']).join('\n'))).toBeNull();
    expect(otherPatchForm('scripts/run.py\n<<<<<<< SEARCH\na\n=======\nb\n')).toBeNull();
    expect(otherPatchForm('```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n```')).toBeNull();
  });
});

describe('the record of an answer in another form', () => {
  it('takes the prose before the patch as the cause, not the patch', () => {
    const answer =
      'The second print is wrong.\n*** Begin Patch\n*** Update File: scripts/run.py\n@@\n-x\n+y\n*** End Patch';
    expect(parseModelAnswer(answer)).toMatchObject({ ok: true, root_cause: 'The second print is wrong.' });
    expect(parseUnifiedDiff(otherPatchForm(answer)?.diff ?? '')).toMatchObject({ ok: true });
  });

  it('starts a SEARCH/REPLACE patch at its path line, though the prose names that path first', () => {
    const answer = [
      'The bug is in scripts/run.py, where the second print is wrong.',
      'scripts/run.py',
      '```python',
      '<<<<<<< SEARCH',
      '    print("b")',
      '=======',
      '    print("B")',
      '>>>>>>> REPLACE',
      '```',
      'references/new.md',
      '<<<<<<< SEARCH',
      '=======',
      '# New',
      '>>>>>>> REPLACE',
    ].join('\n');
    expect(otherPatchForm(answer)?.start).toBe(answer.indexOf('\nscripts/run.py\n') + 1);
    expect(parseModelAnswer(answer)).toMatchObject({
      root_cause: 'The bug is in scripts/run.py, where the second print is wrong.',
    });
  });

  it('counts the offset of the patch in the answer as sent, CRLF and all', () => {
    const prose = ['The second print is wrong.', 'It prints b.', 'B is meant.', 'So it says B now.'];
    const envelope = '*** Begin Patch\r\n*** Update File: scripts/run.py\r\n@@\r\n-x\r\n+y\r\n*** End Patch';
    const begin = `${prose.join('\r\n')}\r\n${envelope}`;
    expect(otherPatchForm(begin)?.start).toBe(begin.indexOf('*** Begin'));
    expect(parseModelAnswer(begin)).toMatchObject({ root_cause: prose.join(' ') });
    const search = `${prose.join('\r\n')}\r\nscripts/run.py\r\n<<<<<<< SEARCH\r\nx\r\n=======\r\ny\r\n>>>>>>> REPLACE\r\n`;
    expect(otherPatchForm(search)?.start).toBe(search.indexOf('scripts/run.py'));
  });
});
