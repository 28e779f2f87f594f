import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEngines } from '../../testing/fixtures';
import { answerWith, scriptSkill } from './testSkills';

// A script gets the task and input in INPUT_JSON, one environment variable, which Linux caps at
// 128 KiB (MAX_ARG_STRLEN). Probing the CLI with a task of 70,000 quotes (140 KiB once JSON
// escapes them): 'The sandbox could not start: bubblewrap could not start the sandbox: execvp
// /usr/bin/bash: Argument list too long', which blamed the sandbox for the size of the task.
const engines = isolatedEngines();
afterEach(() => engines.cleanup());

async function open() {
  const opened = await engines.open();
  const id = scriptSkill(
    path.join(opened.workspace, 'skills'),
    'counter',
    'printf %s "$INPUT_JSON" | wc -c',
    ['execution_policy: { approval: auto }'],
  );
  await opened.engine.reloadSkills();
  answerWith(opened.engine, () => 'deny');
  return { ...opened, id };
}

describe.runIf(process.platform === 'linux')('a task larger than one environment variable may hold', () => {
  it('is refused before the run with what to do, not as a sandbox failure', async () => {
    const { engine, id } = await open();
    const result = await engine.execution.start({ id, task: '"'.repeat(70_000) }).done;
    expect(result.status).toBe('failure');
    expect(result.command).toEqual([]);
    expect(result.error).toBe(
      'Cannot run scripts/run.sh: the task and input take 137 KiB as INPUT_JSON, and Linux passes at most 128 KiB in one environment variable; save the data in a file the skill can read and give its path instead.',
    );
  });

  it('runs up to that size', async () => {
    const { engine, id } = await open();
    const task = 'x'.repeat(120 * 1024);
    const result = await engine.execution.start({ id, task }).done;
    expect(result.status).toBe('success');
    expect(Number(result.output.trim())).toBe(JSON.stringify({ task }).length);
  });
});
