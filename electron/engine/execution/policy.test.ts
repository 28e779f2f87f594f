import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEngines, writeTree } from '../../testing/fixtures';
import {
  coveredBy,
  permissionsDigest,
  resolveGrantPath,
  resolvePolicy,
  staticPrefix,
  type PathContext,
} from './policy';

const engines = isolatedEngines();
afterEach(() => engines.cleanup());

const ctx = { workDir: '/runs/r1/work', skillDir: '/skills/s', workspace: '/ws', home: '/home/u' };

async function loadPolicy(files: Record<string, string>, at: Partial<PathContext> = {}) {
  const { engine, workspace } = await engines.open();
  writeTree(path.join(workspace, 'skills', 'probe'), files);
  await engine.reloadSkills();
  const skill = engine.listSkills().skills.find((s) => s.name === 'probe');
  if (!skill) throw new Error('probe skill not loaded');
  const metadata = engine.skills.metadata(skill.id);
  if (!metadata) throw new Error('no metadata');
  return resolvePolicy(metadata, { ...ctx, ...at, skillDir: skill.id });
}

const md = (extra = '') =>
  `---\nname: probe\ndescription: A probe skill for policy tests.\n${extra}---\n# Probe\n`;

describe('grant paths', () => {
  it('resolves ./, ~, $SKILL_DIR, $WORKSPACE and absolute paths to the glob’s static prefix', () => {
    expect(resolveGrantPath('./out/**', ctx)).toBe('/runs/r1/work/out');
    expect(resolveGrantPath('out/*.csv', ctx)).toBe('/runs/r1/work/out');
    expect(resolveGrantPath('~/Documents/**', ctx)).toBe('/home/u/Documents');
    expect(resolveGrantPath('~', ctx)).toBe('/home/u');
    expect(resolveGrantPath('$SKILL_DIR/data/*.json', ctx)).toBe('/skills/s/data');
    expect(resolveGrantPath('{baseDir}/assets', ctx)).toBe('/skills/s/assets');
    expect(resolveGrantPath('${WORKSPACE}/**', ctx)).toBe('/ws');
    expect(resolveGrantPath('/etc/hosts', ctx)).toBe('/etc/hosts');
    expect(resolveGrantPath('/**', ctx)).toBe('/');
    expect(staticPrefix('**')).toBe('.');
  });

  it('tells which declared path covers a target, and refuses look-alike prefixes', () => {
    const grants = [{ declared: './out/**', abs: '/runs/r1/work/out' }];
    expect(coveredBy('/runs/r1/work/out/a/b.txt', grants)?.declared).toBe('./out/**');
    expect(coveredBy('/runs/r1/work/out', grants)?.declared).toBe('./out/**');
    expect(coveredBy('/runs/r1/work/outside.txt', grants)).toBeUndefined();
    expect(coveredBy('/runs/r1/work/out/../secret', grants)).toBeUndefined();
  });
});

