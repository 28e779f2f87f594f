import { describe, expect, it } from 'vitest';
import { otherPatchForm } from './patchForms';

// The exact diff each form's rules give (patchForms.test.ts applies them to a file).
const diffOf = (answer: string[]) => otherPatchForm(answer.join('\n'))?.diff;

describe('the lines of a Codex envelope', () => {
  it('skips End of File markers and a closing fence, and reads a bare or blank line as context', () => {
    expect(
      diffOf([
        '*** Begin Patch',
        '*** Update File: scripts/run.py \t ',
        'def main():',
        '',
        '-    x',
        '+    y',
        '*** End of File',
        '```',
      ]),
    ).toBe(
      [
        '--- a/scripts/run.py',
        '+++ b/scripts/run.py',
        '@@',
        ' def main():',
        ' ',
        '-    x',
        '+    y',
        '',
      ].join('\n'),
    );
  });

  it('closes an Add File that ends the envelope, with or without its + marks', () => {
    expect(diffOf(['*** Begin Patch', '*** Add File: notes.md', '+# Notes', 'plain', '*** End Patch'])).toBe(
      ['--- /dev/null', '+++ b/notes.md', '@@ -0,0 +1,2 @@', '+# Notes', '+plain', ''].join('\n'),
    );
  });

  it('ignores the lines under a Delete File, and a Move to once a hunk has begun', () => {
    expect(
      diffOf([
        '*** Begin Patch',
        '*** Delete File: old.md',
        '-gone',
        '*** Update File: a.md',
        '@@',
        '-x',
        '*** Move to: b.md',
        '*** End Patch',
      ]),
    ).toBe(
      [
        '--- a/old.md',
        '+++ /dev/null',
        '--- a/a.md',
        '+++ b/a.md',
        '@@',
        '-x',
        ' *** Move to: b.md',
        '',
      ].join('\n'),
    );
  });

  it('takes a Move to under a Delete File for no rename, and a Move to with trailing blanks', () => {
    expect(diffOf(['*** Begin Patch', '*** Delete File: a.md', '*** Move to: b.md', '*** End Patch'])).toBe(
      '--- a/a.md\n+++ /dev/null\n',
    );
    expect(diffOf(['*** Begin Patch', '*** Update File: a.md', '*** Move to: b.md \t', '@@', ' x'])).toBe(
      '--- a/a.md\n+++ b/b.md\n@@\n x\n',
    );
  });

  it('takes a Move to only at the start of a line, even before a hunk has begun', () => {
    expect(diffOf(['*** Begin Patch', '*** Update File: a.md', ' *** Move to: b.md', '@@', ' x'])).toBe(
      '--- a/a.md\n+++ b/a.md\n@@\n *** Move to: b.md\n@@\n x\n',
    );
  });

  it('takes no file or Move to name that a lone CR cuts short, as no name may hold one', () => {
    // The name runs to the line's end: a lone CR inside the line is no blank to trim after it.
    expect(diffOf(['*** Begin Patch', '*** Update File: a.md\rjunk', '@@', ' x'])).toBe('\n');
    expect(diffOf(['*** Begin Patch', '*** Update File: a.md', '*** Move to: b.md\rjunk', '@@', ' x'])).toBe(
      '--- a/a.md\n+++ b/a.md\n@@\n *** Move to: b.md\rjunk\n@@\n x\n',
    );
  });

  it('takes the markers only at the start of a line, so a file that quotes them can be patched', () => {
    expect(
      diffOf([
        '*** Begin Patch',
        '*** Update File: references/codex.md',
        '@@',
        ' Open a section with *** Add File: name.',
        '-Close it with *** End Patch.',
        '+Close it with *** End Patch, or *** End of File, in ``` fences.',
        '*** End Patch',
      ]),
    ).toBe(
      [
        '--- a/references/codex.md',
        '+++ b/references/codex.md',
        '@@',
        ' Open a section with *** Add File: name.',
        '-Close it with *** End Patch.',
        '+Close it with *** End Patch, or *** End of File, in ``` fences.',
        '',
      ].join('\n'),
    );
  });

  it('takes a Begin Patch line only as a line of its own', () => {
    const unified = ['```diff', '--- a/x', '+++ b/x', '@@ -1 +1 @@', '-a', '+b', '```'];
    for (const prose of [
      'This is no envelope opened by *** Begin Patch',
      '*** Begin Patch form was not needed:',
    ])
      expect(otherPatchForm([prose, ...unified].join('\n'))).toBeNull();
    expect(diffOf(['*** Begin Patch \t', '*** Update File: x', '@@', '-a', '*** End Patch'])).toBe(
      '--- a/x\n+++ b/x\n@@\n-a\n',
    );
  });
});

