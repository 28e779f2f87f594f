import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '..';
import { createHandlers } from '../../rpc/handlers';
import { replayWith, runSkill } from '../../testing/scriptRunner';
import { readFileTree } from '../skills/files';
import { RevisionStore } from './revisions';
import { RepairService } from './service';
import { makeSkill, noModel, renamedReference, scriptedModel, skillDoc, snapshotBytes } from './testFixtures';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

const hashOf = async (dir: string) => (await readFileTree(dir)).contentHash;

/** A skill with CRLF + BOM text, a file without a final newline, an executable script and a binary asset. */
function mixedSkill() {
  const fx = makeSkill('mixed', {
    'SKILL.md': skillDoc(
      'mixed',
      'Mixed line endings. Use in tests.',
      '# Mixed\n\nSee references/notes.md.\n',
    ),
    'references/notes.md': '\uFEFFline one\r\nline two\r\nlast line without newline',
    'scripts/tool.py': '#!/usr/bin/env python3\nprint("v1")\n',
  });
  fs.chmodSync(path.join(fx.dir, 'scripts/tool.py'), 0o755);
  fs.mkdirSync(path.join(fx.dir, 'assets'));
  fs.writeFileSync(path.join(fx.dir, 'assets/blob.bin'), Buffer.from([0, 1, 2, 255, 0x0d, 0x0a, 0]));
  roots.push(fx.root);
  return fx;
}

const request = async (dir: string, changes: { path: string; before: string | null; after: string }[]) => ({
  skill: 'mixed',
  skillDir: dir,
  contentHash: await hashOf(dir),
  changes,
  bundled: false,
  proposal: {
    id: null,
    source: 'user' as const,
    error_signature: 'e',
    root_cause: 'r',
    expected_effect: 'x',
  },
});

