import { describe, expect, it } from 'vitest';
import { parseModelAnswer } from './prompt';

// A model asked for a diff that sends the corrected file whole instead, as small models often do.
const SCRIPT = [
  'import csv, os',
  'rows = list(csv.DictReader(open("sample.csv")))',
  'print(f"read {len(rows)} rows")',
  'print(sum(float(row["amount"]) for row in rows))',
  '',
].join('\n');
const FIXED = SCRIPT.replace('row["amount"]', 'row["Amount"]');
const current = new Map(
  Object.entries({
    'scripts/total.py': SCRIPT,
    'SKILL.md': '---\nname: t\n---\nRun it.\n',
  }),
);
const fenced = (info: string, body: string) => `\`\`\`${info}\n${body.replace(/\n$/, '')}\n\`\`\``;

describe('parseModelAnswer: the corrected file whole', () => {
  it.each([
    ['the info string', `The header is Amount.\n\n${fenced('python scripts/total.py', FIXED)}\n`],
    [
      'a path line above',
      `The header is Amount. Here is the fixed file.\n\nscripts/total.py:\n${fenced('python', FIXED)}\n`,
    ],
    [
      'a heading above',
      `The header is Amount, not amount.\n\n### \`scripts/total.py\`\n\n${fenced('py', FIXED)}\n`,
    ],
    [
      'a first-line comment',
      `The header is Amount, not amount.\n\n${fenced('python', `# scripts/total.py\n${FIXED}`)}\n`,
    ],
    [
      'a title= attribute',
      `The header is Amount, not amount.\n\n${fenced('python title="scripts/total.py"', FIXED)}\n`,
    ],
  ])('named in %s, reads as the diff from the file to the block', (_where, answer) => {
    const parsed = parseModelAnswer(answer, current);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.files.map((f) => f.path)).toEqual(['scripts/total.py']);
    expect(parsed.diff).toContain('--- a/scripts/total.py\n+++ b/scripts/total.py\n');
    expect(parsed.diff).toContain(
      '-print(sum(float(row["amount"]) for row in rows))\n+print(sum(float(row["Amount"]) for row in rows))',
    );
    expect(parsed.root_cause).toMatch(/^The header is Amount/);
  });

  it('a bare file name is the one file of the skill so named', () => {
    const twins = new Map([...current, ['scripts/other.py', SCRIPT]]);
    const answer = `The header is Amount, not amount.\n\nFixed \`total.py\`:\n${fenced('python', FIXED)}\n`;
    const parsed = parseModelAnswer(answer, twins);
    expect(parsed.ok && parsed.files.map((f) => f.path)).toEqual(['scripts/total.py']);
  });

  it('a block with a first-line comment keeps that comment as part of the file', () => {
    const parsed = parseModelAnswer(`${fenced('python', `# scripts/total.py\n${FIXED}`)}`, current);
    expect(parsed.ok && parsed.diff).toContain('+# scripts/total.py\n');
  });

  it('refuses an excerpt, which would delete the rest of the file, saying why', () => {
    for (const body of [
      'print(sum(float(row["Amount"]) for row in rows))\n',
      `${FIXED.split('\n').slice(0, 3).join('\n')}\n# ... rest unchanged\n`,
    ]) {
      const parsed = parseModelAnswer(`Change scripts/total.py:\n${fenced('python', body)}`, current);
      expect(parsed).toEqual({
        ok: false,
        reason: expect.stringContaining('its block for scripts/total.py looks like an excerpt'),
      });
    }
  });

  it('leaves alone blocks that name no file of the skill, an unchanged copy, and answers that hold a diff', () => {
    expect(parseModelAnswer(fenced('python scripts/main.py', FIXED), current)).toEqual({
      ok: false,
      reason: "The model's answer had no usable diff (no ```diff block).",
    });
    expect(parseModelAnswer(fenced('python scripts/total.py', SCRIPT), current).ok).toBe(false);
    const withDiff = [
      fenced('diff', '--- a/SKILL.md\n+++ b/SKILL.md\n@@ -4 +4 @@\n-Run it.\n+Run it now.'),
      fenced('python scripts/total.py', FIXED),
    ].join('\n');
    const parsed = parseModelAnswer(withDiff, current);
    expect(parsed.ok && parsed.files.map((f) => f.path)).toEqual(['SKILL.md']);
    // Without the skill's files (the caller has none) nothing changes either.
    expect(parseModelAnswer(fenced('python scripts/total.py', FIXED)).ok).toBe(false);
  });

  it('keeps a file without a final newline without one', () => {
    const noEol = SCRIPT.trimEnd();
    const parsed = parseModelAnswer(
      fenced('python scripts/total.py', FIXED),
      new Map([['scripts/total.py', noEol]]),
    );
    expect(parsed.ok && parsed.diff).toContain('\\ No newline at end of file');
    expect(parsed.ok && parsed.diff.match(/No newline/g)).toHaveLength(2);
  });

  it('an unnamed block is the file whose lines it mostly keeps; none when it keeps no file’s', () => {
    const parsed = parseModelAnswer(
      `The header is Amount. Corrected file:\n\n${fenced('python', FIXED)}\n`,
      current,
    );
    expect(parsed.ok && parsed.files.map((f) => f.path)).toEqual(['scripts/total.py']);
    expect(parseModelAnswer(`Run it so:\n${fenced('bash', 'python3 scripts/total.py')}`, current).ok).toBe(
      false,
    );
  });
});

describe('parseModelAnswer: bare @@ hunks without file headers', () => {
  const hunk =
    '@@ -4 +4 @@\n-print(sum(float(row["amount"]) for row in rows))\n+print(sum(float(row["Amount"]) for row in rows))';
  it.each([
    ['the one file that holds its lines', `The key is wrong.\n${fenced('diff', hunk)}`],
    ['the line above the fence', `In scripts/total.py:\n${fenced('diff', hunk)}`],
    ['the info string', fenced('diff scripts/total.py', hunk)],
  ])('are read as a diff of %s', (_how, answer) => {
    const parsed = parseModelAnswer(answer, current);
    expect(parsed.ok && parsed.files.map((f) => f.path)).toEqual(['scripts/total.py']);
    expect(parsed.ok && parsed.diff).toMatch(/^--- a\/scripts\/total\.py\n\+\+\+ b\/scripts\/total\.py\n@@/);
  });

  it('stay refused when no file, or two files, hold their lines', () => {
    const nowhere = fenced('diff', '@@ -1 +1 @@\n-no such line\n+x');
    expect(parseModelAnswer(nowhere, current)).toEqual({
      ok: false,
      reason:
        "The model's answer had no usable diff: A file in the diff has no `--- a/…` / `+++ b/…` header naming it.",
    });
    const twice = new Map([...current, ['scripts/copy.py', SCRIPT]]);
    expect(parseModelAnswer(fenced('diff', hunk), twice).ok).toBe(false);
  });
});
