import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rawSkillMd, tempDir, writeTree } from '../../testing/fixtures';
import { parseFrontmatter, readProperties, toPrompt, validateMetadata, validateSkillDir } from './validator';

// The skills-ref port rule by rule, on real folders (validator.test.ts runs the reference's
// own cases from the corpus): the edges of each rule, with the reference's messages.
const root = tempDir('skilldeck-validator-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let count = 0;

/** A skill folder named `name` holding SKILL.md with `content`. */
function skill(name: string, content: string | Buffer): string {
  const dir = path.join(root, `case${++count}`, name);
  writeTree(dir, { 'SKILL.md': content });
  return dir;
}
const errors = async (name: string, frontmatter: string) =>
  (await validateSkillDir(skill(name, rawSkillMd(frontmatter)))).errors;
const parseError = (content: string) => {
  try {
    parseFrontmatter(content);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a ParseError');
};

describe('parseFrontmatter', () => {
  it('cuts at the first --- after the opening one, wherever it sits, and trims the body', () => {
    expect(parseFrontmatter('---\nname: a\ndescription: b---\n\n  # Body\n\n')).toEqual({
      metadata: { name: 'a', description: 'b' },
      body: '# Body',
    });
  });

  it('refuses a frontmatter that is not a mapping: empty, a scalar or a list', () => {
    for (const yaml of ['', 'just text', '- a\n- b'])
      expect(parseError(`---\n${yaml}\n---\n`), yaml).toBe('SKILL.md frontmatter must be a YAML mapping');
  });

  it('refuses anchors without aliases and tags on scalars or collections, as strictyaml does', () => {
    expect(parseError('---\nname: &x a\n---\n')).toBe(
      'Invalid YAML in frontmatter: anchors and aliases are not allowed (strictyaml)',
    );
    expect(parseError('---\nname: !!str a\n---\n')).toBe(
      'Invalid YAML in frontmatter: tags (tag:yaml.org,2002:str) are not allowed (strictyaml)',
    );
    expect(parseError('---\nmetadata: !!map\n  a: b\n---\n')).toBe(
      'Invalid YAML in frontmatter: tags (tag:yaml.org,2002:map) are not allowed (strictyaml)',
    );
  });

  it("writes nested metadata values as Python's str() would", () => {
    const { metadata } = parseFrontmatter(
      [
        '---',
        'metadata:',
        '  plain: v',
        '  nested:',
        '    empty:',
        '    list:',
        '      - x',
        '      - "it\'s"',
        "    quotes: 'both '' and \"'",
        '    escapes: "a\\\\b\\nc\\rd\\te"',
        '---',
        '',
      ].join('\n'),
    );
    expect(metadata.metadata).toEqual({
      plain: 'v',
      nested: `{'empty': '', 'list': ['x', "it's"], 'quotes': 'both \\' and "', 'escapes': 'a\\\\b\\nc\\rd\\te'}`,
    });
  });
});

describe('validateSkillDir', () => {
  it('reads UTF-8 only, with any line ends', async () => {
    const invalid = skill(
      'bad-bytes',
      Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a]),
    );
    expect((await validateSkillDir(invalid)).errors).toEqual(['SKILL.md is not valid UTF-8']);
    for (const [name, eol] of [
      ['crlf', '\r\n'],
      ['cr', '\r'],
    ]) {
      const text = ['---', `name: ${name}`, 'description: d', '---', 'body', ''].join(eol);
      expect(await validateSkillDir(skill(name, text)), name).toEqual({ valid: true, errors: [] });
    }
  });

  it('names every unexpected field, sorted', async () => {
    expect(await errors('x', 'name: x\ndescription: d\nzeta: 1\nalpha: 2')).toEqual([
      "Unexpected fields in frontmatter: alpha, zeta. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed.",
    ]);
  });

  it('says which required field is missing', async () => {
    expect(await errors('x', 'description: d')).toEqual(['Missing required field in frontmatter: name']);
    expect(await errors('x', 'name: x')).toEqual(['Missing required field in frontmatter: description']);
  });

  it('takes each length limit exactly, and refuses one character more', async () => {
    const name = 'a'.repeat(64);
    expect(await errors(name, `name: ${name}\ndescription: d`)).toEqual([]);
    expect(await errors('x', `name: x\ndescription: ${'d'.repeat(1024)}`)).toEqual([]);
    expect(await errors('x', `name: x\ndescription: ${'d'.repeat(1025)}`)).toEqual([
      'Description exceeds 1024 character limit (1025 chars)',
    ]);
    expect(await errors('x', `name: x\ndescription: d\ncompatibility: ${'c'.repeat(500)}`)).toEqual([]);
  });

  it('reads the name without surrounding spaces', async () => {
    expect(await errors('padded', "name: '  padded  '\ndescription: d")).toEqual([]);
    expect(await errors('x', "name: '   '\ndescription: d")).toEqual([
      "Field 'name' must be a non-empty string",
    ]);
    expect(await errors('x', 'name:\n  - x\ndescription: d')).toEqual([
      "Field 'name' must be a non-empty string",
    ]);
  });

  it('checks the type of compatibility and allowed-tools', async () => {
    expect(await errors('x', 'name: x\ndescription: d\ncompatibility:\n  - a')).toEqual([
      "Field 'compatibility' must be a string",
    ]);
    expect(await errors('x', 'name: x\ndescription: d\nallowed-tools:\n  - Read\n  - Bash')).toEqual([]);
    expect(await errors('x', 'name: x\ndescription: d\nallowed-tools: Read Bash')).toEqual([]);
    expect(await errors('x', 'name: x\ndescription: d\nallowed-tools:\n  - Read\n  - a: b')).toEqual([
      "Field 'allowed-tools' list items must all be strings",
    ]);
    expect(await errors('x', 'name: x\ndescription: d\nallowed-tools:\n  a: b')).toEqual([
      "Field 'allowed-tools' must be either a string or a list of strings",
    ]);
  });

  it('reports a frontmatter it cannot parse as its one error', async () => {
    expect((await validateSkillDir(skill('x', '---\nname: &a x\n---\n'))).errors).toEqual([
      'Invalid YAML in frontmatter: anchors and aliases are not allowed (strictyaml)',
    ]);
  });

  it('validateMetadata leaves the folder name alone when given none', () => {
    expect(validateMetadata({ name: 'any-name', description: 'd' })).toEqual([]);
  });
});

