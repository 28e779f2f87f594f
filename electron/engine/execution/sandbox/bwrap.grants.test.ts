import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEngines, tempDir, writeTree } from '../../../testing/fixtures';
import { answerWith, scriptSkill } from '../testSkills';

// Declared write grants that reach what the sandbox itself puts in place (real engine, real
// bwrap). Found probing the CLI from outside: `write: ["/var/**"]` or `["/**"]` stopped bwrap
// with "Can't remount readonly on /newroot/var/tmp", and `write: ["/proc/**"]` bound the host's
// /proc over the sandbox's own, showing every process of the machine.
const engines = isolatedEngines();
const made: string[] = [];
afterEach(async () => {
  await engines.cleanup();
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(process.platform !== 'linux')('bwrap: write grants around what the sandbox hides', () => {
  it('a write grant of a folder that holds a hidden one (the home) runs, and that folder stays hidden', async () => {
    // The user's home sits inside the granted folder, as /var/tmp does inside a grant of /var;
    // outside /tmp, so only its own mask hides it (inside /tmp, the /tmp mask would).
    const granted = fs.mkdtempSync(path.join(__dirname, '../../../../node_modules/.cache-grants-'));
    made.push(granted);
    const home = path.join(granted, 'user');
    writeTree(home, { '.ssh/id_rsa': 'HOME-SECRET\n' });
    const dir = tempDir('skilldeck-grants-');
    const script = `cat ${home}/.ssh/id_rsa 2>&1\necho x > ${granted}/granted.txt && echo wrote`;
    const skill = scriptSkill(dir, 'wide', script, [
      `permissions: { filesystem: { write: ['${granted}/**'] } }`,
    ]);
    const { engine } = await engines.open({ skillDirs: [dir], noDefaultPaths: true, userHome: home });
    const answers = answerWith(engine, () => 'allow_once');
    const result = await engine.execution.start({ id: skill, task: 'write' }).done;
    answers.stop();
    expect(result.error ?? '').not.toMatch(/could not start/);
    expect(result.output).not.toContain('HOME-SECRET');
    expect(result.output).toContain('wrote');
    expect(fs.readFileSync(path.join(granted, 'granted.txt'), 'utf8')).toBe('x\n');
  }, 20_000);

  for (const declared of ['/proc/**', '/dev/**', '/sys/**', '/**']) {
    it(`a write grant of ${declared} is refused, saying why, and nothing runs`, async () => {
      const dir = tempDir('skilldeck-grants-');
      const marker = path.join(dir, 'ran');
      const skill = scriptSkill(dir, 'kernel', `touch ${marker}\nls /proc`, [
        `permissions: { filesystem: { write: ['${declared}'] } }`,
      ]);
      const { engine } = await engines.open({ skillDirs: [dir], noDefaultPaths: true });
      const answers = answerWith(engine, () => 'allow_once');
      const result = await engine.execution.start({ id: skill, task: 'look' }).done;
      answers.stop();
      expect(result.status).toBe('failure');
      expect(result.error).toContain(`write access to ${declared.replace(/\/\*\*$/, '') || '/'}:`);
      expect(result.error).not.toMatch(/remount|mkdir/);
      expect(fs.existsSync(marker)).toBe(false);
    }, 20_000);
  }
});
