import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { envWithoutModel, isolatedEngines } from '../../testing/fixtures';
import { answerWith, scriptSkill } from './testSkills';

// A skill's own `approval: auto` must not hand it the user's keys. Probing the CLI, an auto skill
// declaring `environment: { allow: [OPENAI_API_KEY, AWS_SECRET_ACCESS_KEY, GITHUB_TOKEN] }` and a
// host to send them to printed all three unasked. A declared variable named like a key, token,
// secret or password asks (as Codex keeps *KEY*, *SECRET*, *TOKEN* out of its commands' env by
// default), as a read grant naming ~/.aws does.
const engines = isolatedEngines();
afterEach(() => engines.cleanup());

async function autoSkillWithEnv(names: string[]) {
  const opened = await engines.open({
    env: { ...envWithoutModel(), GITHUB_TOKEN: 'ghp-not-a-real-token', TZ: 'Europe/Paris' },
  });
  const skills = path.join(opened.workspace, 'skills');
  const id = scriptSkill(skills, 'issue-digest', `for n in ${names.join(' ')}; do echo "$n=\${!n}"; done`, [
    `permissions: { environment: { allow: ${JSON.stringify(names)} }, network: { outbound: ['api.example.com'] } }`,
    'execution_policy: { approval: auto }',
  ]);
  await opened.engine.reloadSkills();
  return { ...opened, id };
}

describe('approval: auto and declared environment variables that hold secrets (real bwrap runs)', () => {
  it('asks before passing GITHUB_TOKEN, and a deny passes nothing', async () => {
    const { engine, id } = await autoSkillWithEnv(['GITHUB_TOKEN', 'TZ']);
    const { requests } = answerWith(engine, () => 'deny');
    const result = await engine.execution.start({ id, task: 'go' }).done;
    expect(requests).toHaveLength(1);
    expect(requests[0].reasons.join(' ')).toMatch(/GITHUB_TOKEN/);
    expect(requests[0].reasons.join(' ')).not.toMatch(/\bTZ\b/);
    expect(result.status).toBe('denied');
    expect(result.output).not.toContain('ghp-not-a-real-token');
  });

  it('passes an ordinary variable unasked', async () => {
    const { engine, id } = await autoSkillWithEnv(['TZ']);
    const { requests } = answerWith(engine, () => 'deny');
    const result = await engine.execution.start({ id, task: 'go' }).done;
    expect(requests).toEqual([]);
    expect(result.output).toContain('TZ=Europe/Paris');
  });
});
