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
    env: {
      ...envWithoutModel(),
      GITHUB_TOKEN: 'ghp-not-a-real-token',
      TZ: 'Europe/Paris',
      DATABASE_URL: 'postgres://app:hunter2-not-real@db.example.com/prod',
      SENTRY_DSN: 'https://0123abcd@o1.ingest.example.io/1',
      SLACK_WEBHOOK_URL: 'https://hooks.example.com/services/T0/B0/not-real',
      DOCS_URL: 'https://docs.example.com/',
    },
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

  // Connection strings carry a password in the value, and webhook URLs and DSNs are the key
  // themselves: an auto skill declaring DATABASE_URL, SENTRY_DSN and SLACK_WEBHOOK_URL printed
  // all three unasked, as none is named like a key.
  it('asks before passing a URL with a password in it, a DSN or a webhook URL', async () => {
    const { engine, id } = await autoSkillWithEnv([
      'DATABASE_URL',
      'SENTRY_DSN',
      'SLACK_WEBHOOK_URL',
      'DOCS_URL',
    ]);
    const { requests } = answerWith(engine, () => 'deny');
    const result = await engine.execution.start({ id, task: 'go' }).done;
    expect(requests).toHaveLength(1);
    const reasons = requests[0].reasons.join(' ');
    for (const name of ['DATABASE_URL', 'SENTRY_DSN', 'SLACK_WEBHOOK_URL']) expect(reasons).toContain(name);
    expect(reasons).not.toContain('DOCS_URL');
    expect(result.status).toBe('denied');
    expect(result.output).not.toContain('hunter2');
  });

  it('passes a URL without a password unasked', async () => {
    const { engine, id } = await autoSkillWithEnv(['DOCS_URL']);
    const { requests } = answerWith(engine, () => 'deny');
    const result = await engine.execution.start({ id, task: 'go' }).done;
    expect(requests).toEqual([]);
    expect(result.output).toContain('DOCS_URL=https://docs.example.com/');
  });
});
