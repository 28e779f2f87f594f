import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEngines } from '../../testing/fixtures';
import { answerWith, scriptSkill } from './testSkills';

// An "always allow" bound the declared paths as written. Probing skilldeck run, a skill always
// allowed to write {workspace}/cache/** (a plain folder when the user answered) ran unasked after
// another run had replaced cache with a link to ~/.ssh: the sandbox binds a write path where it
// leads, so the script wrote ~/.ssh/authorized_keys.
const engines = isolatedEngines();
afterEach(() => engines.cleanup());

describe('an always-allow grant and a write path that becomes a link (real bwrap runs)', () => {
  it('asks again, and a deny writes nothing where the link leads', async () => {
    const opened = await engines.open();
    const userHome = path.join(opened.root, 'user');
    fs.mkdirSync(path.join(userHome, '.ssh'), { recursive: true });
    fs.mkdirSync(path.join(opened.workspace, 'cache'), { recursive: true });
    const skills = path.join(opened.root, 'skills');
    const id = scriptSkill(skills, 'cache-writer', 'echo key >> "$WORKSPACE/cache/authorized_keys"', [
      "permissions: { filesystem: { write: ['{workspace}/cache/**'] } }",
    ]);
    const { createEngine } = await import('../index');
    await opened.engine.close();
    const engine = await createEngine({
      home: opened.home,
      userHome,
      workspace: opened.workspace,
      skillDirs: [skills],
      noDefaultPaths: true,
    });
    try {
      const first = answerWith(engine, () => 'allow_always');
      expect((await engine.execution.start({ id, task: 'go' }).done).status).toBe('success');
      first.stop();
      expect(first.requests).toHaveLength(1);
      // Unchanged, the grant holds: asked no more.
      const quiet = answerWith(engine, () => 'deny');
      expect((await engine.execution.start({ id, task: 'go' }).done).status).toBe('success');
      expect(quiet.requests).toHaveLength(0);
      quiet.stop();

      fs.rmSync(path.join(opened.workspace, 'cache'), { recursive: true });
      fs.symlinkSync(path.join(userHome, '.ssh'), path.join(opened.workspace, 'cache'));
      const again = answerWith(engine, () => 'deny');
      const result = await engine.execution.start({ id, task: 'go' }).done;
      expect(again.requests).toHaveLength(1);
      expect(again.requests[0].writes.join('\n')).toContain(path.join(userHome, '.ssh'));
      expect(result.status).toBe('denied');
      expect(fs.existsSync(path.join(userHome, '.ssh/authorized_keys'))).toBe(false);
    } finally {
      await engine.close();
    }
  });

  it('an always-allow for {workspace} paths holds in the folder it was given in, not in another', async () => {
    const opened = await engines.open();
    const skills = path.join(opened.root, 'skills');
    const id = scriptSkill(skills, 'notes-writer', 'echo hi > "$WORKSPACE/notes.md"', [
      "permissions: { filesystem: { write: ['{workspace}/**'] } }",
    ]);
    const elsewhere = path.join(opened.root, 'home-like');
    fs.mkdirSync(elsewhere);
    const { createEngine } = await import('../index');
    await opened.engine.close();
    const open = (workspace: string) =>
      createEngine({
        home: opened.home,
        userHome: opened.root,
        workspace,
        skillDirs: [skills],
        noDefaultPaths: true,
      });
    const runIn = async (workspace: string) => {
      const engine = await open(workspace);
      const asked = answerWith(engine, () => 'allow_always');
      try {
        expect((await engine.execution.start({ id, task: 'go' }).done).status).toBe('success');
        return asked.requests;
      } finally {
        asked.stop();
        await engine.close();
      }
    };
    expect(await runIn(opened.workspace)).toHaveLength(1);
    expect(await runIn(opened.workspace)).toHaveLength(0);
    // Another folder (a terminal opened at ~): the grant given for the project does not stand for it.
    const there = await runIn(elsewhere);
    expect(there).toHaveLength(1);
    expect(there[0].writes.join('\n')).toContain(elsewhere);
    // Each folder keeps its answer: back in the project, nothing is asked.
    expect(await runIn(opened.workspace)).toHaveLength(0);
    expect(await runIn(elsewhere)).toHaveLength(0);
  });
});
