import { describe, expect, it } from 'vitest';
import { otherPatchForm } from './patchForms';
import { parseModelAnswer } from './prompt';

// A model's answer is whatever the model sent: a megabyte of blank lines, a patch that adds a
// generated file of 200,000 lines. Reading it gives a diff or a reason, never a throw or a stall.
const lines = (n: number, line: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => line(i)).join('\n');
const ok = (answer: string) => {
  const read = parseModelAnswer(answer);
  if (!read.ok) throw new Error(read.reason);
  return read;
};

describe('a huge model answer', () => {
  it('reads a unified diff whose hunk adds 200,000 lines', () => {
    // Spread into push(), the hunk's lines overflowed the stack: "Maximum call stack size exceeded".
    const read = ok(
      `\`\`\`diff\n--- a/data.txt\n+++ b/data.txt\n@@ -1 +1 @@\n-a\n${lines(200_000, (i) => `+row ${i}`)}\n\`\`\`\n`,
    );
    expect(read.files[0].hunks[0].lines).toHaveLength(200_001);
  });

  it('reads SEARCH/REPLACE and apply_patch forms of the same size', () => {
    // These threw out of parseModelAnswer.
    const aider = ok(
      `data.txt\n<<<<<<< SEARCH\na\n=======\n${lines(200_000, (i) => `row ${i}`)}\n>>>>>>> REPLACE\n`,
    );
    expect(aider.files[0].hunks[0].lines).toHaveLength(200_001);
    const codex = ok(
      `*** Begin Patch\n*** Add File: data.txt\n${lines(200_000, (i) => `+row ${i}`)}\n*** End Patch\n`,
    );
    expect(codex.files[0].hunks[0].lines).toHaveLength(200_000);
  });

  it('finds ROOT_CAUSE and the diff below 50,000 blank lines', () => {
    // `^\s*` at each line start ran over every blank line below it: 11 s for 20,000.
    const read = ok(
      `${'\n'.repeat(50_000)}ROOT_CAUSE: the header is Amount.\nEXPECTED_EFFECT: the total prints.\n\`\`\`diff\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n\`\`\`\n`,
    );
    expect(read).toMatchObject({ root_cause: 'the header is Amount.', expected_effect: 'the total prints.' });
  });

  it('reads NO_FIX and the prose before a diff below as many', () => {
    expect(parseModelAnswer(`${'\n'.repeat(50_000)}NO_FIX: the input file is empty.`)).toEqual({
      ok: false,
      reason: 'The model found no fix inside the skill: the input file is empty.',
    });
    const read = ok(
      `${'\n'.repeat(50_000)}# Fix\n\nThe header is now Amount, so the key changed.\n\`\`\`diff\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n\`\`\`\n`,
    );
    expect(read.root_cause).toBe('The header is now Amount, so the key changed.');
  });

  it('reads an unfenced diff followed by 100,000 blanks', () => {
    // `/\s+$/` rescanned the run of blanks from each of them: 27 s for 80,000.
    const read = ok(`--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n${' '.repeat(100_000)}thanks`);
    expect(read.diff.endsWith('thanks\n')).toBe(true);
  });
});

describe('lines of an answer built against its patterns', () => {
  const timed = <T>(read: () => T) => {
    const started = performance.now();
    const out = read();
    return { out, ms: performance.now() - started };
  };
  const blanks = ' '.repeat(100_000);

  it('reads an apply_patch file name with a long run of blanks inside', () => {
    // `(.+?)\s*$` tried `\s*$` from each blank of the run: 25 s a line at 100,000.
    const { out, ms } = timed(() =>
      otherPatchForm(
        `*** Begin Patch\n*** Update File: a${blanks}b\n*** Move to: c${blanks}d\n@@\n-x\n+y\n*** End Patch\n`,
      ),
    );
    expect(ms).toBeLessThan(1000);
    expect(out?.diff).toBe(`--- a/a${blanks}b\n+++ b/c${blanks}d\n@@\n-x\n+y\n`);
    // Blanks after the name are still no part of it.
    expect(
      otherPatchForm('*** Begin Patch\n*** Update File: x.py \t \n@@\n-a\n+b\n*** End Patch')?.diff,
    ).toBe('--- a/x.py\n+++ b/x.py\n@@\n-a\n+b\n');
  });

  it('passes over a line of asterisks above a SEARCH block quickly', () => {
    // The trailing `[*_`"':]+$` of the path cleanup was tried from every asterisk: 31 s at 100,000.
    const block = '<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n';
    const { out, ms } = timed(() => otherPatchForm(`x${'*'.repeat(100_000)}x\n${block}`));
    expect(ms).toBeLessThan(1000);
    expect(out).toBeNull();
    expect(otherPatchForm(`**x.py**:\n${block}`)?.diff).toBe('--- a/x.py\n+++ b/x.py\n@@\n-a\n+b\n');
  });
});
