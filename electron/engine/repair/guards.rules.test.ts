import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rawSkillMd, skillMd, tempDir, writeTree } from '../../testing/fixtures';
import { parseUnifiedDiff } from './diffs';
import {
  budgetOf,
  checkBudget,
  checkContent,
  checkValidator,
  countAddedTokens,
  PROTECTED_KEYS,
  resolveEdits,
  resolvePatch,
} from './guards';
import { readSnapshot, type SkillSnapshot } from './snapshot';

// What a repair patch may touch, rule by rule, on real skill folders (guards.test.ts drives
// the same guards through the repair loop with a scripted model).
const root = tempDir('skilldeck-guards-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let count = 0;

const DOC = skillMd('notes', 'Takes notes.', '# Notes\n\nWrite the note.\n');
async function snapshot(files: Record<string, string | Buffer> = {}): Promise<SkillSnapshot> {
  const dir = path.join(root, `skill${++count}`, 'notes');
  writeTree(dir, {
    'SKILL.md': DOC,
    'scripts/run.py': 'print(1)\n',
    'references/r.md': 'r1\nr2\n',
    ...files,
  });
  return readSnapshot(dir);
}
const patch = (diff: string) => {
  const parsed = parseUnifiedDiff(diff);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.files;
};
const refusal = (result: { ok: boolean }) => {
  if (result.ok) throw new Error('expected a refusal');
  return result as { ok: false; code: string; reason: string };
};
const REF = '--- a/references/r.md\n+++ b/references/r.md\n@@ -1,2 +1,2 @@\n-r1\n+R1\n r2\n';

describe('resolvePatch', () => {
  it('turns hunks into whole new texts', async () => {
    const skill = await snapshot();
    expect(resolvePatch(skill, patch(REF))).toEqual({
      ok: true,
      changes: [{ path: 'references/r.md', before: 'r1\nr2\n', after: 'R1\nr2\n' }],
    });
  });

  it('refuses bad paths on either side, before anything else', async () => {
    const skill = await snapshot();
    expect(
      refusal(
        resolvePatch(skill, patch('--- a/../../etc/passwd\n+++ b/references/r.md\n@@ -1 +1 @@\n-r1\n+x\n')),
      ),
    ).toEqual({
      ok: false,
      code: 'path',
      reason: 'Refused: "../../etc/passwd" leaves the skill folder with "..".',
    });
    expect(
      refusal(resolvePatch(skill, patch('--- a/references/r.md\n+++ b//etc/x\n@@ -1 +1 @@\n-r1\n+x\n'))),
    ).toEqual({
      ok: false,
      code: 'path',
      reason: 'Refused: "/etc/x" is an absolute path; patches use paths relative to the skill root.',
    });
  });

  it('refuses files outside SKILL.md, scripts/ and references/, and links', async () => {
    const skill = await snapshot({ 'notes.txt': 'n\n' });
    fs.symlinkSync('/etc/hostname', path.join(skill.dir, 'references', 'link.md'));
    const linked = await readSnapshot(skill.dir);
    expect(
      refusal(resolvePatch(linked, patch('--- a/notes.txt\n+++ b/notes.txt\n@@ -1 +1 @@\n-n\n+m\n'))),
    ).toMatchObject({
      code: 'outside',
      reason: 'Refused: it touches notes.txt; a repair may only change SKILL.md, scripts/* and references/*.',
    });
    expect(
      refusal(
        resolvePatch(
          linked,
          patch('--- a/references/link.md\n+++ b/references/link.md\n@@ -1 +1 @@\n-x\n+y\n'),
        ),
      ),
    ).toEqual({
      ok: false,
      code: 'link',
      reason: 'Refused: references/link.md is a symbolic link; repairs never write through links.',
    });
  });

  it('refuses deletes, renames and binary changes', async () => {
    const skill = await snapshot();
    expect(
      refusal(
        resolvePatch(skill, patch('--- a/references/r.md\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-r1\n-r2\n')),
      ),
    ).toMatchObject({
      code: 'delete',
      reason: 'Refused: it deletes references/r.md; a repair only edits files.',
    });
    expect(
      refusal(
        resolvePatch(skill, patch('--- a/references/r.md\n+++ b/references/s.md\n@@ -1 +1 @@\n-r1\n+x\n')),
      ),
    ).toEqual({
      ok: false,
      code: 'rename',
      reason:
        'Refused: it renames a/references/r.md to b/references/s.md; a repair only edits files in place.',
    });
    const binary =
      'diff --git a/references/r.md b/references/r.md\nindex 1..2 100644\nBinary files a/references/r.md and b/references/r.md differ\n';
    expect(refusal(resolvePatch(skill, patch(binary)))).toEqual({
      ok: false,
      code: 'binary',
      reason: 'Refused: it changes the binary file references/r.md.',
    });
  });

  it('refuses a mode change and any new script, but takes a new reference file in the usual mode', async () => {
    const skill = await snapshot();
    const mode = 'diff --git a/scripts/run.py b/scripts/run.py\nold mode 100644\nnew mode 100755\n';
    expect(refusal(resolvePatch(skill, patch(mode)))).toEqual({
      ok: false,
      code: 'executable',
      reason: 'Refused: it changes the mode of scripts/run.py to 100755; a repair never adds executables.',
    });
    const created = (file: string, fileMode: string) =>
      `diff --git a/${file} b/${file}\nnew file mode ${fileMode}\n--- /dev/null\n+++ b/${file}\n@@ -0,0 +1 @@\n+new\n`;
    expect(refusal(resolvePatch(skill, patch(created('references/x.sh', '100755'))))).toMatchObject({
      code: 'executable',
    });
    expect(refusal(resolvePatch(skill, patch(created('scripts/new.py', '100644'))))).toEqual({
      ok: false,
      code: 'executable',
      reason: 'Refused: it adds the new script scripts/new.py; a repair never adds executables.',
    });
    expect(resolvePatch(skill, patch(created('references/new.md', '100644')))).toEqual({
      ok: true,
      changes: [{ path: 'references/new.md', before: null, after: 'new\n' }],
    });
    const unchangedMode = 'diff --git a/scripts/run.py b/scripts/run.py\nold mode 100644\nnew mode 100644\n';
    expect(resolvePatch(skill, patch(unchangedMode))).toEqual({ ok: true, changes: [] });
  });

  it('creates a missing file from added lines only, and refuses context it does not have', async () => {
    const skill = await snapshot();
    expect(
      resolvePatch(skill, patch('--- a/references/new.md\n+++ b/references/new.md\n@@ -0,0 +1 @@\n+n\n')),
    ).toEqual({
      ok: true,
      changes: [{ path: 'references/new.md', before: null, after: 'n\n' }],
    });
    expect(
      refusal(
        resolvePatch(
          skill,
          patch('--- a/references/none.md\n+++ b/references/none.md\n@@ -1 +1 @@\n-a\n+b\n'),
        ),
      ),
    ).toEqual({
      ok: false,
      code: 'apply',
      reason: 'Refused: references/none.md does not exist in the skill, so the patch does not apply.',
    });
  });

  it('refuses a file it cannot read as text, and hunks that do not apply', async () => {
    const skill = await snapshot({ 'references/blob.md': Buffer.from([0x61, 0, 0x62, 0x0a]) });
    expect(
      refusal(
        resolvePatch(
          skill,
          patch('--- a/references/blob.md\n+++ b/references/blob.md\n@@ -1 +1 @@\n-a\n+b\n'),
        ),
      ),
    ).toEqual({
      ok: false,
      code: 'binary',
      reason: 'Refused: references/blob.md is binary or too large to patch.',
    });
    expect(
      refusal(
        resolvePatch(skill, patch('--- a/references/r.md\n+++ b/references/r.md\n@@ -1 +1 @@\n-zz\n+x\n')),
      ),
    ).toEqual({
      ok: false,
      code: 'apply',
      reason: 'Refused: the patch for references/r.md does not apply cleanly to the skill as it is now.',
    });
  });

  it('keeps hunks by their number across files, and patches one file twice in order', async () => {
    const skill = await snapshot({ 'references/r.md': 'r1\nr2\nr3\nr4\nr5\nr6\nr7\nr8\nr9\n' });
    const diff =
      '--- a/scripts/run.py\n+++ b/scripts/run.py\n@@ -1 +1 @@\n-print(1)\n+print(2)\n' +
      '--- a/references/r.md\n+++ b/references/r.md\n@@ -1 +1 @@\n-r1\n+R1\n@@ -9 +9 @@\n-r9\n+R9\n';
    const kept = resolvePatch(skill, patch(diff), new Set([2]));
    expect(kept).toEqual({
      ok: true,
      changes: [
        {
          path: 'references/r.md',
          before: 'r1\nr2\nr3\nr4\nr5\nr6\nr7\nr8\nr9\n',
          after: 'r1\nr2\nr3\nr4\nr5\nr6\nr7\nr8\nR9\n',
        },
      ],
    });
    const twice =
      '--- a/references/r.md\n+++ b/references/r.md\n@@ -1 +1 @@\n-r1\n+R1\n' +
      '--- a/references/r.md\n+++ b/references/r.md\n@@ -2 +2 @@\n-r2\n+R2\n';
    expect(resolvePatch(skill, patch(twice))).toMatchObject({
      ok: true,
      changes: [
        {
          path: 'references/r.md',
          before: 'r1\nr2\nr3\nr4\nr5\nr6\nr7\nr8\nr9\n',
          after: 'R1\nR2\nr3\nr4\nr5\nr6\nr7\nr8\nr9\n',
        },
      ],
    });
  });

  it('leaves out a file the patch does not change in the end', async () => {
    const skill = await snapshot();
    expect(
      resolvePatch(skill, patch('--- a/references/r.md\n+++ b/references/r.md\n@@ -1 +1 @@\n-r1\n+r1\n')),
    ).toEqual({
      ok: true,
      changes: [],
    });
  });
});

describe('resolveEdits', () => {
  const base = [{ path: 'references/r.md', before: 'r1\n', after: 'R1\n' }];

  it('takes new texts for the proposal’s own files, dropping an edit back to the original', async () => {
    const skill = await snapshot();
    expect(resolveEdits(skill, base, [{ path: './references//r.md', content: 'edited\n' }])).toEqual({
      ok: true,
      changes: [{ path: 'references/r.md', before: 'r1\n', after: 'edited\n' }],
    });
    expect(resolveEdits(skill, base, [{ path: 'references/r.md', content: 'r1\n' }])).toEqual({
      ok: true,
      changes: [],
    });
  });

  it('refuses another file or a bad path', async () => {
    const skill = await snapshot();
    expect(refusal(resolveEdits(skill, base, [{ path: 'SKILL.md', content: 'x' }]))).toEqual({
      ok: false,
      code: 'outside',
      reason: "Refused: SKILL.md is not one of this proposal's files.",
    });
    expect(refusal(resolveEdits(skill, base, [{ path: '../x', content: 'x' }]))).toEqual({
      ok: false,
      code: 'path',
      reason: 'Refused: "../x" leaves the skill folder with "..".',
    });
  });
});

describe('checkContent', () => {
  const doc = (frontmatter: string) => rawSkillMd(frontmatter);
  const change = (before: string | null, after: string, file = 'SKILL.md') => [{ path: file, before, after }];

  it('refuses a patch that changes nothing', async () => {
    expect(checkContent(await snapshot(), [])).toEqual({
      ok: false,
      code: 'empty',
      reason: 'Refused: the patch changes nothing.',
    });
  });

  it('takes a change to the body, or to frontmatter the rules leave open', async () => {
    const skill = await snapshot();
    const before = doc('name: notes\ndescription: Takes notes.');
    expect(checkContent(skill, change(before, `${before}More.\n`))).toBeNull();
    expect(
      checkContent(skill, change(before, doc('name: notes\ndescription: Takes short notes.'))),
    ).toBeNull();
  });

  it('refuses renaming the skill, and touching any protected key', async () => {
    const skill = await snapshot();
    const before = doc('name: notes\ndescription: d');
    expect(checkContent(skill, change(before, doc('name: other\ndescription: d')))).toEqual({
      ok: false,
      code: 'name',
      reason: 'Refused: it renames the skill (frontmatter `name`); a repair keeps the name.',
    });
    for (const key of PROTECTED_KEYS.filter((k) => k !== 'name')) {
      const [first, ...rest] = key.split('.');
      const yaml = rest.length === 0 ? `${first}: x` : `${first}:\n  ${rest[0]}:\n    ${rest[1]}: x`;
      expect(checkContent(skill, change(before, doc(`name: notes\ndescription: d\n${yaml}`))), key).toEqual({
        ok: false,
        code: 'policy',
        reason: `Refused: it changes \`${key}\` in the frontmatter; a repair never touches permissions or execution policy.`,
      });
    }
  });

  it('refuses a patch that lets a model run a skill its author keeps to the user', async () => {
    // `disable-model-invocation: true` (a deploy, a send) was dropped by a model's fix, and
    // --apply wrote it: the model could then run the skill on its own.
    const skill = await snapshot();
    const before = doc('name: notes\ndescription: d\ndisable-model-invocation: true');
    expect(checkContent(skill, change(before, doc('name: notes\ndescription: d')))).toEqual({
      ok: false,
      code: 'policy',
      reason:
        'Refused: it changes `disable-model-invocation` in the frontmatter; a repair never touches permissions or execution policy.',
    });
    // SkillDeck's own form of the same switch.
    const own = doc('name: notes\ndescription: d\ninvocation:\n  implicit: false');
    expect(checkContent(skill, change(own, doc('name: notes\ndescription: d')))).toMatchObject({
      code: 'policy',
    });
  });

  it('refuses a frontmatter that stops parsing or disappears, and one added broken', async () => {
    const skill = await snapshot();
    const before = doc('name: notes\ndescription: d');
    const broken = {
      ok: false,
      code: 'frontmatter',
      reason: 'Refused: the patched SKILL.md frontmatter no longer parses.',
    };
    expect(checkContent(skill, change(before, doc('name: notes\ndescription: "unterminated')))).toEqual(
      broken,
    );
    expect(checkContent(skill, change(before, '# Notes\n\nNo frontmatter now.\n'))).toEqual(broken);
    expect(checkContent(skill, change('# Notes\n', doc('name: "unterminated')))).toEqual(broken);
    expect(checkContent(skill, change('# Notes\n', '# Notes\n\nStill none.\n'))).toBeNull();
  });

  it('reads frontmatter rules in the skill file only', async () => {
    const skill = await snapshot();
    expect(checkContent(skill, change(doc('name: a'), doc('name: b'), 'references/example.md'))).toBeNull();
  });

  it('refuses adding or changing a script’s shebang, and nothing else about scripts', async () => {
    const skill = await snapshot();
    expect(
      checkContent(skill, change('print(1)\n', '#!/usr/bin/env python3\nprint(1)\n', 'scripts/run.py')),
    ).toEqual({
      ok: false,
      code: 'executable',
      reason: 'Refused: it adds the shebang of scripts/run.py, which changes how it runs.',
    });
    expect(
      checkContent(skill, change('#!/bin/sh\r\necho 1\n', '#!/bin/bash\r\necho 1\n', 'scripts/run.sh')),
    ).toMatchObject({
      code: 'executable',
      reason: expect.stringContaining('it changes the shebang of scripts/run.sh'),
    });
    expect(checkContent(skill, change('print(1)\n', 'print(2)\n', 'scripts/run.py'))).toBeNull();
    expect(
      checkContent(skill, change('#!/bin/sh\necho 1\n', '#!/bin/sh \necho 2\n', 'scripts/run.sh')),
    ).toBeNull();
    expect(checkContent(skill, change('#!/bin/sh\n', '#!/bin/bash\n', 'references/example.sh'))).toBeNull();
  });
});

describe('the budget', () => {
  it('counts the words a change adds to the doc, minus the ones it removed', () => {
    expect(countAddedTokens('a b\n', 'a b c d\n')).toBe(4 - 2);
    expect(countAddedTokens('one two\n', 'one  two\n')).toBe(0);
    expect(countAddedTokens('x\n', ' x  y\n')).toBe(1);
    expect(countAddedTokens('a a\n', 'a a a\n')).toBe(1);
    expect(countAddedTokens(null, 'fresh words here\n')).toBe(3);
  });

  it("spends the doc's words only on the skill file", async () => {
    const skill = await snapshot();
    expect(
      budgetOf(skill, [
        { path: 'references/r.md', before: 'r1\n', after: 'many new words here\n' },
        { path: 'SKILL.md', before: 'a\n', after: 'a b\n' },
      ]),
    ).toEqual({ files: 2, hunks: 2, added_tokens: 1 });
    expect(budgetOf(skill, [{ path: 'references/r.md', before: 'r\n', after: 'r s\n' }])).toEqual({
      files: 1,
      hunks: 1,
      added_tokens: 0,
    });
  });

  it('takes exactly the limits and refuses one over each', () => {
    expect(checkBudget({ files: 3, hunks: 8, added_tokens: 300 })).toBeNull();
    expect(checkBudget({ files: 4, hunks: 1, added_tokens: 0 })).toEqual({
      ok: false,
      code: 'budget',
      reason: 'Refused: it changes 4 files; an attempt may change at most 3.',
    });
    expect(checkBudget({ files: 1, hunks: 9, added_tokens: 0 })).toEqual({
      ok: false,
      code: 'budget',
      reason: 'Refused: it has 9 hunks; an attempt may have at most 8.',
    });
    expect(checkBudget({ files: 1, hunks: 1, added_tokens: 301 })).toEqual({
      ok: false,
      code: 'budget',
      reason: 'Refused: it adds 301 words to the skill doc; an attempt may add at most 300.',
    });
  });
});

describe('checkValidator', () => {
  it('lets a skill keep its old errors but refuses new ones, all of them named', async () => {
    const original = path.join(root, 'validator', 'notes');
    const scratch = path.join(root, 'validator-scratch', 'notes');
    writeTree(original, { 'SKILL.md': rawSkillMd('name: notes\ndescription: d\nhomepage: x') });
    writeTree(scratch, { 'SKILL.md': rawSkillMd('name: notes\ndescription: d\nhomepage: x') });
    expect(await checkValidator(original, scratch)).toBeNull();
    fs.writeFileSync(
      path.join(scratch, 'SKILL.md'),
      rawSkillMd(`name: notes\ndescription: d\nhomepage: x\ncompatibility: ${'c'.repeat(501)}\nextra: y`),
    );
    expect(await checkValidator(original, scratch)).toEqual({
      ok: false,
      code: 'validator',
      reason:
        "Refused: the patched skill fails the validator: Unexpected fields in frontmatter: extra, homepage. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed.; Compatibility exceeds 500 character limit (501 chars)",
    });
  });
});
