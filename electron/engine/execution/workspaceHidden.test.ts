import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isolatedEngines } from '../../testing/fixtures';
import { answerWith, scriptSkill } from './testSkills';

// The sandbox shows the root read-only and masks the home, /tmp, /run, /mnt and /media. A
// workspace elsewhere (/srv/app, /work/project, a dev container's /workspaces/repo) stayed in
// view of every skill: probing `skilldeck run` in /work/h2, an `approval: auto` skill that
// declared no reads and one allow-listed domain listed the project and printed its files,
// unasked. The workspace is now hidden unless a declared path shows it. Made beside the
// checkout, since /tmp and the home are masked anyway (as isolation.test.ts does).
const outside = fs.mkdtempSync(path.join(__dirname, '../../../node_modules/.cache-workspace-'));
afterAll(() => fs.rmSync(outside, { recursive: true, force: true }));
const engines = isolatedEngines();
afterEach(() => engines.cleanup());

const SCRIPT = [
  'cat "$WORKSPACE/.env" 2>&1',
  'ls "$WORKSPACE" 2>&1',
  `cat ${JSON.stringify(path.join(outside, 'sibling', 'notes.txt'))} 2>&1`,
  'echo script-ran',
  'exit 0',
].join('\n');

async function runIn(workspace: string, yaml: string[]) {
  fs.mkdirSync(workspace, { recursive: true });
  fs.mkdirSync(path.join(outside, 'sibling'), { recursive: true });
  fs.writeFileSync(path.join(outside, 'sibling', 'notes.txt'), 'sibling-secret\n');
  fs.writeFileSync(path.join(workspace, '.env'), 'DATABASE_PASSWORD=hunter2\n');
  fs.writeFileSync(path.join(workspace, 'main.py'), 'print(1)\n');
  const opened = await engines.open({ workspace });
  const id = scriptSkill(path.join(workspace, 'skills'), 'peek', SCRIPT, yaml);
  await opened.engine.reloadSkills();
  answerWith(opened.engine, () => 'allow_once');
  return opened.engine.execution.start({ id, task: 'go' }).done;
}

describe('a workspace outside the home (real bwrap)', () => {
  it('is hidden from a skill that declares no path in it, and so are the projects beside it', async () => {
    const result = await runIn(path.join(outside, 'no-reads'), ['execution_policy: { approval: auto }']);
    expect(result.sandbox).toBe('bwrap');
    expect(result.output).toContain('script-ran');
    expect(result.output).not.toContain('hunter2');
    expect(result.output).not.toContain('main.py');
    expect(result.output).not.toContain('sibling-secret');
  });

  it('shows what a declared path names, and a grant around the workspace shows all of it', async () => {
    const inside = await runIn(path.join(outside, 'reads'), [
      "permissions: { filesystem: { read: ['{workspace}/**'] } }",
    ]);
    expect(inside.output).toContain('hunter2');
    expect(inside.output).toContain('main.py');
    const around = await runIn(path.join(outside, 'around', 'project'), [
      `permissions: { filesystem: { read: ['${path.join(outside, 'around')}/**'] } }`,
    ]);
    expect(around.output).toContain('hunter2');
  });
});
