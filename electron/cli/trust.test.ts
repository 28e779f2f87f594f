import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunResult } from '../../shared/contract';
import { buildCliBundle } from '../testing/cliBundle';
import { envWithoutModel, tempDir } from '../testing/fixtures';
import { scriptSkill } from '../engine/execution/testSkills';

// what-users-ask §14 from the terminal: a one-shot command trusts the folder it runs in (running
// it there is the user's act, as Claude Code's headless -p skips its trust dialog), and
// `skilldeck trust` stores or takes back a folder's trust for the app and `serve`.
const root = tempDir('skilldeck-cli-trust-');
const cli = path.join(root, 'cli.cjs');
const home = path.join(root, 'sd-home');
const project = path.join(root, 'projects', 'cloned');

beforeAll(async () => {
  await buildCliBundle(cli);
  scriptSkill(path.join(project, '.claude', 'skills'), 'repo-tool', 'echo from-the-repo', [
    'execution_policy: { approval: auto }',
  ]);
}, 60_000);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const skilldeck = (args: string[], cwd = project) =>
  spawnSync(process.execPath, [cli, ...args], {
    cwd,
    env: { ...envWithoutModel(), SKILLDECK_HOME: home, HOME: path.join(root, 'user') },
    encoding: 'utf8',
    input: '',
  });

describe('skilldeck and workspace trust', () => {
  it('run in the folder: its own auto skill runs unasked, as before, and no trust is stored', () => {
    const result = skilldeck(['run', 'repo-tool', 'go', '--json']);
    expect(RunResult.parse(JSON.parse(result.stdout))).toMatchObject({
      status: 'success',
      output: 'from-the-repo\n',
    });
    expect(result.status).toBe(0);
    expect(fs.existsSync(path.join(home, 'workspaces.json'))).toBe(false);
  });

  it('trust DIR stores the folder, --list shows it, --untrust takes it back', () => {
    const real = fs.realpathSync(project);
    const trusted = skilldeck(['trust', project, '--json'], root);
    expect(trusted.status).toBe(0);
    expect(JSON.parse(trusted.stdout)).toMatchObject({ path: real, trusted: true });
    const listed = JSON.parse(skilldeck(['trust', '--list', '--json'], root).stdout);
    expect(listed.folders.map((f: { path: string }) => f.path)).toEqual([real]);
    // No DIR: the folder it runs in.
    const text = skilldeck(['trust', '--untrust']);
    expect(text.stdout).toBe(`No longer trusted: ${real}\n`);
    expect(JSON.parse(skilldeck(['trust', '--list', '--json']).stdout)).toEqual({ folders: [] });
  });

  it('trust of a folder that does not exist is refused (exit 2) and stores nothing', () => {
    const result = skilldeck(['trust', path.join(root, 'missing'), '--json'], root);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/no such folder/);
    expect(JSON.parse(result.stdout).error).toMatch(/no such folder/);
    expect(JSON.parse(skilldeck(['trust', '--list', '--json']).stdout)).toEqual({ folders: [] });
    const file = path.join(project, '.claude', 'skills', 'repo-tool', 'SKILL.md');
    const notFolder = skilldeck(['trust', file], root);
    expect(notFolder.status).toBe(2);
    expect(notFolder.stderr).toMatch(/not a folder/);
  });
});
