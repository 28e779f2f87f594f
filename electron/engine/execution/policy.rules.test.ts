import { beforeAll, describe, expect, it } from 'vitest';
import type { SkillMetadata } from '../../../shared/contract';
import { catalogOf, skillMd, tempDir, writeTree } from '../../testing/fixtures';
import {
  coveredBy,
  DEFAULT_TIMEOUT_MS,
  isForbiddenEnv,
  MAX_TIMEOUT_MS,
  permissionsDigest,
  resolveGrantPath,
  resolvePolicy,
  staticPrefix,
} from './policy';

// The policy rules one at a time (DESIGN §4). policy.test.ts reads them from real skill
// files in every format; here one real skill's metadata is varied field by field.
const ctx = { workDir: '/runs/r1/work', skillDir: '/skills/s', workspace: '/ws', home: '/home/u' };
let base: SkillMetadata;

beforeAll(async () => {
  const dir = tempDir('skilldeck-policy-');
  writeTree(dir, { 'plain/SKILL.md': skillMd('plain', 'Instructions only.') });
  const catalog = await catalogOf([dir]);
  base = catalog.metadata(catalog.list().skills[0].id)!;
});

type Patch = {
  type?: SkillMetadata['type'];
  execution?: Partial<SkillMetadata['execution']>;
  permissions?: Partial<SkillMetadata['permissions']>;
  env?: string[];
  primaryEnv?: string;
};

const policyOf = (patch: Patch = {}) =>
  resolvePolicy(
    {
      ...base,
      type: patch.type ?? base.type,
      primaryEnv: patch.primaryEnv,
      requires: { ...base.requires, env: patch.env ?? [] },
      execution: { ...base.execution, ...patch.execution },
      permissions: { ...base.permissions, ...patch.permissions },
    },
    ctx,
  );
const fsGrants = (read: string[], write: string[]) => ({ filesystem: { read, write } });

describe('grant paths', () => {
  it('cuts a glob at its first wildcard segment', () => {
    expect(staticPrefix('a/b/*.txt')).toBe('a/b');
    expect(staticPrefix('a/[xy]/b')).toBe('a');
    expect(staticPrefix('a/{x,y}/b')).toBe('a');
    expect(staticPrefix('a/b?/c')).toBe('a');
    expect(staticPrefix('a/b/c')).toBe('a/b/c');
    expect(staticPrefix('/*')).toBe('/');
    expect(staticPrefix('/')).toBe('/');
    expect(staticPrefix('*.txt')).toBe('.');
    expect(staticPrefix('')).toBe('.');
  });

  it('expands every prefix spelling, only as a whole first segment', () => {
    const cases: [string, string][] = [
      ['$SKILL_DIR/a', '/skills/s/a'],
      ['${SKILL_PATH}/a', '/skills/s/a'],
      ['$SKILL_ROOT', '/skills/s'],
      ['$BASE_DIR/a', '/skills/s/a'],
      ['${BASE_DIR}/a', '/skills/s/a'],
      ['{baseDir}', '/skills/s'],
      ['$WORKSPACE/src/**', '/ws/src'],
      ['{workspace}/x', '/ws/x'],
      ['$OUT/report.md', '/runs/r1/work/report.md'],
      ['${OUTPUT_DIR}/x', '/runs/r1/work/x'],
      ['$WORK_DIR', '/runs/r1/work'],
      ['{out}/x', '/runs/r1/work/x'],
      ['$HOME/.config', '/home/u/.config'],
      ['${HOME}', '/home/u'],
      ['~/notes/*.md', '/home/u/notes'],
      // Not a prefix: a longer name, a user's home, or a prefix further in.
      ['$SKILL_DIRX/a', '/runs/r1/work/$SKILL_DIRX/a'],
      ['$HOMEX', '/runs/r1/work/$HOMEX'],
      ['~bob/x', '/runs/r1/work/~bob/x'],
      ['a/$HOME', '/runs/r1/work/a/$HOME'],
      ['a/$SKILL_DIR/x', '/runs/r1/work/a/$SKILL_DIR/x'],
      ['a/$WORKSPACE', '/runs/r1/work/a/$WORKSPACE'],
      ['a/$OUT/x', '/runs/r1/work/a/$OUT/x'],
      ['$WORKSPACE', '/ws'],
    ];
    for (const [declared, abs] of cases) expect(resolveGrantPath(declared, ctx), declared).toBe(abs);
  });

  it('trims, turns backslashes into slashes and normalizes dot segments', () => {
    expect(resolveGrantPath('  out\\sub\\*.csv  ', ctx)).toBe('/runs/r1/work/out/sub');
    expect(resolveGrantPath('/data/../etc/./hosts', ctx)).toBe('/etc/hosts');
    expect(resolveGrantPath('x/../y', ctx)).toBe('/runs/r1/work/y');
  });

  it('covers a path inside a grant or the grant itself, and the first grant that does wins', () => {
    const grants = [
      { declared: './out/**', abs: '/runs/r1/work/out' },
      { declared: '/**', abs: '/' },
    ];
    expect(coveredBy('/runs/r1/work/out/x', grants)?.declared).toBe('./out/**');
    expect(coveredBy('/runs/r1/work/out/', grants)?.declared).toBe('./out/**');
    expect(coveredBy('/etc/passwd', grants)?.declared).toBe('/**');
    expect(coveredBy('/runs/r1/work/outer', grants.slice(0, 1))).toBeUndefined();
    expect(coveredBy('/runs/r1/work', grants.slice(0, 1))).toBeUndefined();
    expect(coveredBy('/x', [])).toBeUndefined();
  });
});

