import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '..';
import { tempDir } from '../../testing/fixtures';
import { readFileTree } from '../skills/files';
import { recoverRepairs } from './journal';
import { RevisionStore } from './revisions';
import { makeSkill, skillDoc, snapshotBytes } from './testFixtures';

let bundleDir: string;
let child: string;
const roots: string[] = [];
beforeAll(async () => {
  bundleDir = tempDir('skilldeck-repair-child-');
  child = path.join(bundleDir, 'apply.cjs');
  await build({
    entryPoints: [path.join(__dirname, '../../testing/repairApplyChild.ts')],
    outfile: child,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'silent',
  });
});
afterAll(() => {
  for (const r of [bundleDir, ...roots]) fs.rmSync(r, { recursive: true, force: true });
});

const DOC = (n: string) => skillDoc('mixed', 'Three files. Use in tests.', `# Mixed ${n}\n`);
function threeFiles() {
  const fx = makeSkill('mixed', {
    'SKILL.md': DOC('v1'),
    'references/a.md': 'alpha\r\nwith CRLF\r\n',
    'references/b.md': 'beta, no newline',
  });
  roots.push(fx.root);
  return fx;
}
const CHANGES = [
  { path: 'SKILL.md', before: null, after: DOC('v2') },
  { path: 'references/a.md', before: null, after: 'alpha 2\r\n' },
  { path: 'references/b.md', before: null, after: 'beta 2' },
];

async function until(check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting for the child');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const leftovers = (dir: string) => Object.keys(snapshotBytes(dir)).filter((f) => f.includes('.repair-'));

describe('a crash mid-apply leaves the skill as it was', () => {
  it('a child killed with SIGKILL between file swaps is rolled back at the next start', async () => {
    const fx = threeFiles();
    const original = snapshotBytes(fx.dir);
    const hash = (await readFileTree(fx.dir)).contentHash;
    const proc = spawn(process.execPath, [child, fx.home, fx.dir, hash, JSON.stringify(CHANGES)], {
      env: { ...process.env, SKILLDECK_TEST_REPAIR_DELAY_MS: '3000' },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => proc.on('exit', (_code, signal) => resolve(signal)));
    // The first file is swapped in; the child now sleeps before the second.
    await until(() => fs.readFileSync(path.join(fx.dir, 'SKILL.md'), 'utf8').includes('v2'));
    proc.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    // Half applied on disk: exactly the state a crash leaves.
    expect(fs.readFileSync(path.join(fx.dir, 'references/a.md'))).toEqual(original['references/a.md']);
    const revisions = fs.readdirSync(path.join(fx.home, 'repairs/mixed'));
    expect(
      JSON.parse(fs.readFileSync(path.join(fx.home, 'repairs/mixed', revisions[0], 'journal.json'), 'utf8'))
        .state,
    ).toBe('applying');

    // Start-up (createEngine runs recoverRepairs before the first scan).
    const engine = await createEngine({
      home: fx.home,
      userHome: fx.root,
      workspace: fx.root,
      noDefaultPaths: true,
    });
    await engine.close();
    expect(snapshotBytes(fx.dir)).toEqual(original);
    expect(leftovers(fx.dir)).toEqual([]);
    expect(fs.readdirSync(path.join(fx.home, 'repairs/mixed'))).toEqual([]);
    expect(new RevisionStore(fx.home).history('mixed')).toEqual([]);
  });

  it('a journal left in "applying" after every swap (crash before commit) is rolled back, a bundled copy removed', async () => {
    const fx = threeFiles();
    const original = snapshotBytes(fx.dir);
    const store = new RevisionStore(fx.home);
    const hash = (await readFileTree(fx.dir)).contentHash;
    const proposal = {
      id: null,
      source: 'user' as const,
      error_signature: 'e',
      root_cause: 'r',
      expected_effect: 'x',
    };
    const rev = await store.apply({
      skill: 'mixed',
      skillDir: fx.dir,
      contentHash: hash,
      changes: CHANGES,
      bundled: false,
      proposal,
    });
    const copy = await store.apply({
      skill: 'mixed',
      skillDir: fx.dir,
      contentHash: (await readFileTree(fx.dir)).contentHash,
      changes: [CHANGES[2]],
      bundled: true,
      proposal,
    });
    expect(fs.existsSync(copy.skill_id)).toBe(true);
    for (const r of [rev, copy]) {
      const journal = path.join(fx.home, 'repairs/mixed', r.revision, 'journal.json');
      fs.writeFileSync(journal, fs.readFileSync(journal, 'utf8').replace('"committed"', '"applying"'));
    }
    expect(recoverRepairs(fx.home).rolledBack.sort()).toEqual([rev.revision, copy.revision].sort());
    expect(snapshotBytes(fx.dir)).toEqual(original);
    expect(fs.existsSync(copy.skill_id)).toBe(false);
    expect(store.history('mixed')).toEqual([]);
  });

  it('an undo cut short ("undoing") is finished at start-up', async () => {
    const fx = threeFiles();
    const original = snapshotBytes(fx.dir);
    const store = new RevisionStore(fx.home);
    const hash = (await readFileTree(fx.dir)).contentHash;
    const proposal = {
      id: null,
      source: 'user' as const,
      error_signature: 'e',
      root_cause: 'r',
      expected_effect: 'x',
    };
    const rev = await store.apply({
      skill: 'mixed',
      skillDir: fx.dir,
      contentHash: hash,
      changes: CHANGES,
      bundled: false,
      proposal,
    });
    // The undo got as far as restoring one file.
    const journal = path.join(fx.home, 'repairs/mixed', rev.revision, 'journal.json');
    fs.writeFileSync(journal, fs.readFileSync(journal, 'utf8').replace('"committed"', '"undoing"'));
    fs.writeFileSync(path.join(fx.dir, 'SKILL.md'), original['SKILL.md']);
    expect(recoverRepairs(fx.home).finished).toEqual([rev.revision]);
    expect(snapshotBytes(fx.dir)).toEqual(original);
    expect(store.history('mixed')[0].undone_at).not.toBeNull();
  });
});
