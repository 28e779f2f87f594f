import { describe, expect, it } from 'vitest';
import {
  applyFilePatch,
  cleanName,
  cleanRelPath,
  diffStats,
  extractDiff,
  numberHunks,
  parseUnifiedDiff,
  recountHunks,
  renderDiff,
} from './diffs';

// The diff reading behind every repair, one rule at a time (diffs.test.ts and guards.test.ts
// drive it with model answers): what counts as the diff, how sloppy headers are repaired,
// which names and paths are taken.
const DIFF = '--- a/SKILL.md\n+++ b/SKILL.md\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n d\n';
const OTHER = '--- a/references/r.md\n+++ b/references/r.md\n@@ -1 +1 @@\n-x\n+y\n';

describe('extractDiff', () => {
  it('takes a fence however the model labels it, closed or not', () => {
    for (const open of ['```diff', '``` diff', '```\tpatch', '```DIFF', '```udiff title: the fix'])
      expect(extractDiff(`Here:\n${open}\n${DIFF}\`\`\`\nDone.`), open).toBe(DIFF);
    expect(extractDiff(`Here:\n\`\`\`diff\n${DIFF.trimEnd()}`)).toBe(DIFF);
  });

  it('takes a fence indented in a list item, its lines without the fence’s indent', () => {
    const indented = DIFF.split('\n')
      .map((l) => (l ? `   ${l}` : l))
      .join('\n');
    expect(extractDiff(`1. Fix the doc:\n   \`\`\`diff\n${indented}   \`\`\`\n2. Run it again.`)).toBe(DIFF);
  });

  it('joins every fenced diff, and skips a fence labelled diff that holds none', () => {
    expect(extractDiff(`\`\`\`diff\n${DIFF}\`\`\`\nand\n\`\`\`diff\n${OTHER}\`\`\``)).toBe(`${DIFF}${OTHER}`);
    expect(extractDiff(`\`\`\`diff\nsee a --- b\n\`\`\`\n${DIFF}`)).toBe(DIFF);
  });

  it('else takes an unfenced diff from its first header line, without a closing fence or trailing space', () => {
    expect(extractDiff(DIFF)).toBe(DIFF);
    expect(extractDiff(`Replace --- a/old with the new line:\n${DIFF}`)).toBe(DIFF);
    expect(extractDiff(`Fix:\n${DIFF}\`\`\`\nThanks, hope it helps.\n`)).toBe(DIFF);
    expect(extractDiff(`Fix:\n${DIFF}\n\n  \t\n`)).toBe(DIFF);
    expect(extractDiff(`Fix:\ndiff --git a/x b/x\n${DIFF}`)).toBe(`diff --git a/x b/x\n${DIFF}`);
    expect(extractDiff('New file:\n--- /dev/null\n+++ b/references/n.md\n@@ -0,0 +1 @@\n+n\n')).toBe(
      '--- /dev/null\n+++ b/references/n.md\n@@ -0,0 +1 @@\n+n\n',
    );
    expect(extractDiff('No diff here --- a/ only prose.')).toBeNull();
  });

  it('takes an unfenced or bare-fenced diff whose paths have no a/ b/, by its --- and +++ pair', () => {
    const plain = '--- SKILL.md\n+++ SKILL.md\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n d\n';
    expect(extractDiff(`Apply this:\n\n${plain}\nDone.`)).toBe(`${plain}\nDone.\n`);
    expect(extractDiff(`Apply this:\n\`\`\`\n${plain}\`\`\`\nDone.`)).toBe(plain);
    expect(extractDiff('--- a list item\n--- another\n')).toBeNull();
  });
});

