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

beforeAll(async () => {
  root = tempDir();
  writeTree(root, {
    'plain/SKILL.md': rawSkillMd('name: plain\ndescription: A plain valid skill.'),
    'claude/SKILL.md': rawSkillMd(
      'name: claude\ndescription: Claude Code fields.\nwhen_to_use: When reviewing PRs\nargument-hint: "[pr-number]"\n' +
        'disable-model-invocation: true\nuser-invocable: false\nallowed-tools: Bash(git status:*) Read, Write',
    ),
    'routing/SKILL.md': rawSkillMd(
      'name: routing\ndescription: Routing fields.\ntriggers:\n  keywords: [invoice, 发票]\n  hard: ["organize invoices"]\n' +
        'anti_triggers: [weather]\ncost_hint: high\nprerequisites:\n  bins: [pdftotext]\n  env: [OPENAI_API_KEY]\nparallel_safe: true\nalways: false',
    ),
    'trigger-list/SKILL.md': rawSkillMd(
      'name: trigger-list\ndescription: Trigger list.\ntriggers:\n  - one\n  - two',
    ),
    'execution/SKILL.md': rawSkillMd(
      'name: execution\ndescription: Execution fields.\npermissions:\n  filesystem:\n    read: ["./data"]\n    write: [./out]\n' +
        '  network:\n    outbound: [api.example.com, "*.github.com"]\n  environment:\n    allow: [HOME, PATH]\n' +
        'execution_policy:\n  sandbox: process\n  approval: auto\n  timeout: 30\nentrypoints:\n  - name: main\n    path: scripts/main.py\n    description: Main entry\n  - scripts/other.sh',
    ),
    'net-true/SKILL.md': rawSkillMd(
      'name: net-true\ndescription: Network on.\npermissions:\n  network:\n    outbound: true',
    ),
    'apex/SKILL.md': rawSkillMd(
      'name: apex\ndescription: apex-bridge fields.\nmode: direct\npermissions: [fs.read, network]\ntimeout: 5000\ndangerous: true\n' +
        'confirm: "Really delete?"\ntags: [files, cleanup]\ncategory: utilities\nauthor: Ada\nversion: 1.0',
    ),
    'hermes/SKILL.md': rawSkillMd(
      'name: hermes\ndescription: Hermes fields.\nversion: 2.1.0\nplatforms: [macos, linux]\nrequired_environment_variables:\n' +
        '  - { name: TENOR_API_KEY, prompt: "Key?" }\nmetadata:\n  hermes:\n    tags: [gifs]\n    category: media',
    ),
    'sidecar/SKILL.md': rawSkillMd('name: sidecar\ndescription: From the frontmatter.\nlicense: MIT'),
    'sidecar/skill.yaml':
      'description: From skill.yaml.\nspec:\n  type: direct\ntriggers: [side]\ncost_hint: low\nexecution_policy:\n  timeout: 2m\ninvocation:\n  implicit: false\n',
    'bad-sidecar/SKILL.md': rawSkillMd('name: bad-sidecar\ndescription: Sidecar does not parse.'),
    'bad-sidecar/skill.yaml': 'triggers: "unclosed\n',
    'codex/SKILL.md': rawSkillMd('name: codex\ndescription: Has an openai.yaml.'),
    'codex/agents/openai.yaml':
      'interface:\n  display_name: "Codex Skill"\n  short_description: "Short blurb for the card"\n  icon_small: "./assets/small.png"\n' +
      '  icon_large: "./assets/large.svg"\n  brand_color: "#3B82F6"\n  default_prompt: "Use $codex to do it"\npolicy:\n  allow_implicit_invocation: false\n',
    'scripted/SKILL.md': rawSkillMd('name: scripted\ndescription: Has scripts.'),
    'scripted/scripts/run.py': 'print("hi")\n',
    'typed/SKILL.md': rawSkillMd('name: typed\ndescription: Explicit type.\ntype: instruction'),
    'typed/scripts/run.sh': 'echo hi\n',
  });
  catalog = await catalogOf([root]);
});

afterAll(async () => {
  await fsp.rm(root, { recursive: true, force: true });
});

