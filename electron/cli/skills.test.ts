import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, tempDir, writeTree } from '../testing/fixtures';
import { buildCliBundle } from '../testing/cliBundle';

// DESIGN §7 `skilldeck skills validate --json` as a real process, against the reference
// validator's own cases: what a script comparing our output with skills-ref reads.
const root = tempDir('skilldeck-cli-skills-');
const cli = path.join(root, 'cli.cjs');
const casesDir = path.join(corpusDir(), 'validator-cases');

interface Case {
  id: string;
  api: string;
  fixture?: string;
  expect: { valid?: boolean; errors?: string[]; error_count?: number };
}
const { cases } = JSON.parse(fs.readFileSync(path.join(casesDir, 'cases.json'), 'utf8')) as { cases: Case[] };

beforeAll(async () => {
  await buildCliBundle(cli);
}, 60_000);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const validate = (target: string) =>
  spawnSync(process.execPath, [cli, 'skills', 'validate', target, '--json'], {
    env: { ...process.env, SKILLDECK_HOME: path.join(root, 'home'), HOME: root },
    encoding: 'utf8',
  });

/** The path a validate case runs on (as validator.test.ts reads them). */
function target(c: Case): string {
  if (c.id === 'nonexistent-path') return path.join(root, 'nonexistent');
  const dir = path.join(casesDir, (c.fixture ?? '').split(' + ')[0]);
  return c.id === 'not-a-directory' ? path.join(dir, 'file.txt') : dir;
}

describe('skilldeck skills validate --json against the reference validator’s cases', () => {
  const validateCases = cases.filter((c) => c.api === 'validate');

  it.each(validateCases.map((c) => [c.id, c] as const))(
    '%s: one report object, as skills-ref prints it',
    (_id, c) => {
      const r = validate(target(c));
      const report = JSON.parse(r.stdout) as { valid: boolean; errors: string[] };
      expect(Array.isArray(report)).toBe(false);
      expect(report.valid).toBe(c.expect.valid);
      if (c.expect.errors) expect(report.errors).toEqual(c.expect.errors);
      if (typeof c.expect.error_count === 'number') expect(report.errors).toHaveLength(c.expect.error_count);
      expect(r.status).toBe(report.valid ? 0 : 1);
    },
  );

  it('keeps a byte-order mark, as Python’s read_text does: the file does not start with ---', () => {
    const dir = path.join(root, 'bom-skill');
    writeTree(dir, { 'SKILL.md': '\uFEFF---\nname: bom-skill\ndescription: Has a BOM.\n---\nbody\n' });
    const report = JSON.parse(validate(dir).stdout) as { valid: boolean; errors: string[] };
    expect(report).toMatchObject({
      valid: false,
      errors: ['SKILL.md must start with YAML frontmatter (---)'],
    });
  });

  it('lists one report per skill for a folder of skills', () => {
    const dir = path.join(root, 'several');
    writeTree(dir, {
      'one/SKILL.md': '---\nname: one\ndescription: First.\n---\n',
      'two/SKILL.md': '---\nname: two\ndescription: Second.\n---\n',
    });
    const reports = JSON.parse(validate(dir).stdout) as { path: string; valid: boolean }[];
    expect(reports.map((r) => [path.basename(r.path), r.valid])).toEqual([
      ['one', true],
      ['two', true],
    ]);
  });
});