describe('recountHunks', () => {
  const body = (diff: string) => recountHunks(`--- a/f\n+++ b/f\n${diff}`).split('\n').slice(2).join('\n');

  it('rewrites the counts from the body, keeping what follows the header', () => {
    expect(body('@@ -3 +3 @@ def f():\n a\n-b\n+c\n')).toBe('@@ -3,2 +3,2 @@ def f():\n a\n-b\n+c');
    expect(body('@@ -12,9 +12,1 @@\n a\n-b\n+c\n+d\n')).toBe('@@ -12,2 +12,3 @@\n a\n-b\n+c\n+d');
    expect(body('@@ -1,12 +1,12 @@\n-a\n')).toBe('@@ -1,1 +1,0 @@\n-a');
  });

  it('reads a bare blank line as empty context, drops blank lines that end a hunk, keeps "\\ No newline"', () => {
    expect(body('@@ -1,1 +1,1 @@\n a\n\n-b\n+c\n\\ No newline at end of file\n\n\n')).toBe(
      '@@ -1,3 +1,3 @@\n a\n \n-b\n+c\n\\ No newline at end of file',
    );
  });

  it('ends a hunk at prose, a next hunk or a next file, but not at a removed "-- " line', () => {
    expect(body('@@ -1,1 +1,1 @@\n-a\n+b\nHope this helps - bye\n')).toBe(
      '@@ -1,1 +1,1 @@\n-a\n+b\nHope this helps - bye\n',
    );
    expect(body('@@ -1 +1 @@\n-a\n+b\n@@ -9 +9 @@\n-c\n+d\n')).toBe(
      '@@ -1,1 +1,1 @@\n-a\n+b\n@@ -9,1 +9,1 @@\n-c\n+d',
    );
    for (const next of ['diff --git a/g b/g', 'Index: g', '--- a/g\n+++ b/g'])
      expect(body(`@@ -1 +1 @@\n-a\n+b\n${next}\n`), next).toBe(`@@ -1,1 +1,1 @@\n-a\n+b\n${next}\n`);
    expect(body('@@ -1 +1 @@\n--- old rule\n+new rule\n')).toBe('@@ -1,1 +1,1 @@\n--- old rule\n+new rule');
    expect(body('@@ -1 +1 @@\n-a\n--- last line')).toBe('@@ -1,2 +1,0 @@\n-a\n--- last line');
  });

  it('reads a line that lost its leading space as context when a change follows before a blank line', () => {
    expect(body('@@ -1,4 +1,4 @@\n a\n-b\n+c\nd\n-e\n+f\n')).toBe('@@ -1,4 +1,4 @@\n a\n-b\n+c\n d\n-e\n+f');
    expect(body('@@ -1,2 +1,2 @@\na\n-b\n+c\n')).toBe('@@ -1,2 +1,2 @@\n a\n-b\n+c');
    expect(body('@@ -1 +1 @@\n-a\n+b\nThat is all.\n\n- a list\n')).toBe(
      '@@ -1,1 +1,1 @@\n-a\n+b\nThat is all.\n\n- a list\n',
    );
  });

  it('keeps a context line that mentions a hunk header', () => {
    expect(body('@@ -1 +1 @@\n see @@ -1 +1 @@ here\n-a\n+b\n')).toBe(
      '@@ -1,2 +1,2 @@\n see @@ -1 +1 @@ here\n-a\n+b',
    );
  });

  it('starts an empty side at its own line 0, a non-empty one at line 1 or later', () => {
    expect(body('@@ -0,0 +0,0 @@\n+x\n+y\n')).toBe('@@ -0,0 +1,2 @@\n+x\n+y');
    expect(body('@@ -5,0 +6,1 @@\n+x\n')).toBe('@@ -5,0 +6,1 @@\n+x');
    expect(body('@@ -0,1 +0,1 @@\n-a\n+b\n')).toBe('@@ -1,1 +1,1 @@\n-a\n+b');
    expect(body('@@ -3,2 +3,2 @@\n-a\n-b\n')).toBe('@@ -3,2 +3,0 @@\n-a\n-b');
    expect(body('@@ -1,1 +0,0 @@\n-a\n')).toBe('@@ -1,1 +0,0 @@\n-a');
  });

  it('reads CRLF as LF', () => {
    expect(recountHunks('--- a/f\r\n+++ b/f\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n')).toBe(
      '--- a/f\n+++ b/f\n@@ -1,1 +1,1 @@\n-a\n+b',
    );
  });
});