describe('resolvePolicy', () => {
  it('runs a program in the OS sandbox after asking, for 120 s, with nothing granted', () => {
    expect(policyOf()).toEqual({
      sandbox: 'os',
      approval: 'ask',
      timeoutMs: DEFAULT_TIMEOUT_MS,
      read: [],
      write: [],
      network: false,
      envAllow: [],
      reasons: [],
    });
  });

  it('asks before any program of any skill, and keeps an explicit choice', () => {
    expect(policyOf({ type: 'script' }).approval).toBe('ask');
    // An instruction skill's script (run_skill_script) is a command too (DESIGN §4).
    expect(policyOf({ type: 'instruction' }).approval).toBe('ask');
    expect(policyOf({ permissions: { ...base.permissions, ...fsGrants(['~/**'], []) } }).approval).toBe(
      'ask',
    );
    expect(policyOf({ type: 'script', execution: { approval: 'auto' } }).approval).toBe('auto');
    expect(policyOf({ execution: { approval: 'deny' } }).approval).toBe('deny');
    expect(policyOf({ execution: { sandbox: 'process' } }).sandbox).toBe('process');
  });

  it('clamps the timeout: none or not positive is 120 s, more than 30 min is 30 min', () => {
    expect(policyOf({ execution: { timeoutMs: 5_000 } }).timeoutMs).toBe(5_000);
    expect(policyOf({ execution: { timeoutMs: 0 } }).timeoutMs).toBe(DEFAULT_TIMEOUT_MS);
    expect(policyOf({ execution: { timeoutMs: -1 } }).timeoutMs).toBe(DEFAULT_TIMEOUT_MS);
    expect(policyOf({ execution: { timeoutMs: MAX_TIMEOUT_MS } }).timeoutMs).toBe(MAX_TIMEOUT_MS);
    expect(policyOf({ execution: { timeoutMs: MAX_TIMEOUT_MS + 1 } }).timeoutMs).toBe(MAX_TIMEOUT_MS);
  });

  it('lowercases and dedupes network hosts, and keeps a yes/no as it is', () => {
    const hosts = { outbound: ['API.example.com', 'api.example.com', 'b.example'] };
    expect(policyOf({ permissions: { ...base.permissions, network: hosts } }).network).toEqual([
      'api.example.com',
      'b.example',
    ]);
    expect(policyOf({ permissions: { ...base.permissions, network: { outbound: true } } }).network).toBe(
      true,
    );
  });

  it('passes through declared, required and primary env names once, never loader variables', () => {
    const allow = ['API_TOKEN', 'LD_PRELOAD', 'DYLD_INSERT_LIBRARIES', 'NODE_OPTIONS', 'PYTHONSTARTUP'];
    const more = [
      'BASH_ENV',
      'ENV',
      'ENVIRONMENT',
      'MY_LD_PATH',
      'XNODE_OPTIONS',
      '_PRIVATE',
      '9LIVES',
      'A-B',
    ];
    const policy = policyOf({
      permissions: { ...base.permissions, environment: { allow: [...allow, ...more] } },
      env: ['API_TOKEN', 'REGION'],
      primaryEnv: 'OPENAI_API_KEY',
    });
    expect(policy.envAllow).toEqual([
      'API_TOKEN',
      'ENVIRONMENT',
      'MY_LD_PATH',
      'XNODE_OPTIONS',
      '_PRIVATE',
      'REGION',
      'OPENAI_API_KEY',
    ]);
    expect(['LD_PRELOAD', 'DYLD_X', 'NODE_OPTIONS', 'BASH_ENV', 'ENV'].every(isForbiddenEnv)).toBe(true);
    for (const name of [
      'ENVIRONMENT',
      'MY_LD_PATH',
      'NODE_OPTIONS_X',
      'PATH',
      'MY_PYTHONSTARTUP',
      'PYTHONSTARTUP_X',
      'MY_BASH_ENV',
      'BASH_ENV_X',
      'MY_ENV',
    ])
      expect(isForbiddenEnv(name), name).toBe(false);
  });

  it('gives the reasons to ask: dangerous, and confirm with its question or a default', () => {
    expect(policyOf({ execution: { dangerous: true } }).reasons).toEqual(['its author marks it dangerous']);
    expect(policyOf({ execution: { confirm: true } }).reasons).toEqual(['its author asks for confirmation']);
    expect(policyOf({ execution: { confirm: true, confirmMessage: 'Sure?' } }).reasons).toEqual(['Sure?']);
    expect(policyOf({ execution: { confirmMessage: 'Sure?' } }).reasons).toEqual([]);
  });
});