describe('revisions: apply, history, undo byte for byte', () => {
  it('undo restores every file byte for byte (CRLF, BOM, no final newline, modes, created files)', async () => {
    const fx = mixedSkill();
    const original = snapshotBytes(fx.dir);
    const hashBefore = await hashOf(fx.dir);
    const store = new RevisionStore(fx.home);
    const rev = await store.apply(
      await request(fx.dir, [
        {
          path: 'references/notes.md',
          before: null,
          after: '\uFEFFline one\r\nline 2\r\nlast line without newline',
        },
        { path: 'scripts/tool.py', before: null, after: '#!/usr/bin/env python3\nprint("v2")\n' },
        { path: 'references/new.md', before: null, after: 'brand new\n' },
      ]),
    );
    expect(rev.content_hash_before).toBe(hashBefore);
    expect(rev.content_hash_after).toBe(await hashOf(fx.dir));
    expect(rev.files.find((f) => f.path === 'references/new.md')?.hash_before).toBeNull();
    expect(fs.readFileSync(path.join(fx.dir, 'references/notes.md'), 'utf8')).toContain('line 2\r\n');
    expect(fs.statSync(path.join(fx.dir, 'scripts/tool.py')).mode & 0o777).toBe(0o755);
    expect(fs.readdirSync(path.join(fx.home, 'repairs/mixed', rev.revision)).sort()).toEqual([
      'after',
      'before',
      'journal.json',
      'record.json',
    ]);

    const undone = await store.undo(rev.revision);
    expect(undone.undone_at).not.toBeNull();
    expect(snapshotBytes(fx.dir)).toEqual(original);
    expect(await hashOf(fx.dir)).toBe(hashBefore);
    expect(fs.statSync(path.join(fx.dir, 'scripts/tool.py')).mode & 0o777).toBe(0o755);
    expect(store.history('mixed')).toMatchObject([{ revision: rev.revision, undone_at: undone.undone_at }]);
    await expect(store.undo(rev.revision)).rejects.toThrow(/already undone/);
  });

  it('two revisions undo in reverse order; undoing the older first is refused while the newer touches the same file', async () => {
    const fx = mixedSkill();
    const original = snapshotBytes(fx.dir);
    const store = new RevisionStore(fx.home);
    const doc = (n: string) =>
      skillDoc('mixed', 'Mixed line endings. Use in tests.', `# Mixed ${n}\n\nSee references/notes.md.\n`);
    const first = await store.apply(
      await request(fx.dir, [{ path: 'SKILL.md', before: null, after: doc('1') }]),
    );
    const second = await store.apply(
      await request(fx.dir, [{ path: 'SKILL.md', before: null, after: doc('2') }]),
    );
    expect(store.history('mixed').map((r) => r.revision)).toEqual([second.revision, first.revision]);
    await expect(store.undo(first.revision)).rejects.toThrow(
      /SKILL\.md changed after it .*Undo the later revision first/,
    );
    await store.undo(second.revision);
    await store.undo(first.revision);
    expect(snapshotBytes(fx.dir)).toEqual(original);
  });

  it('undo also removes the folders a revision created', async () => {
    const fx = makeSkill('mixed', {
      'SKILL.md': skillDoc('mixed', 'No references yet. Use in tests.', '# M\n'),
    });
    roots.push(fx.root);
    const store = new RevisionStore(fx.home);
    const rev = await store.apply(
      await request(fx.dir, [{ path: 'references/deep/new.md', before: null, after: 'x\n' }]),
    );
    await store.undo(rev.revision);
    expect(fs.readdirSync(fx.dir)).toEqual(['SKILL.md']);
  });

  it('refuses unsafe paths and links before writing anything', async () => {
    const fx = mixedSkill();
    const store = new RevisionStore(fx.home);
    fs.symlinkSync('/etc', path.join(fx.dir, 'references/etc'));
    const before = snapshotBytes(fx.dir);
    for (const [p, reason] of [
      ['../escape.md', /leaves the skill folder/],
      ['skill.yaml', /outside SKILL\.md, scripts\/ and references\//],
      ['references/etc/hosts', /symbolic link/],
    ] as const) {
      await expect(
        store.apply(await request(fx.dir, [{ path: p, before: null, after: 'x' }])),
      ).rejects.toThrow(reason);
    }
    expect(snapshotBytes(fx.dir)).toEqual(before);
    expect(fs.existsSync(path.join(fx.home, 'repairs'))).toBe(false);
  });
});

describe('the repair service: stale proposals, per-hunk accept, edits', () => {
  async function proposed() {
    const fx = renamedReference();
    roots.push(fx.root);
    const doc = fs.readFileSync(path.join(fx.dir, 'SKILL.md'), 'utf8');
    // A second mention, far enough away to be its own hunk.
    fs.writeFileSync(
      path.join(fx.dir, 'SKILL.md'),
      `${doc}\n${'filler\n'.repeat(10)}\nRe-read references/style.md at the end.\n`,
    );
    const spec = { task: 'notes', cwd: fx.cwd };
    const service = new RepairService({ home: fx.home, complete: noModel });
    const outcome = await service.repair({
      run: await runSkill(fx.dir, spec),
      skillDir: fx.dir,
      replay: replayWith(spec),
    });
    const [p] = outcome.proposals;
    expect(p.hunks).toHaveLength(2);
    return { fx, service, p, spec };
  }

  it('a stale proposal is refused, says so, and writes nothing', async () => {
    const { fx, service, p } = await proposed();
    fs.appendFileSync(path.join(fx.dir, 'references/style-guide.md'), 'Also: no exclamation marks.\n');
    const before = snapshotBytes(fx.dir);
    expect((await service.proposals({ skill: fx.dir }))[0]).toMatchObject({ id: p.id, stale: true });
    await expect(service.apply(p.id)).rejects.toThrow(/stale: release-notes changed since it was made/);
    expect(snapshotBytes(fx.dir)).toEqual(before);
    expect(service.history('release-notes')).toEqual([]);
  });

  it('applies only the accepted hunks, and an edited proposed side after re-validation', async () => {
    const { fx, service, p } = await proposed();
    const rev = await service.apply(p.id, { accepted_hunks: [1] });
    const doc = fs.readFileSync(path.join(fx.dir, 'SKILL.md'), 'utf8');
    expect(doc).toContain('[the style guide](references/style.md)');
    expect(doc).toContain('Re-read references/style-guide.md at the end.');
    expect(rev.diff).toContain('+Re-read references/style-guide.md at the end.');
    await expect(service.apply(p.id)).rejects.toThrow(/is applied; only a pending proposal/);

    await service.undo(rev.revision);
    const again = await proposed();
    const edited = again.p.files[0].after.replace('Re-read', 'Finally re-read');
    const rev2 = await again.service.apply(again.p.id, { edited: [{ path: 'SKILL.md', content: edited }] });
    expect(rev2.source).toBe('user');
    expect(fs.readFileSync(path.join(again.fx.dir, 'SKILL.md'), 'utf8')).toBe(edited);
    const third = await proposed();
    const renamed = third.p.files[0].after.replace('name: release-notes', 'name: other-name');
    await expect(
      third.service.apply(third.p.id, { edited: [{ path: 'SKILL.md', content: renamed }] }),
    ).rejects.toThrow(/renames the skill/);
  });

  it('revise: a subset of hunks becomes a new proposal, replayed again; the old one is superseded', async () => {
    const { service, p } = await proposed();
    // Only the second mention fixed: the run still stops at the first one.
    const revised = await service.revise(p.id, { accepted_hunks: [1] });
    expect(revised.id).not.toBe(p.id);
    expect(revised.hunks).toHaveLength(1);
    expect(revised.replay).toMatchObject({ verdict: 'same_failure', status: 'failure' });
    const all = await service.proposals({ repair_id: p.repair_id });
    expect(all.find((x) => x.id === p.id)?.status).toBe('superseded');
  });

  it('a rejected proposal is kept with its reason and hunks, and its fixer is not proposed again', async () => {
    const { fx, service, p, spec } = await proposed();
    const rejected = service.reject(p.id, 'I will rename the file back instead', [0]);
    expect(rejected).toMatchObject({
      status: 'rejected',
      reject_reason: 'I will rename the file back instead',
      rejected_hunks: [0],
    });
    // The same failure again: the fixer stays quiet, and the model hears what the user said.
    const model = scriptedModel(['NO_FIX: only the user can decide', 'NO_FIX: still nothing']);
    const next = new RepairService({ home: fx.home, complete: model.complete });
    const outcome = await next.repair({
      run: await runSkill(fx.dir, spec),
      skillDir: fx.dir,
      replay: replayWith(spec),
    });
    expect(outcome.proposals).toEqual([]);
    expect(model.prompts[0].user).toContain('The user rejected it: I will rename the file back instead');
    expect(model.prompts[0].user).toContain('The user rejected these hunks:');
    expect(model.prompts[0].user).toContain(
      '+Before writing, read the house style in [the style guide](references/style-guide.md)',
    );
    // Only hunk 0 was turned down: the model hears that hunk 1 was fine, not "do not repeat" all of it.
    const prior = model.prompts[0].user.slice(model.prompts[0].user.indexOf('## Previous attempt 1'));
    expect(prior).not.toContain('do not repeat it');
    expect(prior).toMatch(
      /The user kept these hunks \(propose them again\):\n```diff\n--- a\/SKILL\.md\n\+\+\+ b\/SKILL\.md\n@@ -18,4 \+18,4 @@\n(?:[^\n]*\n)*?\+Re-read references\/style-guide\.md at the end\./,
    );
    expect(outcome.reason).toMatch(/without a usable proposal/);
  });

  it("rejected with the proposed side edited: the next attempt sees the user's text as a diff", async () => {
    const { fx, service, p, spec } = await proposed();
    const mine = p.files[0].after.replace('Re-read references/style-guide.md', 'Re-read the style guide');
    const rejected = service.reject(p.id, 'closer to this', undefined, [{ path: 'SKILL.md', content: mine }]);
    expect(rejected.user_edits).toEqual([
      { path: 'SKILL.md', diff: expect.stringContaining('+Re-read the style guide at the end.') },
    ]);
    expect(fs.readFileSync(path.join(fx.dir, 'SKILL.md'), 'utf8')).not.toContain('Re-read the style guide');
    expect(() => service.reject(p.id, 'again')).toThrow(/is rejected; only a pending proposal/);

    const model = scriptedModel(['NO_FIX: only the user can decide', 'NO_FIX: still nothing']);
    const next = new RepairService({ home: fx.home, complete: model.complete });
    await next.repair({ run: await runSkill(fx.dir, spec), skillDir: fx.dir, replay: replayWith(spec) });
    expect(model.prompts[0].user).toMatch(
      /the user edited the proposed side to this \(their own idea of the fix\):\n```diff\n--- a\/SKILL\.md\n\+\+\+ b\/SKILL\.md\n(?:[^\n]*\n)*?-Re-read references\/style\.md at the end\.\n\+Re-read the style guide at the end\./,
    );
  });

  it('a rejection that edits a file outside the proposal is refused and leaves it pending', async () => {
    const { service, p } = await proposed();
    expect(() =>
      service.reject(p.id, undefined, undefined, [{ path: 'scripts/x.py', content: 'x' }]),
    ).toThrow(/scripts\/x\.py is not one of this proposal's files/);
    expect((await service.proposals({ skill: p.skill_id }))[0]).toMatchObject({
      id: p.id,
      status: 'pending',
    });
  });
});

describe('a bundled (read-only) skill', () => {
  it('is repaired into a managed copy that shadows it; undo removes the copy', async () => {
    const fx = renamedReference();
    roots.push(fx.root);
    const bundledDir = path.dirname(fx.dir);
    const engine = await createEngine({
      home: fx.home,
      userHome: path.join(fx.root, 'user'),
      workspace: path.join(fx.root, 'ws'),
      bundledDir,
    });
    try {
      const bundled = engine.listSkills().skills.find((s) => s.name === 'release-notes');
      expect(bundled?.source).toBe('bundled');
      const spec = { task: 'notes', cwd: fx.cwd };
      const outcome = await engine.repair.repair({
        run: await runSkill(fx.dir, spec),
        skillDir: fx.dir,
        replay: replayWith(spec),
      });
      const [p] = outcome.proposals;
      expect(p.bundled).toBe(true);
      const original = snapshotBytes(fx.dir);
      const rev = await engine.repair.apply(p.id);
      const copy = path.join(fx.home, 'skills', 'release-notes');
      expect(rev).toMatchObject({ copied_from: fx.dir, skill_id: copy });
      expect(snapshotBytes(fx.dir)).toEqual(original);
      expect(fs.readFileSync(path.join(copy, 'SKILL.md'), 'utf8')).toContain('references/style-guide.md');
      const listed = engine.listSkills().skills.filter((s) => s.name === 'release-notes');
      expect(listed.find((s) => s.source === 'managed')?.shadows).toEqual([fx.dir]);
      expect((await runSkill(copy, spec)).status).toBe('success');

      const handlers = createHandlers(engine);
      expect((await handlers['repair.history']({ skill: 'release-notes' })).revisions).toHaveLength(1);
      await handlers['repair.undo']({ revision: rev.revision });
      expect(fs.existsSync(copy)).toBe(false);
      expect(
        engine
          .listSkills()
          .skills.filter((s) => s.name === 'release-notes')
          .map((s) => s.source),
      ).toEqual(['bundled']);
      // The engine wires the executor in: an unknown run is simply not found.
      await expect(handlers['repair.start']({ run_id: 'run-1' })).rejects.toMatchObject({
        code: 'not_found',
      });
    } finally {
      await engine.close();
    }
  });
});
