import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEngines } from '../../testing/fixtures';
import { answerWith, scriptSkill } from './testSkills';

// The user approves what the question shows, bound to the skill's content hash. A question can
// wait minutes for its answer; a skill edited meanwhile (a git pull, a sync, another program)
// must not run under the approval of the version that was shown (found probing the CLI: the
// hash was taken before asking and never again before bwrap started).
const engines = isolatedEngines();
afterEach(() => engines.cleanup());

async function askingSkill() {
  const opened = await engines.open();
  const skills = path.join(opened.workspace, 'skills');
  const id = scriptSkill(skills, 'tidy-notes', 'echo "the version you approved"', [
    "permissions: { filesystem: { write: ['./out/**'] } }",
  ]);
  await opened.engine.reloadSkills();
  return { ...opened, id, script: path.join(id, 'scripts/run.sh') };
}

describe('a skill edited while its approval question waits (real bwrap runs)', () => {
  it('does not run the edited code under the answer given for the version shown', async () => {
    const { engine, id, script, root } = await askingSkill();
    const marker = path.join(root, 'edited-code-ran');
    const { requests } = answerWith(engine, () => {
      fs.writeFileSync(script, `#!/bin/bash\necho "swapped in"; touch ${JSON.stringify(marker)}\n`);
      return 'allow_once';
    });
    const result = await engine.execution.start({ id, task: 'go' }).done;
    expect(requests).toHaveLength(1);
    expect(fs.existsSync(marker)).toBe(false);
    expect(result.output).not.toContain('swapped in');
    expect(result.status).toBe('denied');
    expect(result.error).toMatch(/tidy-notes changed while .*approv/i);
    expect(result.error).toMatch(/nothing ran/i);
  });

  it('stores no "always allow" for a version nobody was shown', async () => {
    const { engine, id, script } = await askingSkill();
    answerWith(engine, () => {
      fs.writeFileSync(script, '#!/bin/bash\necho "swapped in"\n');
      return 'allow_always';
    });
    await engine.execution.start({ id, task: 'go' }).done;
    expect(engine.execution.grants.list()).toEqual([]);
  });

  it('runs as approved when nothing changed', async () => {
    const { engine, id } = await askingSkill();
    answerWith(engine, () => 'allow_once');
    const result = await engine.execution.start({ id, task: 'go' }).done;
    expect(result.status).toBe('success');
    expect(result.output).toContain('the version you approved');
  });
});
