import fsp from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SkillSummary } from '../../../shared/contract';
import type { SkillCatalog } from './catalog';
import { catalogOf, listedSkill, rawSkillMd, tempDir, writeTree } from '../../testing/fixtures';

let root: string;
let catalog: SkillCatalog;

const byDir = (rel: string): SkillSummary => listedSkill(catalog, root, rel);
const codes = (problems: { severity: string; code: string }[]) =>
  problems.map((p) => `${p.severity}:${p.code}`);
/** Text as single bytes: each character below U+0100 is written as the one byte of that value. */
const latin1 = (text: string) => Buffer.from(text, 'latin1');
/** Text as Windows Notepad saves "Unicode": UTF-16 with a byte-order mark and CRLF. */
const utf16 = (text: string, order: 'le' | 'be') => {
  const le = Buffer.from(`\uFEFF${text.replace(/\n/g, '\r\n')}`, 'utf16le');
  return order === 'le' ? le : Buffer.from(le).swap16();
};

beforeAll(async () => {
  root = tempDir();
  writeTree(root, {
    'utf8-accents/SKILL.md': rawSkillMd('name: utf8-accents\ndescription: Un café, 你好, 🦞.'),
    'latin1/SKILL.md': latin1(rawSkillMd('name: latin1\ndescription: Un café pour tous.')),
    'latin1-body/SKILL.md': latin1(
      rawSkillMd('name: latin1-body\ndescription: Plain.', '# Menu\n\nCrème brûlée\n'),
    ),
    // 你好 in GBK: two bytes a character, none of them valid UTF-8 here.
    'gbk/SKILL.md': Buffer.concat([
      Buffer.from('---\nname: gbk\ndescription: Says '),
      Buffer.from([0xc4, 0xe3, 0xba, 0xc3]),
      Buffer.from('.\n---\nBody\n'),
    ]),
    'notepad-le/SKILL.md': utf16(rawSkillMd('name: notepad-le\ndescription: Un café 🦞.'), 'le'),
    'notepad-be/SKILL.md': utf16(rawSkillMd('name: notepad-be\ndescription: Big-endian.'), 'be'),
    'notepad-long/SKILL.md': utf16(
      rawSkillMd('name: notepad-long\ndescription: Longer than the first read.', 'Step.\n'.repeat(2000)),
      'le',
    ),
    // The frontmatter does not close within the scan's first read: the whole file is read.
    'latin1-long/SKILL.md': latin1(
      rawSkillMd(`name: latin1-long\ndescription: Déjà vu.\nlicense: ${'x'.repeat(5000)}`),
    ),
  });
  catalog = await catalogOf([root]);
});

afterAll(async () => {
  await fsp.rm(root, { recursive: true, force: true });
});

describe('SKILL.md that is not valid UTF-8', () => {
  it('reads valid UTF-8 with accents, CJK and emoji without a problem', () => {
    expect(byDir('utf8-accents')).toMatchObject({ description: 'Un café, 你好, 🦞.', problems: [] });
  });

  it('is listed and routable, with a warning naming the byte, its line and the encoding it looks like', async () => {
    const s = byDir('latin1');
    expect(s).toMatchObject({ name: 'latin1', description: 'Un caf\uFFFD pour tous.', routable: true });
    expect(codes(s.problems)).toEqual(['warning:not-utf8']);
    const [problem] = s.problems;
    expect(problem.line).toBe(3);
    expect(problem.message).toBe(
      'SKILL.md is not valid UTF-8 (byte 0xE9 on line 3; it looks like Latin-1 (Windows-1252), where 0xE9 is "é"). ' +
        'Those bytes show as �; save the file as UTF-8, which `skills validate` and other tools require.',
    );
    // The strict report says the same thing.
    expect(await catalog.validate(s.id)).toEqual({ valid: false, errors: ['SKILL.md is not valid UTF-8'] });
    // The detail, read in full, reports it as the list does.
    expect((await catalog.get(s.id)).problems).toEqual(s.problems);
  });

  it('notices a bad byte in the start of the body the scan read, and one past the first read', async () => {
    expect(byDir('latin1-body').problems).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'not-utf8', line: 7 }),
    ]);
    expect(byDir('latin1-long').problems).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'not-utf8', line: 3 }),
    ]);
    expect(byDir('latin1-long').description).toBe('D\uFFFDj\uFFFD vu.');
  });

  it('says when the bytes look like a double-byte encoding', () => {
    const [problem] = byDir('gbk').problems;
    expect(problem).toMatchObject({ code: 'not-utf8', line: 3 });
    expect(problem.message).toContain(
      'byte 0xC4 on line 3; it looks like a double-byte encoding such as GBK',
    );
  });
});

describe('SKILL.md saved as UTF-16 with a byte-order mark', () => {
  it('is decoded and loaded, with a warning to save it as UTF-8', async () => {
    const s = byDir('notepad-le');
    expect(s).toMatchObject({ name: 'notepad-le', description: 'Un café 🦞.', routable: true });
    expect(s.problems).toEqual([
      {
        severity: 'warning',
        code: 'utf16',
        line: 1,
        message:
          'SKILL.md is saved as UTF-16 (little-endian, with a byte-order mark), as Windows Notepad saves "Unicode" text. ' +
          'SkillDeck read it, but `skills validate` and other tools need UTF-8: save it as UTF-8.',
      },
    ]);
    const detail = await catalog.get(s.id);
    expect(detail.problems).toEqual(s.problems);
    expect(detail.body).toBe('# Instructions\n\nDo the thing.\n');
    // The reference validator reads UTF-8 only, and so does `skills validate`.
    expect(detail.validation).toEqual({ valid: false, errors: ['SKILL.md is not valid UTF-8'] });
  });

  it('reads big-endian too, and a file longer than the first read', async () => {
    expect(byDir('notepad-be')).toMatchObject({ description: 'Big-endian.', routable: true });
    expect(codes(byDir('notepad-be').problems)).toEqual(['warning:utf16']);
    expect(byDir('notepad-be').problems[0].message).toContain('(big-endian,');
    expect(byDir('notepad-long')).toMatchObject({
      description: 'Longer than the first read.',
      routable: true,
    });
    expect(codes(byDir('notepad-long').problems)).toEqual(['warning:utf16']);
    expect(catalog.bodyText(byDir('notepad-long').id)).toMatch(/^Step\.\nStep\.\n/);
  });
});