describe('the markers of an Aider block', () => {
  const block = (search: string, sep: string, replace: string) =>
    ['x.py', search, 'a', sep, 'b', replace].join('\n');
  const read = '--- a/x.py\n+++ b/x.py\n@@\n-a\n+b\n';

  it('takes 5 to 9 marks, as Aider does, blanks around them aside', () => {
    for (const n of [5, 7, 9])
      expect(
        otherPatchForm(block(`${'<'.repeat(n)} SEARCH`, '='.repeat(n), `${'>'.repeat(n)} REPLACE`))?.diff,
      ).toBe(read);
    expect(otherPatchForm(block('  <<<<<<< SEARCH  ', ' ======= ', ' >>>>>>> REPLACE \t'))?.diff).toBe(read);
  });

  it('takes a path however it is dressed, above a ~~~ fence too, but not a folder', () => {
    const search = ['<<<<<<< SEARCH', 'a', '=======', 'b', '>>>>>>> REPLACE'];
    for (const pathLine of [
      '####  `x.py`',
      'Path: x.py',
      'filename:x.py',
      'File : `x.py`',
      '"x.py":',
      '_x.py_',
      '** x.py **',
    ])
      expect(otherPatchForm([pathLine, '~~~python', ...search, '~~~'].join('\n'))?.diff, pathLine).toBe(read);
    expect(otherPatchForm(['  ### x.py', '', '   ```python', ...search, '   ```'].join('\n'))?.diff).toBe(
      read,
    );
    expect(otherPatchForm(['scripts/run_all.py', ...search].join('\n'))?.diff).toContain(
      '+++ b/scripts/run_all.py\n',
    );
    for (const above of ['scripts/', 'Edit x.py', 'x.py (the script)', 'issue#12.md', 'profile: x.py'])
      expect(otherPatchForm([above, ...search].join('\n')), above).toBeNull();
  });

  it('creates a file only from a SEARCH that is all blank, not one that holds a blank line', () => {
    const answer = ['x.py', '<<<<<<< SEARCH', 'a', '', '=======', 'b', '>>>>>>> REPLACE'].join('\n');
    expect(otherPatchForm(answer)?.diff).toBe('--- a/x.py\n+++ b/x.py\n@@\n-a\n-\n+b\n');
    const blank = ['x.py', '<<<<<<< SEARCH', '  ', '=======', 'b', '>>>>>>> REPLACE'].join('\n');
    expect(otherPatchForm(blank)?.diff).toBe('--- /dev/null\n+++ b/x.py\n@@ -0,0 +1,1 @@\n+b\n');
  });

  it('takes a marker only as a line of its own, and a block only with its separator', () => {
    const [s, sep, r] = ['<<<<<<< SEARCH', '=======', '>>>>>>> REPLACE'];
    for (const [a, b, c] of [
      [`see ${s}`, sep, r],
      [`${s} here`, sep, r],
      [s, `see ${sep}`, r],
      [s, `${sep} here`, r],
      [s, sep, `see ${r}`],
      [s, sep, `${r} here`],
    ])
      expect(otherPatchForm(block(a, b, c)), [a, b, c].join(' / ')).toBeNull();
    expect(otherPatchForm(['x.py', s, 'a', r].join('\n'))).toBeNull();
  });

  it('reads nothing from a block whose marker has 4 or 10 marks', () => {
    for (const n of [4, 10]) {
      expect(
        otherPatchForm(block(`${'<'.repeat(n)} SEARCH`, '=======', '>>>>>>> REPLACE')),
        `${n} <`,
      ).toBeNull();
      expect(otherPatchForm(block('<<<<<<< SEARCH', '='.repeat(n), '>>>>>>> REPLACE')), `${n} =`).toBeNull();
      expect(
        otherPatchForm(block('<<<<<<< SEARCH', '=======', `${'>'.repeat(n)} REPLACE`)),
        `${n} >`,
      ).toBeNull();
    }
  });
});