describe('normalized fields', () => {
  it('reads the Claude Code fields', () => {
    expect(meta('claude')).toMatchObject({
      whenToUse: 'When reviewing PRs',
      argumentHint: '[pr-number]',
      invocation: { implicit: false, user: false },
      allowedTools: ['Bash(git status:*)', 'Read', 'Write'],
    });
  });

  it('reads the routing fields, triggers as a list or as keywords + hard', () => {
    expect(meta('routing')).toMatchObject({
      triggers: ['invoice', '发票', 'organize invoices'],
      hardTriggers: ['organize invoices'],
      antiTriggers: ['weather'],
      costHint: 'high',
      requires: { bins: ['pdftotext'], env: ['OPENAI_API_KEY'] },
      parallelSafe: true,
      always: false,
    });
    expect(byDir('routing').triggers).toEqual(['invoice', '发票', 'organize invoices']);
    expect(meta('trigger-list').triggers).toEqual(['one', 'two']);
  });

  it('reads the execution fields', () => {
    const m = meta('execution');
    expect(m.permissions).toEqual({
      filesystem: { read: ['./data'], write: ['./out'] },
      network: { outbound: ['api.example.com', '*.github.com'] },
      environment: { allow: ['HOME', 'PATH'] },
      named: [],
    });
    expect(m.execution).toMatchObject({
      sandbox: 'process',
      approval: 'auto',
      timeoutMs: 30_000,
      dangerous: false,
    });
    expect(m.entrypoints).toEqual([
      { name: 'main', path: 'scripts/main.py', description: 'Main entry' },
      { name: 'other', path: 'scripts/other.sh' },
    ]);
    expect(m.type).toBe('script');
    expect(meta('net-true').permissions.network.outbound).toBe(true);
  });

  it('reads apex-bridge fields', () => {
    const m = meta('apex');
    expect(m).toMatchObject({
      type: 'direct',
      tags: ['files', 'cleanup'],
      category: 'utilities',
      author: 'Ada',
      version: '1.0',
    });
    expect(m.permissions.named).toEqual(['fs.read', 'network']);
    expect(m.execution).toMatchObject({
      timeoutMs: 5000,
      dangerous: true,
      confirm: true,
      confirmMessage: 'Really delete?',
    });
    expect(byDir('apex')).toMatchObject({ version: '1.0', author: 'Ada', type: 'direct' });
  });

  it('reads Hermes fields', () => {
    expect(meta('hermes')).toMatchObject({
      version: '2.1.0',
      requires: { os: ['darwin', 'linux'], env: ['TENOR_API_KEY'] },
      tags: ['gifs'],
      category: 'media',
    });
    expect(byDir('hermes').routable).toBe(true);
  });

  it('lets skill.yaml override the frontmatter, field by field, and records where each came from', () => {
    const m = meta('sidecar');
    expect(m).toMatchObject({
      description: 'From skill.yaml.',
      license: 'MIT',
      type: 'direct',
      triggers: ['side'],
      costHint: 'low',
    });
    expect(m.execution.timeoutMs).toBe(120_000);
    expect(m.invocation.implicit).toBe(false);
    expect(m.fieldSources).toMatchObject({
      name: 'SKILL.md',
      license: 'SKILL.md',
      description: 'skill.yaml',
      type: 'skill.yaml',
      triggers: 'skill.yaml',
    });
    expect(byDir('sidecar')).toMatchObject({ description: 'From skill.yaml.', problems: [] });
  });

  it('warns about a sidecar that does not parse and still loads the skill', () => {
    const s = byDir('bad-sidecar');
    expect(s.routable).toBe(true);
    expect(s.problems).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'sidecar-invalid',
        field: 'skill.yaml',
        line: expect.any(Number),
      }),
    ]);
  });

  it('reads Codex agents/openai.yaml', () => {
    const m = meta('codex');
    expect(m).toMatchObject({
      displayName: 'Codex Skill',
      shortDescription: 'Short blurb for the card',
      icon: './assets/small.png',
      iconLarge: './assets/large.svg',
      brandColor: '#3B82F6',
      defaultPrompt: 'Use $codex to do it',
      invocation: { implicit: false, user: true },
    });
    expect(m.fieldSources.displayName).toBe('agents/openai.yaml');
    expect(byDir('codex').displayName).toBe('Codex Skill');
  });

  it('infers the type: scripts/ with files → script, unless given', () => {
    expect(meta('scripted').type).toBe('script');
    expect(meta('typed').type).toBe('instruction');
    expect(meta('plain').type).toBe('instruction');
  });

  it('produces metadata that satisfies the contract schema for every skill', () => {
    for (const s of catalog.list().skills) {
      const parsed = SkillMetadata.safeParse(catalog.metadata(s.id));
      expect(parsed.success, `${s.id}: ${parsed.error?.message}`).toBe(true);
    }
  });
});