describe('parseUnifiedDiff', () => {
  const files = (diff: string) => {
    const parsed = parseUnifiedDiff(diff);
    if (!parsed.ok) throw new Error(parsed.reason);
    return parsed.files;
  };

  it('reads paths with or without a/ b/, and what the diff does to each file', () => {
    expect(files(DIFF)[0]).toMatchObject({
      path: 'SKILL.md',
      rawOld: 'a/SKILL.md',
      rawNew: 'b/SKILL.md',
      isCreate: false,
      isDelete: false,
      isRename: false,
      isBinary: false,
    });
    expect(files('--- SKILL.md\n+++ SKILL.md\n@@ -1 +1 @@\n-a\n+b\n')[0].path).toBe('SKILL.md');
    expect(files('--- /dev/null\n+++ b/references/n.md\n@@ -0,0 +1 @@\n+n\n')[0]).toMatchObject({
      path: 'references/n.md',
      isCreate: true,
      isDelete: false,
      isRename: false,
    });
    expect(files('--- \n+++ b/references/n.md\n@@ -0,0 +1 @@\n+n\n')[0]).toMatchObject({ isCreate: true });
    expect(files('--- a/references/old.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-o\n')[0]).toMatchObject({
      path: 'references/old.md',
      isCreate: false,
      isDelete: true,
      isRename: false,
    });
    expect(files('--- a/references/a.md\n+++ b/references/b.md\n@@ -1 +1 @@\n-a\n+b\n')[0]).toMatchObject({
      path: 'references/b.md',
      isCreate: false,
      isDelete: false,
      isRename: true,
    });
  });

  it('reads git headers: a new file, a mode change, a binary file', () => {
    expect(
      files(
        'diff --git a/references/n.md b/references/n.md\nnew file mode 100644\n--- /dev/null\n+++ b/references/n.md\n@@ -0,0 +1 @@\n+n\n',
      )[0],
    ).toMatchObject({ isCreate: true, newMode: '100644' });
    expect(
      files('diff --git a/scripts/s.sh b/scripts/s.sh\nold mode 100644\nnew mode 100755\n')[0],
    ).toMatchObject({
      path: 'scripts/s.sh',
      oldMode: '100644',
      newMode: '100755',
      hunks: [],
    });
    expect(
      files(
        'diff --git a/references/x.png b/references/x.png\nindex 1..2 100644\nBinary files a/references/x.png and b/references/x.png differ\n',
      )[0],
    ).toMatchObject({ path: 'references/x.png', isBinary: true });
  });

  it('keeps a binary change a text change follows, in either form, for the guard to refuse', () => {
    const text = '--- a/scripts/t.py\n+++ b/scripts/t.py\n@@ -1 +1 @@\n-a\n+b\n';
    // git's literal form, then a text file with no `diff --git` line of its own (models write so).
    const literal = `diff --git a/references/s.csv b/references/s.csv\nindex 1234567..89abcde 100644\nGIT binary patch\nliteral 10\nRcmZ?wbhEHbRA6LE000\n\nliteral 0\nHcmV?d00001\n\n${text}`;
    // diff's summary line with no git header at all.
    const summary = `Binary files a/references/logo.png and b/references/logo.png differ\n${text}`;
    for (const [diff, binary] of [
      [literal, 'references/s.csv'],
      [summary, 'references/logo.png'],
    ]) {
      const parsed = files(diff);
      expect(parsed.map((f) => [f.path, f.isBinary])).toEqual([
        [binary, true],
        ['scripts/t.py', false],
      ]);
    }
  });

  it('says why when there is no file, a hunk without a header, or garbage', () => {
    for (const none of ['', 'just prose\n'])
      expect(parseUnifiedDiff(none)).toEqual({
        ok: false,
        reason: 'The diff names no file and has no hunks.',
      });
    expect(parseUnifiedDiff('@@ -1 +1 @@\n-a\n+b\n')).toEqual({
      ok: false,
      reason: 'A file in the diff has no `--- a/…` / `+++ b/…` header naming it.',
    });
    expect(parseUnifiedDiff('--- a/f\n+++ b/f\n@@ -x @@\n')).toEqual({
      ok: false,
      reason: 'The diff could not be parsed: Hunk at line 3 contained invalid line .',
    });
  });
});

