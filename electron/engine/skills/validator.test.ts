import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  findSkillMd,
  parseFrontmatter,
  readProperties,
  SkillsRefError,
  toPrompt,
  validateSkillDir,
} from './validator';
import { corpusDir, tempDir } from '../../testing/fixtures';

interface Case {
  id: string;
  api: 'validate' | 'parse_frontmatter' | 'read_properties' | 'find_skill_md' | 'to_prompt';
  fixture?: string;
  note: string;
  expect: Record<string, unknown>;
}

const casesDir = path.join(corpusDir(), 'validator-cases');
const { cases } = JSON.parse(fs.readFileSync(path.join(casesDir, 'cases.json'), 'utf8')) as { cases: Case[] };

/** The fixture folders of a case; `a/skill-a + skill-b` names two siblings. */
function fixtures(c: Case): string[] {
  if (!c.fixture) return [];
  const [first, ...others] = c.fixture.split(' + ');
  const dir = path.join(casesDir, first);
  return [dir, ...others.map((o) => path.join(path.dirname(dir), o))];
}

/** The file a `validate` case runs on (`not-a-directory` names the file inside its fixture). */
async function validateTarget(c: Case): Promise<string> {
  if (c.id === 'nonexistent-path') return path.join(tempDir(), 'nonexistent');
  const [dir] = fixtures(c);
  return c.id === 'not-a-directory' ? path.join(dir, 'file.txt') : dir;
}

function expectMessage(message: string, e: Record<string, unknown>): void {
  for (const word of (e.error_contains as string[] | undefined) ?? []) expect(message).toContain(word);
  if (typeof e.error_regex === 'string') expect(message).toMatch(new RegExp(e.error_regex));
}

async function caught(p: Promise<unknown> | (() => unknown)): Promise<SkillsRefError> {
  const err = await Promise.resolve()
    .then(() => (typeof p === 'function' ? p() : p))
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(err).toBeInstanceOf(SkillsRefError);
  return err as SkillsRefError;
}

describe('skills-ref validator cases', () => {
  it('has cases for all five APIs', () => {
    expect(new Set(cases.map((c) => c.api))).toEqual(
      new Set(['validate', 'parse_frontmatter', 'read_properties', 'find_skill_md', 'to_prompt']),
    );
  });

  for (const c of cases) {
    it(`${c.api}: ${c.id}`, async () => {
      const e = c.expect;
      if (c.api === 'validate') {
        const report = await validateSkillDir(await validateTarget(c));
        expect(report.valid).toBe(e.valid);
        if (Array.isArray(e.errors)) expect(report.errors).toEqual(e.errors);
        if (typeof e.error_count === 'number') expect(report.errors).toHaveLength(e.error_count);
        expectMessage(report.errors.join('\n'), e);
      } else if (c.api === 'parse_frontmatter') {
        const file = await findSkillMd(fixtures(c)[0]);
        if (!file) throw new Error(`fixture ${c.fixture} has no SKILL.md`);
        const content = fs.readFileSync(file, 'utf8');
        if (e.ok) {
          const { metadata, body } = parseFrontmatter(content);
          expect(metadata).toEqual(e.metadata);
          expect(body).toContain(e.body_contains);
        } else {
          const err = await caught(() => parseFrontmatter(content));
          expect(err.kind).toBe(e.error);
          expectMessage(err.message, e);
        }
      } else if (c.api === 'read_properties') {
        if (e.ok) expect(await readProperties(fixtures(c)[0])).toMatchObject(e.properties as object);
        else {
          const err = await caught(readProperties(fixtures(c)[0]));
          expect(err.kind).toBe(e.error);
          expectMessage(err.message, e);
        }
      } else if (c.api === 'find_skill_md') {
        const found = await findSkillMd(fixtures(c)[0]);
        if ('found' in e) expect(found === null ? null : path.basename(found)).toBe(e.found);
        if ('found_case_insensitive' in e)
          expect(path.basename(found ?? '').toLowerCase()).toBe(e.found_case_insensitive);
      } else {
        const dirs = fixtures(c);
        const output = await toPrompt(dirs);
        if (typeof e.output === 'string') expect(output).toBe(e.output);
        for (const s of (e.output_contains as string[] | undefined) ?? []) expect(output).toContain(s);
        for (const s of (e.output_not_contains as string[] | undefined) ?? [])
          expect(output).not.toContain(s);
        for (const [key, count] of Object.entries(e)) {
          const m = /^count\('(.+)'\)$/.exec(key);
          if (m) expect(output.split(m[1]).length - 1).toBe(count);
        }
        for (const dir of dirs) expect(output).toContain(path.join(dir, 'SKILL.md'));
      }
    });
  }
});

describe('strictyaml emulation', () => {
  it('keeps scalars as written and coerces metadata values to strings', () => {
    const { metadata } = parseFrontmatter(
      '---\nname: a\ndescription: b\nmetadata:\n  version: 1.0\n  flag: true\n  nested:\n    k: v\n---\n',
    );
    expect(metadata.metadata).toEqual({ version: '1.0', flag: 'true', nested: "{'k': 'v'}" });
  });

  it('refuses flow style, anchors and duplicate keys, as strictyaml does', () => {
    for (const yaml of ['name: a\nmetadata: {"x": "y"}', 'name: &n a\ndescription: *n', 'name: a\nname: b']) {
      expect(() => parseFrontmatter(`---\n${yaml}\n---\n`)).toThrow(/Invalid YAML in frontmatter/);
    }
  });

  it('reports every rule that fails, with the reference messages', async () => {
    const dir = path.join(tempDir(), 'Bad--Dir-');
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, 'SKILL.md'),
      `---\nname: Bad--Dir-\ndescription: "  "\ncompatibility: ${'c'.repeat(501)}\nhomepage: x\n---\n`,
    );
    const report = await validateSkillDir(dir);
    expect(report.valid).toBe(false);
    expect(report.errors).toEqual([
      "Unexpected fields in frontmatter: homepage. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed.",
      "Skill name 'Bad--Dir-' must be lowercase",
      'Skill name cannot start or end with a hyphen',
      'Skill name cannot contain consecutive hyphens',
      "Field 'description' must be a non-empty string",
      'Compatibility exceeds 500 character limit (501 chars)',
    ]);
  });
});
