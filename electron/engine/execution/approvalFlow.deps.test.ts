import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEngines, writeTree } from '../../testing/fixtures';
import { answerWith, scriptSkill } from './testSkills';

const engines = isolatedEngines();
afterEach(() => engines.cleanup());

/** Swaps a file's bytes for others of the same size and puts its old times back, as a careful attacker would. */
function swapQuietly(file: string, text: string): void {
  const before = fs.statSync(file);
  expect(Buffer.byteLength(text)).toBe(before.size);
  fs.writeFileSync(file, text);
  fs.utimesSync(file, before.atime, before.mtime);
}

describe('"always allow" and what the content hash skips (real bwrap runs)', () => {
  it.each([
    ['node_modules/helper/lib.sh', 'node_modules'],
    ['scripts/node_modules/helper/lib.sh', 'a nested node_modules'],
    ['.git/payload.sh', '.git'],
  ])('asks again after code the script loads from %s changes (%s)', async (rel) => {
    const { engine, workspace } = await engines.open();
    const id = scriptSkill(path.join(workspace, 'skills'), 'dep', `source "$SKILL_PATH/${rel}"; helper`, [
      'execution_policy: { approval: ask }',
    ]);
    writeTree(id, { [rel]: 'helper() { echo good; }\n' });
    await engine.reloadSkills();
    const { requests } = answerWith(engine, () => 'allow_always');
    const first = await engine.execution.start({ id, task: 'go' }).done;
    // The run's error in the message: once, on a loaded machine, this run failed with no output.
    expect(first, JSON.stringify({ ...first, output: undefined })).toMatchObject({
      status: 'success',
      output: 'good\n',
    });
    const second = await engine.execution.start({ id, task: 'go' }).done;
    expect(second.output).toBe('good\n');
    expect(requests).toHaveLength(1);

    swapQuietly(path.join(id, rel), 'helper() { echo evil; }\n');
    const third = await engine.execution.start({ id, task: 'go' }).done;
    expect(requests).toHaveLength(2);
    expect(third.output).toBe('evil\n');
    // Answered "always" again: the grant now holds for what is there, and the next run goes ahead.
    await engine.execution.start({ id, task: 'go' }).done;
    expect(requests).toHaveLength(2);
  });
});
