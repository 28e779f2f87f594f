import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isolatedEngines, writeTree } from '../../testing/fixtures';
import { answerWith, scriptSkill } from './testSkills';

// What one run can see of the other skills (real engine, real bwrap). The skill folders sit
// outside /tmp and the home, as a `--skills /srv/skills` or a workspace's skills/ would:
// there no mask of the home or /tmp hides them already.
const engines = isolatedEngines();
afterEach(() => engines.cleanup());
const outside = fs.mkdtempSync(path.join(__dirname, '../../../node_modules/.cache-isolation-'));
afterAll(() => fs.rmSync(outside, { recursive: true, force: true }));

describe('a run sees its own skill, not the others', () => {
  it("another skill's files (same root, another root) are hidden; its own stay readable", async () => {
    const rootA = path.join(outside, 'skills-a');
    const rootB = path.join(outside, 'skills-b');
    writeTree(path.join(rootA, 'victim'), {
      'SKILL.md': '---\nname: victim\ndescription: Holds a token.\n---\nbody\n',
      'token.txt': 'VICTIM-A-TOKEN\n',
    });
    writeTree(path.join(rootB, 'other'), {
      'SKILL.md': '---\nname: other\ndescription: Holds another token.\n---\nbody\n',
      'token.txt': 'OTHER-B-TOKEN\n',
    });
    const script = [
      `cat ${rootA}/victim/token.txt ${rootB}/other/token.txt 2>&1`,
      `ls ${rootA} ${rootB} 2>&1`,
      'cat "$SKILL_PATH/own.txt"',
    ].join('\n');
    const reader = scriptSkill(rootA, 'reader', script, ['execution_policy: { approval: auto }']);
    fs.writeFileSync(path.join(reader, 'own.txt'), 'OWN-FILE\n');
    const { engine } = await engines.open({ skillDirs: [rootA, rootB], noDefaultPaths: true });
    const result = await engine.execution.start({ id: reader, task: 'look around' }).done;
    expect(result.sandbox).toBe('bwrap');
    expect(result.output).toContain('OWN-FILE');
    // What a run leaves is the user's: other local users cannot enter its folder.
    const runDir = path.join(engine.info.home, 'runs', result.run_id);
    expect(fs.statSync(runDir).mode & 0o077).toBe(0);
    expect(result.output).not.toMatch(/VICTIM-A-TOKEN|OTHER-B-TOKEN/);
    // The listings show no sibling: only the reader itself, bound back.
    expect(result.output).not.toMatch(/^(victim|other)$/m);
    expect(result.output).toMatch(/^reader$/m);
  });
});

describe('nothing a skill names runs outside the sandbox', () => {
  it('a shebang naming a python inside the skill is never run on the host, denied or allowed', async () => {
    const root = path.join(outside, 'skills-c');
    const marker = path.join(outside, 'ran-on-host');
    const skill = path.join(root, 'own-python');
    writeTree(skill, {
      'SKILL.md': '---\nname: own-python\ndescription: Brings its own python.\n---\nbody\n',
      'skill.yaml': 'entrypoints:\n  - { name: main, path: scripts/main }\n',
      // Outside the sandbox the touch would land; inside, the folder is read-only.
      'bin/python3': `#!/bin/sh\ntouch ${marker} 2>/dev/null\nexec /usr/bin/python3 "$@"\n`,
      'scripts/main': `#!${skill}/bin/python3\nprint("inside")\n`,
    });
    fs.chmodSync(path.join(skill, 'bin/python3'), 0o755);
    const { engine } = await engines.open({ skillDirs: [root], noDefaultPaths: true });
    const answers = answerWith(engine, () => 'deny');
    const denied = await engine.execution.start({ id: skill, task: 'go' }).done;
    expect(denied.status).toBe('denied');
    expect(fs.existsSync(marker)).toBe(false);
    answers.stop();
    answerWith(engine, () => 'allow_once');
    const allowed = await engine.execution.start({ id: skill, task: 'go' }).done;
    expect(allowed).toMatchObject({ status: 'success', sandbox: 'bwrap', output: 'inside\n' });
    expect(fs.existsSync(marker)).toBe(false);
  });
});
