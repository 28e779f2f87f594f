import fsp from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SkillMetadata, SkillSummary } from '../../../shared/contract';
import type { SkillCatalog } from './catalog';
import { catalogOf, listedSkill, rawSkillMd, tempDir, writeTree } from '../../testing/fixtures';

let root: string;
let catalog: SkillCatalog;

const byDir = (rel: string): SkillSummary => listedSkill(catalog, root, rel);
const meta = (rel: string): SkillMetadata => {
  const m = catalog.metadata(path.join(root, rel));
  if (!m) throw new Error(`no metadata for ${rel}`);
  return m;
};
const codes = (rel: string) => byDir(rel).problems.map((p) => `${p.severity}:${p.code}`);
const errors = (rel: string) => byDir(rel).problems.filter((p) => p.severity === 'error');

beforeAll(async () => {
  root = tempDir();
  writeTree(root, {
    'plain/SKILL.md': rawSkillMd('name: plain\ndescription: A plain valid skill.'),
    'bom-crlf/SKILL.md': '\uFEFF---\r\nname: bom-crlf\r\ndescription: Saved on Windows.\r\n---\r\n# Body\r\n',
    'lower/skill.md': rawSkillMd('name: lower\ndescription: Lowercase file name.'),
    'mixed/Skill.md': rawSkillMd('name: mixed\ndescription: Mixed-case file name.'),
    'both/SKILL.md': rawSkillMd('name: both\ndescription: Upper wins.'),
    'both/skill.md': rawSkillMd('name: both\ndescription: Lower loses.'),
    'colon/SKILL.md': rawSkillMd(
      'name: colon\ndescription: Use when: the user asks for colons\nlicense: MIT',
    ),
    'hint/SKILL.md': rawSkillMd(
      'name: hint\ndescription: Has an argument hint.\nargument-hint: [file] [mode]',
    ),
    'claw/SKILL.md': rawSkillMd(
      'name: claw\ndescription: OpenClaw style.\nmetadata: {"openclaw": {"emoji": "🦞", "homepage": "https://claw.example", "always": true, "primaryEnv": "CLAW_KEY", ' +
        '"requires": {"bins": ["jq"], "anyBins": ["rg", "grep"], "env": ["CLAW_KEY"], "config": ["browser.enabled"]}, ' +
        '"os": ["linux", "darwin"], "install": [{"id": "brew", "kind": "brew", "formula": "jq", "bins": ["jq"]}]}}',
    ),
    'clawdbot/SKILL.md': rawSkillMd(
      'name: clawdbot\ndescription: Legacy key, JSON5 style.\nmetadata:\n  {\n    clawdbot: { emoji: "x", requires: { bins: ["curl",], }, },\n  }',
    ),
    'json5/SKILL.md': rawSkillMd(
      'name: json5\ndescription: Stray backslash.\nmetadata: {"clawdbot":{"requires":{"bins":\\["curl","jq"]}}}',
    ),
    // The factory-ai corpus skill: the JSON lacks its final `}`.
    'unclosed-json/SKILL.md': rawSkillMd(
      'name: unclosed-json\ndescription: Missing brace.\nmetadata: {"clawdbot":{"emoji":"🤖","requires":{"bins":["droid"]}}',
    ),
    'mismatched-json/SKILL.md': rawSkillMd(
      'name: mismatched-json\ndescription: Wrong bracket.\nmetadata: {"clawdbot": {"requires": {"bins": ["curl"}}}',
    ),
    'text-metadata/SKILL.md': rawSkillMd(
      'name: text-metadata\ndescription: Text.\nmetadata: use when: asked',
    ),
    'open-hint/SKILL.md': rawSkillMd('name: open-hint\ndescription: Hint.\nargument-hint: [file] [mode'),
    'mac-only/SKILL.md': rawSkillMd(
      'name: mac-only\ndescription: macOS only.\nmetadata: {"openclaw": {"os": ["darwin"]}}',
    ),
    'conflict/SKILL.md': rawSkillMd(
      'name: conflict\ndescription: Has conflict markers.\n<<<<<<< HEAD\nlicense: MIT\n=======\nlicense: Apache-2.0\n>>>>>>> theirs',
    ),
    'parent/SKILL.md': rawSkillMd('name: parent\ndescription: Outer skill.'),
    'parent/child/SKILL.md': rawSkillMd('name: child\ndescription: Nested skill.'),
    '1/2/3/4/5/six/SKILL.md': rawSkillMd('name: six\ndescription: Six levels deep.'),
    '1/2/3/4/5/6/seven/SKILL.md': rawSkillMd('name: seven\ndescription: Seven levels deep.'),
    '.git/hidden/SKILL.md': rawSkillMd('name: in-git\ndescription: Never found.'),
    'node_modules/dep/SKILL.md': rawSkillMd('name: in-deps\ndescription: Never found.'),
    '.cache/x/SKILL.md': rawSkillMd('name: in-cache\ndescription: Never found.'),
    'repo/.claude/skills/cc/SKILL.md': rawSkillMd('name: cc\ndescription: Claude Code folder inside a root.'),
    'no-desc/SKILL.md': rawSkillMd('name: no-desc'),
    'empty-desc/SKILL.md': rawSkillMd('name: empty-desc\ndescription: ""'),
    'other-name/SKILL.md': rawSkillMd('name: the-name\ndescription: Name differs from folder.'),
    'no-name/SKILL.md': rawSkillMd('description: Has no name.'),
    'bad-name/SKILL.md': rawSkillMd(`name: Bad_Name_${'x'.repeat(70)}\ndescription: Long, invalid name.`),
    'long-desc/SKILL.md': rawSkillMd(`name: long-desc\ndescription: ${'d'.repeat(1100)}`),
    'broken/SKILL.md': rawSkillMd(
      'name: broken\ndescription: "Broken YAML, the quote never closes.\nlicense: MIT',
    ),
    'none/SKILL.md': '# Just Markdown\n\nNo frontmatter here.\n',
    // A billion laughs: aliases of aliases, which the YAML parser refuses to expand.
    'alias-bomb/SKILL.md': rawSkillMd(
      ['name: alias-bomb', 'description: Expands forever.', 'a: &a [x, x, x, x, x, x, x, x, x]']
        .concat(
          ['b', 'c', 'd', 'e', 'f', 'g'].map(
            (k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefg'[i]}`).join(', ')}]`,
          ),
        )
        .join('\n'),
    ),
    'unclosed/SKILL.md': '---\nname: unclosed\ndescription: Never closed.\n\n# Body\n',
    'late/SKILL.md': '<!-- generated -->\n---\nname: late\ndescription: Starts after a comment.\n---\nBody\n',
    'list-fm/SKILL.md': rawSkillMd('- a\n- b'),
    'dupe-key/SKILL.md': rawSkillMd('name: dupe-key\ndescription: first\ndescription: second'),
    'types/SKILL.md': rawSkillMd(
      'name: types\ndescription: Wrong types.\nparallel_safe: maybe\ntags: {a: b}\ncost_hint: extreme\nversion: [1]',
    ),
    'extra-fields/SKILL.md': rawSkillMd(
      'name: extra-fields\ndescription: Unknown fields.\nmodel: opus\nx-custom:\n  nested: true\nrequires:\n  mcp: [rube]',
    ),
  });
  catalog = await catalogOf([root]);
});

afterAll(async () => {
  await fsp.rm(root, { recursive: true, force: true });
});

describe('lenient parsing', () => {
  it('loads a plain valid skill with no problems', () => {
    const s = byDir('plain');
    expect(s).toMatchObject({
      name: 'plain',
      description: 'A plain valid skill.',
      routable: true,
      problems: [],
      type: 'instruction',
    });
    expect(s.file).toBe(path.join(root, 'plain', 'SKILL.md'));
    expect(SkillSummary.safeParse(s).success).toBe(true);
  });

  it('strips a BOM and CRLF line ends', () => {
    const s = byDir('bom-crlf');
    expect(s).toMatchObject({ name: 'bom-crlf', description: 'Saved on Windows.', routable: true });
    expect(codes('bom-crlf')).toEqual(['warning:bom']);
  });

  it('accepts skill.md and Skill.md, and prefers SKILL.md', () => {
    expect(byDir('lower')).toMatchObject({
      name: 'lower',
      routable: true,
      file: path.join(root, 'lower', 'skill.md'),
    });
    expect(codes('lower')).toEqual(['warning:skill-file-name']);
    expect(byDir('mixed').file).toBe(path.join(root, 'mixed', 'Skill.md'));
    expect(byDir('both')).toMatchObject({ description: 'Upper wins.', problems: [] });
  });

  it('retries an unquoted ": " as a quoted string, with a warning saying what to quote', () => {
    const s = byDir('colon');
    expect(s).toMatchObject({ description: 'Use when: the user asks for colons', routable: true });
    expect(s.problems).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'yaml-recovered', field: 'description', line: 3 }),
    ]);
    expect(s.problems[0].message).toMatch(/quotes/);
    expect(meta('colon').license).toBe('MIT');
  });

  it('reads `argument-hint: [a] [b]` as text', () => {
    expect(meta('hint').argumentHint).toBe('[file] [mode]');
    expect(codes('hint')).toEqual(['warning:yaml-recovered']);
  });

  it('reads flow-style OpenClaw metadata', () => {
    const m = meta('claw');
    expect(m).toMatchObject({
      emoji: '🦞',
      homepage: 'https://claw.example',
      always: true,
      primaryEnv: 'CLAW_KEY',
    });
    expect(m.requires).toEqual({
      bins: ['jq'],
      anyBins: ['rg', 'grep'],
      env: ['CLAW_KEY'],
      config: ['browser.enabled'],
      os: ['linux', 'darwin'],
    });
    expect(m.install).toEqual([{ id: 'brew', kind: 'brew', formula: 'jq', bins: ['jq'] }]);
    expect(m.metadata).toHaveProperty('openclaw.emoji', '🦞');
    expect(byDir('claw')).toMatchObject({ emoji: '🦞', routable: true, problems: [] });
  });

  it('reads legacy clawdbot metadata written JSON5-style, and recovers broken JSON', () => {
    expect(meta('clawdbot').requires.bins).toEqual(['curl']);
    expect(byDir('clawdbot').problems).toEqual([]);
    expect(meta('json5').requires.bins).toEqual(['curl', 'jq']);
    expect(byDir('json5').problems).toEqual([
      expect.objectContaining({ code: 'yaml-recovered', field: 'metadata' }),
    ]);
  });

  it('reads JSON metadata that lacks its last `}` as if it were there, with one warning saying so', () => {
    expect(byDir('unclosed-json').problems).toEqual([
      {
        severity: 'warning',
        code: 'yaml-recovered',
        field: 'metadata',
        line: 4,
        message:
          '`metadata` in the frontmatter is not valid JSON: it ends without its closing `}`. It was read as if `}` were at the end; add it there.',
      },
    ]);
    expect(meta('unclosed-json')).toMatchObject({ emoji: '🤖', requires: { bins: ['droid'] } });
    // Text that opens a `[` is still text, with the advice to quote it.
    expect(meta('open-hint').argumentHint).toBe('[file] [mode');
    expect(codes('open-hint')).toEqual(['warning:yaml-recovered']);
  });

  it('says once that a value read as text was ignored, without advice to quote it', () => {
    // Not fixed by closing, or not JSON at all: read as text, which metadata cannot use.
    for (const dir of ['mismatched-json', 'text-metadata']) {
      expect(byDir(dir).problems).toEqual([
        expect.objectContaining({ severity: 'warning', code: 'field-type', field: 'metadata', line: 4 }),
      ]);
      expect(byDir(dir).problems[0].message).toMatch(
        /^`metadata` in the frontmatter should be a mapping .*; it was ignored\.$/,
      );
    }
  });

  it('lists a skill whose os excludes this platform, with a warning, not routable', () => {
    const s = byDir('mac-only');
    expect(s.routable).toBe(false);
    expect(codes('mac-only')).toEqual(['warning:os-unsupported']);
  });

  it('reports merge-conflict markers as an error', () => {
    expect(errors('conflict')).toEqual([expect.objectContaining({ code: 'merge-conflict', line: 4 })]);
    expect(byDir('conflict').routable).toBe(false);
    expect(meta('conflict').license).toBe('MIT');
  });

  it('reports missing or empty descriptions as errors: listed, not routable', () => {
    for (const dir of ['no-desc', 'empty-desc']) {
      expect(byDir(dir).routable).toBe(false);
      expect(errors(dir)).toEqual([
        expect.objectContaining({ code: 'description-missing', field: 'description' }),
      ]);
    }
  });

  it('warns about name problems but still loads', () => {
    expect(byDir('other-name')).toMatchObject({ name: 'the-name', routable: true });
    expect(codes('other-name')).toEqual(['warning:name-dir-mismatch']);
    expect(byDir('no-name')).toMatchObject({ name: 'no-name', routable: true });
    expect(codes('no-name')).toEqual(['warning:name-missing']);
    expect(codes('bad-name')).toEqual([
      'warning:name-dir-mismatch',
      'warning:name-too-long',
      'warning:name-invalid',
    ]);
    expect(codes('long-desc')).toEqual(['warning:description-too-long']);
  });

  it('lists broken YAML with its error and line while the others still load', () => {
    const s = byDir('broken');
    expect(s.routable).toBe(false);
    const [problem] = errors('broken');
    expect(problem).toMatchObject({ code: 'yaml-invalid', line: expect.any(Number) });
    expect(problem.message).toContain(`line ${problem.line}`);
    expect(s.name).toBe('broken');
    expect(byDir('plain').routable).toBe(true);
  });

  it('reads a YAML alias bomb as invalid YAML, not as a file it could not read', () => {
    expect(byDir('alias-bomb').routable).toBe(false);
    const [problem] = errors('alias-bomb');
    expect(problem.code).toBe('yaml-invalid');
    expect(problem.message).not.toMatch(/permissions/);
  });

  it('reports no frontmatter, unclosed frontmatter, misplaced frontmatter and a non-mapping', () => {
    expect(errors('none').map((p) => p.code)).toEqual(['no-frontmatter']);
    expect(byDir('none')).toMatchObject({ name: 'none', description: '', routable: false });
    expect(errors('unclosed').map((p) => p.code)).toEqual(['frontmatter-unclosed']);
    expect(byDir('unclosed')).toMatchObject({ name: 'unclosed', description: 'Never closed.' });
    expect(errors('late')).toEqual([expect.objectContaining({ code: 'frontmatter-not-at-start', line: 2 })]);
    expect(byDir('late')).toMatchObject({ name: 'late', routable: false });
    expect(errors('list-fm').map((p) => p.code)).toEqual(['frontmatter-not-mapping', 'description-missing']);
  });

  it('keeps the last of duplicate keys, with a warning', () => {
    expect(byDir('dupe-key').description).toBe('second');
    expect(byDir('dupe-key').problems).toEqual([
      expect.objectContaining({ code: 'yaml-duplicate-key', field: 'description', line: 4 }),
    ]);
  });

  it('turns wrong types into warnings naming the field, never a crash', () => {
    const s = byDir('types');
    expect(s.routable).toBe(true);
    expect(s.problems.map((p) => [p.code, p.field])).toEqual([
      ['field-type', 'version'],
      ['field-type', 'parallel_safe'],
      ['field-type', 'cost_hint'],
      ['field-type', 'tags'],
    ]);
    expect(meta('types')).toMatchObject({ parallelSafe: false, costHint: 'medium', tags: [] });
  });

  it('keeps unknown fields in `extra`, without problems', () => {
    expect(meta('extra-fields').extra).toEqual({
      model: 'opus',
      'x-custom': { nested: 'true' },
      requires: { mcp: ['rube'] },
    });
    expect(byDir('extra-fields').problems).toEqual([]);
  });
});

describe('discovery inside a root', () => {
  it('finds a skill nested in a skill as its own skill', () => {
    expect(byDir('parent').name).toBe('parent');
    expect(byDir('parent/child').name).toBe('child');
  });

  it('scans six levels deep and no deeper', () => {
    expect(byDir('1/2/3/4/5/six').name).toBe('six');
    expect(catalog.list().skills.some((s) => s.name === 'seven')).toBe(false);
  });

  it('skips .git, node_modules and other dot-folders, but not .claude', () => {
    const names = catalog.list().skills.map((s) => s.name);
    expect(names).not.toContain('in-git');
    expect(names).not.toContain('in-deps');
    expect(names).not.toContain('in-cache');
    expect(byDir('repo/.claude/skills/cc').name).toBe('cc');
  });
});
