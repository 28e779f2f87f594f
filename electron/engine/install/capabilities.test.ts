import { beforeAll, describe, expect, it } from 'vitest';
import type { InstallFile, SkillMetadata } from '../../../shared/contract';
import { catalogOf, skillMd, tempDir, writeTree } from '../../testing/fixtures';
import { capabilitySummary } from './capabilities';

// The install preview's "what it can do" lines (issue 3), one declaration at a time on a real
// skill's metadata; install.test.ts checks a whole preview.
let base: SkillMetadata;
beforeAll(async () => {
  const dir = tempDir('skilldeck-capabilities-');
  writeTree(dir, { 'plain/SKILL.md': skillMd('plain', 'Instructions only.') });
  const catalog = await catalogOf([dir]);
  base = catalog.metadata(catalog.list().skills[0].id)!;
});

const file = (path: string, scriptLanguage?: string): InstallFile => ({
  path,
  size: 1,
  executable: false,
  ...(scriptLanguage ? { scriptLanguage } : {}),
});
const summary = (patch: Partial<SkillMetadata>, files: InstallFile[] = []) =>
  capabilitySummary({ ...base, ...patch }, files);

describe('capabilitySummary', () => {
  it('says when a skill is instructions only', () => {
    expect(summary({})).toEqual(['instructions only: runs nothing, declares no file, network or env access']);
  });

  it('names each script language once, with a readable name when it has one', () => {
    const files = [file('a.py', 'python'), file('b.py', 'python'), file('c.sh', 'sh'), file('d.x', 'cobol')];
    expect(summary({}, [...files, file('README.md')])).toEqual([
      'runs python scripts',
      'runs shell scripts',
      'runs cobol scripts',
    ]);
  });

  it('gives every script language the loader detects its readable name', () => {
    const languages = [
      'python',
      'bash',
      'sh',
      'zsh',
      'node',
      'typescript',
      'ruby',
      'perl',
      'php',
      'powershell',
      'lua',
    ];
    expect(
      summary(
        {},
        languages.map((l) => file(`x.${l}`, l)),
      ),
    ).toEqual([
      'runs python scripts',
      'runs bash scripts',
      'runs shell scripts',
      'runs zsh scripts',
      'runs JavaScript (node) scripts',
      'runs TypeScript scripts',
      'runs ruby scripts',
      'runs perl scripts',
      'runs php scripts',
      'runs PowerShell scripts',
      'runs lua scripts',
    ]);
  });

  it('lists entrypoints, paths, hosts, env, programs, permissions and tools', () => {
    const lines = summary({
      entrypoints: [{ name: 'build', path: 'scripts/build.sh' }],
      permissions: {
        filesystem: { read: ['~/Documents/**'], write: ['./out/**'] },
        network: { outbound: ['api.example.com'] },
        environment: { allow: ['API_TOKEN'] },
        named: ['camera'],
      },
      requires: { ...base.requires, env: ['API_TOKEN', 'REGION'], bins: ['git'], anyBins: ['rg', 'grep'] },
      primaryEnv: 'OPENAI_API_KEY',
      allowedTools: ['Read', 'Bash'],
    });
    expect(lines).toEqual([
      'runs entrypoint build (scripts/build.sh)',
      'reads ~/Documents/**',
      'writes ./out/**',
      'reaches api.example.com',
      'reads env API_TOKEN',
      'reads env REGION',
      'reads env OPENAI_API_KEY',
      'uses programs: git, rg, grep',
      'asks for permission "camera"',
      'may use tools: Read, Bash',
    ]);
  });

  it('says "any host" for open network, and nothing for none', () => {
    const net = (outbound: boolean | string[]) => ({ ...base.permissions, network: { outbound } });
    expect(summary({ permissions: net(true) })).toEqual(['reaches any host on the network']);
    expect(summary({ permissions: net(false) })).toHaveLength(1);
    expect(summary({ permissions: net(false) })[0]).toMatch(/^instructions only/);
  });

  it('flags dependencies, danger, no sandbox, always-on and OS limits', () => {
    expect(summary({ install: [{ kind: 'brew' }] })).toEqual(['suggests installing 1 dependency']);
    expect(summary({ install: [{}, {}] })).toEqual(['suggests installing 2 dependencies']);
    expect(summary({ execution: { ...base.execution, dangerous: true } })).toEqual([
      'is marked dangerous by its author',
    ]);
    expect(summary({ execution: { ...base.execution, sandbox: 'none' } })).toEqual([
      'asks to run without a sandbox',
    ]);
    expect(summary({ execution: { ...base.execution, sandbox: 'process' } })[0]).toMatch(
      /^instructions only/,
    );
    expect(summary({ always: true })).toEqual(['asks to be included in every conversation']);
    expect(summary({ requires: { ...base.requires, os: ['linux', 'darwin'] } })).toEqual([
      'runs only on linux, darwin',
    ]);
  });
});