describe('readProperties', () => {
  it('trims name and description, and returns only the fields that are there', async () => {
    const props = await readProperties(skill('x', rawSkillMd('name: "  x  "\ndescription: "  d  "')));
    expect(props).toStrictEqual({ name: 'x', description: 'd' });
  });

  it('joins a list of allowed tools, and keeps license, compatibility and metadata', async () => {
    const dir = skill(
      'x',
      rawSkillMd(
        'name: x\ndescription: d\nlicense: MIT\ncompatibility: linux\nallowed-tools:\n  - Read\n  - Bash\nmetadata:\n  k: v',
      ),
    );
    expect(await readProperties(dir)).toStrictEqual({
      name: 'x',
      description: 'd',
      license: 'MIT',
      compatibility: 'linux',
      'allowed-tools': 'Read Bash',
      metadata: { k: 'v' },
    });
  });

  it('drops metadata that is not a mapping', async () => {
    for (const meta of ['metadata:', 'metadata: text'])
      expect(
        await readProperties(skill('x', rawSkillMd(`name: x\ndescription: d\n${meta}`))),
        meta,
      ).toStrictEqual({
        name: 'x',
        description: 'd',
      });
  });

  it('refuses empty required fields and allowed-tools that are not strings', async () => {
    const refusal = (frontmatter: string) =>
      readProperties(skill('x', rawSkillMd(frontmatter))).catch((e: Error) => e.message);
    for (const name of ["''", "'  '"])
      expect(await refusal(`name: ${name}\ndescription: d`), name).toBe(
        "Field 'name' must be a non-empty string",
      );
    expect(await refusal("name: x\ndescription: ' '")).toBe("Field 'description' must be a non-empty string");
    // A list is all strings or refused, even when its first item is one.
    for (const tools of [
      'allowed-tools:\n  - a: b',
      'allowed-tools:\n  - Read\n  - a: b',
      'allowed-tools:\n  a: b',
    ])
      expect(await refusal(`name: x\ndescription: d\n${tools}`), tools).toBe(
        "Field 'allowed-tools' must be either a string or a list of strings",
      );
  });
});

describe('toPrompt', () => {
  it('writes each skill as escaped XML lines, with where its file is', async () => {
    const dir = skill('x', rawSkillMd('name: x\ndescription: Use "quotes" & \'apostrophes\' <here>'));
    expect(await toPrompt([dir])).toBe(
      [
        '<available_skills>',
        '<skill>',
        '<name>',
        'x',
        '</name>',
        '<description>',
        'Use &quot;quotes&quot; &amp; &#x27;apostrophes&#x27; &lt;here&gt;',
        '</description>',
        '<location>',
        path.join(dir, 'SKILL.md'),
        '</location>',
        '</skill>',
        '</available_skills>',
      ].join('\n'),
    );
  });
});
