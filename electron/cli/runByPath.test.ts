import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunResult } from '../../shared/contract';
import { buildCliBundle } from '../testing/cliBundle';
import { envWithoutModel, tempDir, writeTree } from '../testing/fixtures';

// A skill author runs the skill they are writing by its folder: `skilldeck run ./my-skill "…"`.
// The folder was looked up as a name among the discovered skills only, so the command said
// 'No skill named "./my-skill"' (exit 2) unless its parent was also given with --skills.
const root = tempDir('skilldeck-cli-run-by-path-');
const cli = path.join(root, 'cli.cjs');
const work = path.join(root, 'work');

beforeAll(async () => {
  await buildCliBundle(cli);
  writeTree(work, {
    'drafts/my-skill/SKILL.md': '---\nname: my-skill\ndescription: Greets.\n---\nRun scripts/hi.py.\n',
    'drafts/my-skill/skill.yaml': 'entrypoints: [scripts/hi.py]\nexecution_policy: { approval: auto }\n',
    'drafts/my-skill/scripts/hi.py':
      'import json, os\nprint("hi", json.loads(os.environ["INPUT_JSON"])["task"])\n',
    'drafts/not-a-skill/notes.txt': 'nothing here\n',
  });
}, 60_000);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const run = (skill: string, cwd = work) => {
  const r = spawnSync(process.execPath, [cli, 'run', skill, 'you', '--json', '--no-default-paths'], {
    cwd,
    env: { ...envWithoutModel(), SKILLDECK_HOME: path.join(root, 'home'), HOME: root },
    encoding: 'utf8',
    input: '',
  });
  return { code: r.status, doc: JSON.parse(r.stdout) as unknown };
};

describe('skilldeck run PATH', () => {
  it.each(['./drafts/my-skill', 'drafts/my-skill/', path.join(work, 'drafts/my-skill')])(
    'runs the skill in the folder %s',
    (given) => {
      const { code, doc } = run(given);
      const result = RunResult.parse(doc);
      expect(result.error).toBeNull();
      expect(result).toMatchObject({ status: 'success', skill: 'my-skill', output: 'hi you\n' });
      expect(code).toBe(0);
    },
  );

  it('runs the skill in the folder it is asked in: skilldeck run .', () => {
    const { code, doc } = run('.', path.join(work, 'drafts/my-skill'));
    expect(RunResult.parse(doc)).toMatchObject({ status: 'success', output: 'hi you\n' });
    expect(code).toBe(0);
  });

  it('a folder without a SKILL.md is still no skill', () => {
    const { code, doc } = run('./drafts/not-a-skill');
    expect(doc).toMatchObject({ status: 'failure', sandbox: 'none' });
    expect((doc as { error: string }).error).toMatch(/No skill named "\.\/drafts\/not-a-skill"/);
    expect(code).toBe(2);
  });
});