describe('cleanName', () => {
  it('drops the side prefix only, and reads /dev/null or no name as none', () => {
    expect(cleanName('a/x/y.md', 'a')).toBe('x/y.md');
    expect(cleanName('b/x', 'a')).toBe('b/x');
    expect(cleanName('x', 'b')).toBe('x');
    for (const none of ['/dev/null', '', null, undefined]) expect(cleanName(none, 'a')).toBeNull();
  });
});

describe('cleanRelPath', () => {
  const reason = (p: string) => {
    const r = cleanRelPath(p);
    if (r.ok) throw new Error(`${p} was taken`);
    return r.reason;
  };

  it('cleans a relative path', () => {
    expect(cleanRelPath('./references//a.md/')).toEqual({ ok: true, path: 'references/a.md' });
    expect(cleanRelPath('references/a:b.md')).toEqual({ ok: true, path: 'references/a:b.md' });
    expect(cleanRelPath('1:x')).toEqual({ ok: true, path: '1:x' });
  });

  it('refuses NUL, absolute, home, drive, backslash, ".." and empty paths, saying which', () => {
    expect(reason('a\0b')).toBe('"a\\u0000b" contains a NUL byte.');
    for (const p of ['/etc/passwd', '//host/share', 'C:/x', 'c:x', '~/x', '~'])
      expect(reason(p), p).toBe(
        `${JSON.stringify(p)} is an absolute path; patches use paths relative to the skill root.`,
      );
    expect(reason('scripts\\x.py')).toBe('"scripts\\\\x.py" contains a backslash; use "/" paths.');
    expect(reason('references/../../x')).toBe('"references/../../x" leaves the skill folder with "..".');
    for (const p of ['', '.', './/']) expect(reason(p), p).toBe(`${JSON.stringify(p)} names no file.`);
    const long = `/${'x'.repeat(300)}`;
    expect(reason(long)).toBe(
      `${JSON.stringify(long.slice(0, 200))} is an absolute path; patches use paths relative to the skill root.`,
    );
  });
});

describe('applyFilePatch', () => {
  const hunks = (diff: string) => {
    const parsed = parseUnifiedDiff(diff);
    if (!parsed.ok) throw new Error(parsed.reason);
    return parsed.files[0].hunks;
  };
  const two = hunks('--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+A\n@@ -5 +5 @@\n-e\n+E\n');
  const text = 'a\nb\nc\nd\ne\n';

  it('applies all hunks, or only those kept, and nothing when none are kept', () => {
    expect(applyFilePatch(text, two)).toBe('A\nb\nc\nd\nE\n');
    expect(applyFilePatch(text, two, (i) => i === 1)).toBe('a\nb\nc\nd\nE\n');
    expect(applyFilePatch(text, two, () => false)).toBe(text);
    expect(applyFilePatch('x\ny\n', two)).toBeNull();
  });
});

describe('rendering and counting changes', () => {
  const changes = [
    { path: 'references/new.md', before: null, after: 'x\n' },
    { path: 'SKILL.md', before: 'a\nb\n', after: 'a\nc\nd\n' },
  ];

  it('renders a created file from /dev/null and the rest with a/ b/, one after another', () => {
    expect(renderDiff(changes)).toBe(
      [
        '--- /dev/null',
        '+++ b/references/new.md',
        '@@ -0,0 +1,1 @@',
        '+x',
        '--- a/SKILL.md',
        '+++ b/SKILL.md',
        '@@ -1,2 +1,3 @@',
        ' a',
        '-b',
        '+c',
        '+d',
        '',
      ].join('\n'),
    );
  });

  it('numbers the hunks across files, a created file with no old lines', () => {
    expect(numberHunks(changes)).toEqual([
      {
        index: 0,
        file: 'references/new.md',
        old_start: 1,
        old_lines: 0,
        new_start: 1,
        new_lines: 1,
        lines: ['+x'],
      },
      {
        index: 1,
        file: 'SKILL.md',
        old_start: 1,
        old_lines: 2,
        new_start: 1,
        new_lines: 3,
        lines: [' a', '-b', '+c', '+d'],
      },
    ]);
  });

  it('counts files, hunks, added and removed lines', () => {
    expect(diffStats(changes)).toEqual({ files: 2, hunks: 2, added: 3, removed: 1 });
    expect(diffStats([])).toEqual({ files: 0, hunks: 0, added: 0, removed: 0 });
  });
});
