import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { widenable } from '../../../shared/contract';
import { isolatedEngines } from '../../testing/fixtures';
import { answerWith, scriptSkill } from './testSkills';

// A script that changed folder and then wrote a bare or relative name was refused, but the
// refusal named the file relative to a folder the engine does not know: resolved against the
// run folder, which is writable, it read as nothing outside the grants. Probing `skilldeck run`,
// `cd /etc && echo x > planted.conf`, `cd /usr/share && touch newfile` and Python's
// os.chdir('/var/lib'); open('state.db', 'w') all finished 'success' with no violation at all.
const engines = isolatedEngines();
afterEach(() => engines.cleanup());

describe('a refused write named relative to a folder the script changed to (real bwrap)', () => {
  it('is reported, by the name the script used, and offered as nothing to allow', async () => {
    const opened = await engines.open();
    const id = scriptSkill(
      path.join(opened.workspace, 'skills'),
      'cd-writer',
      [
        'cd /etc && echo x > planted.conf',
        'cd /usr/share && touch newfile',
        `python3 -c "import os; os.chdir('/var/lib'); open('state.db', 'w')"`,
        'exit 0',
      ].join('\n'),
    );
    await opened.engine.reloadSkills();
    answerWith(opened.engine, () => 'allow_once');
    const result = await opened.engine.execution.start({ id, task: 'go' }).done;
    expect(result.sandbox).toBe('bwrap');
    expect(result.violations.map((v) => [v.kind, v.target])).toEqual([
      ['write', 'planted.conf'],
      ['write', 'newfile'],
      ['write', 'state.db'],
    ]);
    expect(result.violations[0].message).toMatch(
      /tried to write planted\.conf in a folder it changed to, not its run folder, which the sandbox keeps read-only there/,
    );
    expect(result.violations.some(widenable)).toBe(false);
    expect(fs.existsSync('/etc/planted.conf')).toBe(false);
  });
});
