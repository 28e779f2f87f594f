import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { widenable } from '../../../shared/contract';
import { isolatedEngines, writeTree } from '../../testing/fixtures';
import { answerWith, scriptSkill } from './testSkills';

// The sandbox mounts a write path, and each guarded path under it, in place; the kernel refuses
// to move or remove a mount point with EBUSY. Probing `skilldeck run`, `mv .git .git-old`,
// `mv .config cfg`, Python's os.rename('.envrc', …) and `rm -rf "$WORKSPACE/out"` under a grant
// of out/** all failed with only "Device or resource busy", and the run said no violations.
const engines = isolatedEngines();
afterEach(() => engines.cleanup());

describe('moving or removing what the sandbox mounts in place (real bwrap)', () => {
  it('is reported as a violation that says what was kept and why', async () => {
    const opened = await engines.open();
    const ws = opened.workspace;
    writeTree(ws, {
      '.git/config': '[core]\n',
      '.envrc': 'export A=1\n',
      'out/old.txt': 'old\n',
      'report.txt': 'v1\n',
    });
    const id = scriptSkill(
      path.join(ws, 'skills'),
      'mover',
      [
        'cd "$WORKSPACE"',
        'mv .git .git-old',
        `python3 -c "import os; os.rename('.envrc', 'envrc.bak')"`,
        'rm -rf "$WORKSPACE/out"',
        // The atomic way to replace a file: write beside it, then rename over it.
        `python3 -c "import os; w=os.environ['WORKSPACE']; open(w+'/report.tmp','w').write('v2'); os.replace(w+'/report.tmp', w+'/report.txt')"`,
        'exit 0',
      ].join('\n'),
      [
        "permissions: { filesystem: { write: ['{workspace}/**', '{workspace}/out/**', '{workspace}/report.txt'] } }",
      ],
    );
    await opened.engine.reloadSkills();
    answerWith(opened.engine, () => 'allow_once');
    const result = await opened.engine.execution.start({ id, task: 'go' }).done;
    expect(result.sandbox).toBe('bwrap');
    const real = fs.realpathSync(ws);
    expect(result.violations.map((v) => [v.kind, v.target])).toEqual([
      ['write', path.join(real, '.git')],
      ['write', path.join(real, '.envrc')],
      ['write', path.join(real, 'out')],
      ['write', path.join(real, 'report.txt')],
    ]);
    expect(result.violations[0].message).toMatch(
      /^tried to move or remove .*\/\.git, which runs code outside the sandbox \(\.git\): kept in place and read-only/,
    );
    expect(result.violations[2].message).toMatch(
      /^tried to remove .*\/out, where the sandbox keeps empty read-only stand-ins for files that would run code/,
    );
    expect(result.violations[3].message).toMatch(/which the sandbox mounts in place while the skill runs/);
    // No grant moves a mount point: nothing is offered to allow.
    expect(result.violations.some(widenable)).toBe(false);
    expect(fs.readFileSync(path.join(ws, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(fs.existsSync(path.join(ws, '.envrc'))).toBe(true);
  });
});
