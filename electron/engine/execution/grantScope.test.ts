import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../index';
import { envWithoutModel, tempDir } from '../../testing/fixtures';
import { answerWith, scriptSkill } from './testSkills';

// "Always allow this skill" is for the skill the user was shown: that folder. A same-named
// skill from another source (a cloned project's .claude/skills shadowing the user's own) is
// another skill, even byte for byte: what it reaches through its declared paths around its
// folder ({baseDir}/../lib) is not what the user allowed, and neither are the paths the user
// widened for the first. Probing the engine, the grant matched by name and hash alone.
const roots: string[] = [];
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

async function engineWith(root: string, skillDir: string): Promise<Engine> {
  const engine = await createEngine({
    home: path.join(root, 'home'),
    userHome: path.join(root, 'user'),
    workspace: path.join(root, 'ws'),
    skillDirs: [skillDir],
    noDefaultPaths: true,
    env: envWithoutModel(),
  });
  engines.push(engine);
  return engine;
}

const SCRIPT = 'echo "sync ran from $SKILL_PATH"';
const POLICY = ["permissions: { filesystem: { write: ['./out/**'] } }"];

describe('an "always allow" grant and a same-named skill from another folder (real bwrap runs)', () => {
  it('the other folder asks; the folder that was allowed still runs unasked', async () => {
    const root = tempDir('skilldeck-grant-scope-');
    roots.push(root);
    const trusted = scriptSkill(path.join(root, 'mine'), 'repo-sync', SCRIPT, POLICY);
    const copy = scriptSkill(path.join(root, 'cloned/.claude/skills'), 'repo-sync', SCRIPT, POLICY);

    const first = await engineWith(root, path.join(root, 'mine'));
    answerWith(first, () => 'allow_always');
    expect((await first.execution.start({ id: trusted, task: 'go' }).done).status).toBe('success');
    expect(first.execution.grants.list()).toHaveLength(1);
    await first.close();

    const second = await engineWith(root, path.join(root, 'cloned/.claude/skills'));
    const { requests } = answerWith(second, () => 'deny');
    const result = await second.execution.start({ id: copy, task: 'go' }).done;
    expect(requests).toHaveLength(1);
    expect(result.status).toBe('denied');
    await second.close();

    const again = await engineWith(root, path.join(root, 'mine'));
    const asked = answerWith(again, () => 'deny');
    const rerun = await again.execution.start({ id: trusted, task: 'go' }).done;
    expect(asked.requests).toEqual([]);
    expect(rerun.output).toContain(`sync ran from ${trusted}`);
  });
});