describe('permissionsDigest', () => {
  it('changes with every declared permission and the sandbox, not with their order or anything else', () => {
    const perms = (read: string[], write: string[], outbound: boolean | string[], env: string[]) => ({
      ...base.permissions,
      ...fsGrants(read, write),
      network: { outbound },
      environment: { allow: env },
    });
    const digest = (patch: Patch) => permissionsDigest(policyOf(patch));
    const a = digest({ permissions: perms(['r1', 'r2'], ['w1', 'w2'], ['h1', 'h2'], ['E1', 'E2']) });
    expect(digest({ permissions: perms(['r2', 'r1'], ['w2', 'w1'], ['h2', 'h1'], ['E2', 'E1']) })).toBe(a);
    expect(
      digest({
        permissions: perms(['r1', 'r2'], ['w1', 'w2'], ['h1', 'h2'], ['E1', 'E2']),
        execution: { approval: 'auto', timeoutMs: 1_000, dangerous: true },
      }),
    ).toBe(a);
    const variants = [
      perms(['r1'], ['w1', 'w2'], ['h1', 'h2'], ['E1', 'E2']),
      perms(['r1', 'r2'], ['w1'], ['h1', 'h2'], ['E1', 'E2']),
      perms(['r1', 'r2'], ['w1', 'w2'], ['h1'], ['E1', 'E2']),
      perms(['r1', 'r2'], ['w1', 'w2'], true, ['E1', 'E2']),
      perms(['r1', 'r2'], ['w1', 'w2'], ['h1', 'h2'], ['E1']),
      perms(['r2'], ['w1', 'w2'], ['h1', 'h2'], ['E1', 'E2']),
      // Same counts, other names.
      perms(['r1', 'r3'], ['w1', 'w2'], ['h1', 'h2'], ['E1', 'E2']),
      perms(['r1', 'r2'], ['w1', 'w3'], ['h1', 'h2'], ['E1', 'E2']),
    ];
    for (const permissions of variants) expect(digest({ permissions })).not.toBe(a);
    const same = perms(['r1', 'r2'], ['w1', 'w2'], ['h1', 'h2'], ['E1', 'E2']);
    expect(digest({ permissions: same, execution: { sandbox: 'none' } })).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });
});
