import { describe, expect, it } from 'vitest';
import type { RepairProposal } from '../../../shared/contract';
import {
  applyFilePatch,
  cleanRelPath,
  extractDiff,
  numberHunks,
  parseUnifiedDiff,
  renderDiff,
} from './diffs';
import { parseModelAnswer } from './prompt';
import { selectChanges } from './selection';
import type { SkillSnapshot } from './snapshot';

const DIFF = '--- a/SKILL.md\n+++ b/SKILL.md\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n d\n';

describe('reading a diff out of a model answer', () => {
  it('takes the fenced diff block (diff or patch), else an unfenced one, else nothing', () => {
    expect(extractDiff(`Here:\n\`\`\`diff\n${DIFF}\`\`\`\nDone.`)).toBe(DIFF);
    expect(extractDiff(`\`\`\`patch\n${DIFF}\`\`\``)).toBe(DIFF);
    expect(extractDiff(`Change this:\n${DIFF}`)).toBe(DIFF);
    expect(extractDiff('```python\nprint(1)\n```')).toBeNull();
  });

  it('reads labelled lines (bold too) or JSON for root cause and expected effect', () => {
    const labelled = parseModelAnswer(
      `**ROOT_CAUSE:** wrong column\nEXPECTED_EFFECT: it passes\n\`\`\`diff\n${DIFF}\`\`\``,
    );
    expect(labelled).toMatchObject({ ok: true, root_cause: 'wrong column', expected_effect: 'it passes' });
    const json = parseModelAnswer(
      `{"root_cause": "a \\"quoted\\" cause", "expected_effect": "e"}\n\`\`\`diff\n${DIFF}\`\`\``,
    );
    expect(json).toMatchObject({ ok: true, root_cause: 'a "quoted" cause', expected_effect: 'e' });
    expect(parseModelAnswer(`\`\`\`diff\n${DIFF}\`\`\``)).toMatchObject({
      ok: true,
      root_cause: null,
      expected_effect: null,
    });
    // No label: what the model said before its diff is its cause; a word or two is not.
    expect(
      parseModelAnswer(`## Fix\nThe header is now   "Amount".\n\`\`\`diff\n${DIFF}\`\`\``),
    ).toMatchObject({ ok: true, root_cause: 'The header is now "Amount".' });
    expect(parseModelAnswer(`The header changed case.\n${DIFF}`)).toMatchObject({
      root_cause: 'The header changed case.',
    });
    expect(parseModelAnswer(`Here:\n\`\`\`diff\n${DIFF}\`\`\``)).toMatchObject({ root_cause: null });
    expect(parseModelAnswer(`${'why '.repeat(100)}\n${DIFF}`)).toMatchObject({
      root_cause: expect.stringMatching(/^(why ){74}why…$/),
    });
  });

  it('turns garbage, NO_FIX, empty and non-text answers into a clear reason, never a throw', () => {
    expect(parseModelAnswer('NO_FIX: the API is down')).toEqual({
      ok: false,
      reason: 'The model found no fix inside the skill: the API is down',
    });
    for (const junk of [
      '',
      'lol',
      undefined,
      42,
      '```diff\n+++ nothing\n```',
      '```diff\n@@ -1 +1 @@\n-a\n+b\n```',
    ]) {
      const r = parseModelAnswer(junk);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(/no usable diff|empty/);
    }
    // A ```diff block with prose in it is a block that holds no diff, not a missing block.
    expect(parseModelAnswer('Here:\n```diff\nChange amount to Amount on line 4.\n```')).toEqual({
      ok: false,
      reason:
        "The model's answer had no usable diff: its ```diff block holds no file header (--- a/…, +++ b/…) or hunk (@@).",
    });
  });

  it('reads a diff a model put in JSON, as models in JSON mode answer', () => {
    const json = JSON.stringify({ root_cause: 'c', expected_effect: 'e', diff: DIFF });
    expect(parseModelAnswer(json)).toMatchObject({
      ok: true,
      diff: DIFF,
      root_cause: 'c',
      expected_effect: 'e',
    });
    expect(parseModelAnswer(`\`\`\`json\n${JSON.stringify({ patch: DIFF })}\n\`\`\``)).toMatchObject({
      ok: true,
      diff: DIFF,
    });
    expect(parseModelAnswer(JSON.stringify({ explanation: 'a long why', diff: DIFF }))).toMatchObject({
      root_cause: null,
    });
    expect(parseModelAnswer('{"diff": "not a diff"}')).toMatchObject({ ok: false });
  });

  it('recounts hunk headers models get wrong, and reads a bare blank line as empty context', () => {
    const sloppy = '--- a/f.md\n+++ b/f.md\n@@ -1,9 +1,2 @@\n a\n\n-b\n+c\n';
    const parsed = parseUnifiedDiff(sloppy);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(applyFilePatch('a\n\nb\n', parsed.files[0].hunks)).toBe('a\n\nc\n');
  });

  it('a hunk whose context does not match does not apply', () => {
    const parsed = parseUnifiedDiff(DIFF);
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(applyFilePatch('a\nx\nd\n', parsed.files[0].hunks)).toBeNull();
  });

  describe('a hunk that misquotes its context a little', () => {
    const SOURCE = "import sys\n\ndef main():\n    name = sys.argv[1]\n    print('hello ' + nme)\n\nmain()\n";
    const FIXED = SOURCE.replace('+ nme)', '+ name)');
    const hunk = (header: string, context: string) => {
      const parsed = parseUnifiedDiff(
        `--- a/x.py\n+++ b/x.py\n${header}\n ${context}\n     name = sys.argv[1]\n-    print('hello ' + nme)\n+    print('hello ' + name)\n`,
      );
      if (!parsed.ok) throw new Error(parsed.reason);
      return parsed.files[0].hunks;
    };

    it('applies at the wrong line numbers', () => {
      expect(applyFilePatch(SOURCE, hunk('@@ -40,3 +40,3 @@', 'def main():'))).toBe(FIXED);
    });

    it('applies a hunk with no line numbers ("@@", "@@ def main():") where its context is', () => {
      for (const header of ['@@', '@@ def main():'])
        expect(applyFilePatch(SOURCE, hunk(header, 'def main():')), header).toBe(FIXED);
    });

    it('applies with trailing blanks added to a context line, keeping the file’s own line', () => {
      expect(applyFilePatch(SOURCE, hunk('@@ -3,3 +3,3 @@', 'def main():   '))).toBe(FIXED);
    });

    it('applies with one context line that differs, keeping the file’s own line', () => {
      expect(applyFilePatch(SOURCE, hunk('@@ -3,3 +3,3 @@', 'def main(argv):'))).toBe(FIXED);
    });

    it('never matches context past the end of the file', () => {
      const parsed = parseUnifiedDiff('--- a/x\n+++ b/x\n@@ -2,3 +2,4 @@\n two\n \n \n+three\n');
      if (!parsed.ok) throw new Error(parsed.reason);
      expect(applyFilePatch('one\ntwo\n', parsed.files[0].hunks)).toBeNull();
    });

    it('never removes a line the hunk misquotes', () => {
      const parsed = parseUnifiedDiff(
        "--- a/x.py\n+++ b/x.py\n@@ -4,2 +4,2 @@\n     name = sys.argv[1]\n-    print('hello ' + nmee)\n+    print('hello ' + name)\n",
      );
      if (!parsed.ok) throw new Error(parsed.reason);
      expect(applyFilePatch(SOURCE, parsed.files[0].hunks)).toBeNull();
    });
  });

  it('refuses absolute, home, drive-letter, backslash and ".." paths', () => {
    for (const p of ['/etc/passwd', '~/x', 'C:/x', 'scripts\\x.py', 'references/../../x'])
      expect(cleanRelPath(p).ok).toBe(false);
    expect(cleanRelPath('./references//a.md')).toEqual({ ok: true, path: 'references/a.md' });
  });
});

describe('per-hunk selection', () => {
  it('keeps only the accepted hunks and the file line ends (CRLF)', () => {
    const lines = Array.from({ length: 20 }, (_v, i) => `line ${i}`);
    const before = `${lines.join('\r\n')}\r\n`;
    const after = before.replace('line 2\r\n', 'line two\r\n').replace('line 17\r\n', 'line seventeen\r\n');
    const changes = [{ path: 'references/r.md', before, after }];
    const hunks = numberHunks(changes);
    expect(hunks.map((h) => h.index)).toEqual([0, 1]);
    const proposal = { files: changes, hunks } as unknown as RepairProposal;
    const skill = { skillFile: 'SKILL.md' } as SkillSnapshot;
    const [only] = selectChanges(proposal, skill, { accepted_hunks: [1] });
    expect(only.after).toBe(before.replace('line 17\r\n', 'line seventeen\r\n'));
    expect(selectChanges(proposal, skill, { accepted_hunks: [] })).toEqual([]);
    expect(() => selectChanges(proposal, skill, { accepted_hunks: [5] })).toThrow(/Hunk 5 does not exist/);
    expect(renderDiff(changes)).toContain('--- a/references/r.md\n+++ b/references/r.md\n@@ -1,6 +1,6 @@');
  });
});