describe('resolvePolicy', () => {
  it('normalizes skill.yaml permissions and execution_policy (timeout in seconds)', async () => {
    const policy = await loadPolicy({
      'SKILL.md': md(),
      'skill.yaml': [
        'spec: { type: script }',
        'permissions:',
        "  filesystem: { read: ['~/Documents/**'], write: ['./out/**'] }",
        '  network: { outbound: [API.example.com, api.example.com] }',
        '  environment: { allow: [API_TOKEN, LD_PRELOAD, NODE_OPTIONS, "bad name"] }',
        'execution_policy: { sandbox: os, approval: auto, timeout: 30 }',
      ].join('\n'),
      'scripts/run.py': 'print(1)\n',
    });
    expect(policy.write).toEqual([{ declared: './out/**', abs: '/runs/r1/work/out' }]);
    expect(policy.read).toEqual([{ declared: '~/Documents/**', abs: '/home/u/Documents' }]);
    expect(policy.network).toEqual(['api.example.com']);
    expect(policy.envAllow).toEqual(['API_TOKEN']);
    expect(policy).toMatchObject({ sandbox: 'os', approval: 'auto', timeoutMs: 30_000 });
    // Its own auto does not cover reading the user's documents, nor handing it a token: those are asked all the same.
    expect(policy.reasons).toEqual([
      'it declares approval: auto, but reads ~/Documents/**, outside its own folders and the workspace',
      'it declares approval: auto, but is given API_TOKEN from your environment (keys and credentials), which auto never covers',
    ]);
  });

  it('lets a skill’s approval: auto stand for its own folders and the workspace only', async () => {
    const contained = await loadPolicy({
      'SKILL.md': md(),
      'skill.yaml':
        "permissions: { filesystem: { write: ['./out/**'], read: ['$WORKSPACE/data/**'] }, network: { outbound: [api.example.com] } }\nexecution_policy: { approval: auto }\n",
    });
    expect(contained).toMatchObject({ approval: 'auto', reasons: [] });
    // Reading the home with no way out (no network) is what json-format and csv-summary do.
    const reader = await loadPolicy({
      'SKILL.md': md(),
      'skill.yaml':
        "permissions: { filesystem: { read: ['~/**'] }, network: { outbound: false } }\nexecution_policy: { approval: auto }\n",
    });
    expect(reader).toMatchObject({ approval: 'auto', reasons: [] });
    // ~/** keeps $SKILLDECK_HOME and the other skills hidden; naming them shows them, and auto
    // must not stand for that: secrets.json, the grants, another skill's tokens. Found probing
    // the CLI: read: ['<SKILLDECK_HOME>/**'] with approval: auto printed secrets.json unasked.
    const own = { private: ['/home/u/.skilldeck', '/srv/skills'] };
    const snooper = await loadPolicy(
      {
        'SKILL.md': md(),
        'skill.yaml':
          "permissions: { filesystem: { read: ['~/.skilldeck/secrets.json', '/srv/skills/other/**', '~/**', './**'] } }\nexecution_policy: { approval: auto }\n",
      },
      own,
    );
    expect(snooper.reasons).toEqual([
      "it declares approval: auto, but reads ~/.skilldeck/secrets.json (SkillDeck's own data or another skill's), reads /srv/skills/other/** (SkillDeck's own data or another skill's), outside its own folders and the workspace",
    ]);
    expect(
      (
        await loadPolicy(
          {
            'SKILL.md': md(),
            'skill.yaml':
              "permissions: { filesystem: { read: ['~/**'] } }\nexecution_policy: { approval: auto }\n",
          },
          own,
        )
      ).reasons,
    ).toEqual([]);
    // Keys and credentials likewise: hidden under ~/**, shown to a grant that names them, and
    // then the user is asked (credentials.test.ts runs it). A folder that only starts alike is not one.
    const keyReader = await loadPolicy({
      'SKILL.md': md(),
      'skill.yaml':
        "permissions: { filesystem: { read: ['~/.aws/credentials', '~/.config/gh/**', '~/.sshd/**', '~/**'] }, network: { outbound: false } }\nexecution_policy: { approval: auto }\n",
    });
    expect(keyReader.reasons).toEqual([
      'it declares approval: auto, but reads ~/.aws/credentials (keys and credentials), reads ~/.config/gh/** (keys and credentials), outside its own folders and the workspace',
    ]);
    const everywhere = await loadPolicy({
      'SKILL.md': md(),
      'skill.yaml':
        "permissions: { filesystem: { write: ['/var/victim/**'] }, network: { outbound: true } }\nexecution_policy: { approval: auto }\n",
    });
    expect(everywhere.reasons).toEqual([
      'it declares approval: auto, but writes /var/victim/**, reaches any host on the network, outside its own folders and the workspace',
    ]);
  });

  const GUARDED_BASHRC =
    'it declares approval: auto, but writes $WORKSPACE/.bashrc, which runs code outside the sandbox (git hooks, shell or editor start-up files), which auto never covers';
  it('does not let approval: auto stand for a workspace that is the home, above it, or a system folder', async () => {
    // `skilldeck run` from a terminal opened at ~: the workspace is the home, and a skill's own
    // auto must not cover rewriting ~/.bashrc, nor reading ~/.ssh while it can reach a host.
    const files = {
      'SKILL.md': md(),
      'skill.yaml':
        "permissions: { filesystem: { write: ['$WORKSPACE/.bashrc'], read: ['$WORKSPACE/.ssh/**'] }, network: { outbound: [evil.example] } }\nexecution_policy: { approval: auto }\n",
    };
    for (const workspace of ['/home/u', '/home', '/', '/etc', '/usr/local']) {
      const policy = await loadPolicy(files, { workspace });
      expect(policy.reasons, workspace).toHaveLength(2);
      expect(policy.reasons[0]).toMatch(
        /^it declares approval: auto, but reads .*\.ssh.*, writes .*\.bashrc/,
      );
      expect(policy.reasons[1]).toBe(GUARDED_BASHRC);
    }
    // A project folder, in the home or elsewhere, is still the skill's workspace; a start-up file
    // named in it asks wherever it lies (sandbox/layout.ts GUARDED).
    for (const workspace of ['/home/u/project', '/srv/app'])
      expect((await loadPolicy(files, { workspace })).reasons, workspace).toEqual([GUARDED_BASHRC]);
  });

  it('asks by default before running a program, whatever the skill’s type', async () => {
    const script = await loadPolicy({ 'SKILL.md': md(), 'scripts/run.sh': 'echo hi\n' });
    expect(script).toMatchObject({ approval: 'ask', sandbox: 'os', timeoutMs: 120_000, network: false });
    // An instruction skill whose model calls run_skill_script on one of its files.
    const instruction = await loadPolicy({ 'SKILL.md': md(), 'skill.yaml': 'spec: { type: instruction }\n' });
    expect(instruction.approval).toBe('ask');
    const declared = await loadPolicy({
      'SKILL.md': md(),
      'skill.yaml': 'execution_policy: { approval: auto }\n',
    });
    expect(declared.approval).toBe('auto');
  });

  it('reads apex-bridge fields: dangerous and confirm ask, timeout in milliseconds', async () => {
    const policy = await loadPolicy({
      'SKILL.md': md('mode: sandbox\ndangerous: true\nconfirm: "Really delete the files?"\ntimeout: 5000\n'),
      'scripts/run.sh': 'echo hi\n',
    });
    expect(policy.timeoutMs).toBe(5000);
    expect(policy.reasons).toEqual(['its author marks it dangerous', 'Really delete the files?']);
  });

  it('binds the permissions digest to what is declared, not to unrelated fields', async () => {
    const base =
      "permissions:\n  filesystem: { write: ['./out/**'] }\n  network: { outbound: [a.example] }\n";
    const a = permissionsDigest(await loadPolicy({ 'SKILL.md': md(), 'skill.yaml': base }));
    const same = permissionsDigest(
      await loadPolicy({ 'SKILL.md': md(), 'skill.yaml': `${base}tags: [x, y]\ncost_hint: high\n` }),
    );
    const wider = permissionsDigest(
      await loadPolicy({
        'SKILL.md': md(),
        'skill.yaml': base.replace('[a.example]', '[a.example, b.example]'),
      }),
    );
    expect(same).toBe(a);
    expect(wider).not.toBe(a);
  });
});
