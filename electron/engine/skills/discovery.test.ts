import { execFileSync } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SkillList } from '../../../shared/contract';
import { SkillCatalog } from './catalog';
import { discoveryRoots, scanRootSync } from './discovery';
import { isolatedOptions, rawSkillMd, tempDir, writeTree } from '../../testing/fixtures';

let base: string;

beforeEach(async () => {
  base = tempDir();
});

afterEach(async () => {
  await fsp.rm(base, { recursive: true, force: true });
});

const skill = (name: string, description = `The ${name} skill.`) =>
  rawSkillMd(`name: ${name}\ndescription: ${description}`);
const at = (...parts: string[]) => path.join(base, ...parts);

describe('discoveryRoots', () => {
  it('lists the folders lowest precedence first', () => {
    const roots = discoveryRoots(
      isolatedOptions(base, { bundledDir: at('app/skills'), extraDirs: [at('x'), at('y')] }),
    );
    expect(roots).toEqual([
      { path: at('app/skills'), source: 'bundled' },
      { path: at('user/.claude/skills'), source: 'user' },
      { path: at('user/.agents/skills'), source: 'user' },
      { path: at('home/skills'), source: 'managed' },
      { path: at('workspace/skills'), source: 'workspace' },
      { path: at('workspace/.claude/skills'), source: 'workspace' },
      { path: at('workspace/.agents/skills'), source: 'workspace' },
      { path: at('x'), source: 'extra' },
      { path: at('y'), source: 'extra' },
    ]);
  });

  it('uses only the extra folders with noDefaultPaths', () => {
    const roots = discoveryRoots(
      isolatedOptions(base, { bundledDir: at('app/skills'), extraDirs: [at('x')], noDefaultPaths: true }),
    );
    expect(roots).toEqual([{ path: at('x'), source: 'extra' }]);
  });
});

describe('SkillCatalog discovery', () => {
  it('labels each source and lists every folder searched, missing ones with exists:false', async () => {
    writeTree(base, {
      'app/skills/b1/SKILL.md': skill('b1'),
      'user/.claude/skills/u1/SKILL.md': skill('u1'),
      'user/.agents/skills/u2/SKILL.md': skill('u2'),
      'home/skills/m1/SKILL.md': skill('m1'),
      'workspace/skills/w1/SKILL.md': skill('w1'),
      'workspace/.agents/skills/w2/SKILL.md': skill('w2'),
      'extra/e1/SKILL.md': skill('e1'),
    });
    const catalog = await SkillCatalog.open(
      isolatedOptions(base, { bundledDir: at('app/skills'), extraDirs: [at('extra'), at('missing')] }),
    );
    const list = catalog.list();
    expect(SkillList.safeParse(list).success).toBe(true);
    expect(list.skills.map((s) => [s.name, s.source, s.root])).toEqual([
      ['b1', 'bundled', at('app/skills')],
      ['u1', 'user', at('user/.claude/skills')],
      ['u2', 'user', at('user/.agents/skills')],
      ['m1', 'managed', at('home/skills')],
      ['w1', 'workspace', at('workspace/skills')],
      ['w2', 'workspace', at('workspace/.agents/skills')],
      ['e1', 'extra', at('extra')],
    ]);
    expect(list.folders.map((f) => [f.path, f.source, f.exists, f.skillCount])).toEqual([
      [at('app/skills'), 'bundled', true, 1],
      [at('user/.claude/skills'), 'user', true, 1],
      [at('user/.agents/skills'), 'user', true, 1],
      [at('home/skills'), 'managed', true, 1],
      [at('workspace/skills'), 'workspace', true, 1],
      [at('workspace/.claude/skills'), 'workspace', false, 0],
      [at('workspace/.agents/skills'), 'workspace', true, 1],
      [at('extra'), 'extra', true, 1],
      [at('missing'), 'extra', false, 0],
    ]);
    expect(list.skills.every((s) => s.routable && s.shadows.length === 0 && s.shadowedBy === undefined)).toBe(
      true,
    );
  });

  it('searches only the extra folders with noDefaultPaths', async () => {
    writeTree(base, { 'home/skills/m1/SKILL.md': skill('m1'), 'extra/e1/SKILL.md': skill('e1') });
    const catalog = await SkillCatalog.open(
      isolatedOptions(base, { extraDirs: [at('extra')], noDefaultPaths: true }),
    );
    expect(catalog.list().skills.map((s) => s.name)).toEqual(['e1']);
    expect(catalog.list().folders.map((f) => f.path)).toEqual([at('extra')]);
  });

  it('lets a higher-precedence skill shadow a same-named one, recorded on both sides', async () => {
    writeTree(base, {
      'app/skills/pdf/SKILL.md': skill('pdf', 'Bundled pdf.'),
      'user/.claude/skills/pdf/SKILL.md': skill('pdf', 'User pdf.'),
      'workspace/.claude/skills/pdf/SKILL.md': skill('pdf', 'Workspace pdf.'),
      'home/skills/other/SKILL.md': skill('other'),
    });
    const catalog = await SkillCatalog.open(isolatedOptions(base, { bundledDir: at('app/skills') }));
    const list = catalog.list();
    const pdf = (root: string) => list.skills.find((s) => s.id === at(root, 'pdf'));
    const winner = pdf('workspace/.claude/skills');
    expect(winner).toMatchObject({ description: 'Workspace pdf.', routable: true, problems: [] });
    expect(winner?.shadowedBy).toBeUndefined();
    expect(winner?.shadows).toEqual([at('app/skills/pdf'), at('user/.claude/skills/pdf')]);
    for (const loser of [pdf('app/skills'), pdf('user/.claude/skills')]) {
      expect(loser).toMatchObject({
        shadowedBy: at('workspace/.claude/skills/pdf'),
        routable: false,
        shadows: [],
      });
      expect(loser?.problems).toEqual([expect.objectContaining({ severity: 'warning', code: 'shadowed' })]);
      expect(loser?.problems[0].message).toContain(`Shadowed by ${at('workspace/.claude/skills/pdf')}`);
    }
  });

  it('lets an extra folder shadow a workspace skill, and .agents shadow .claude in one tier', async () => {
    writeTree(base, {
      'workspace/.claude/skills/a/SKILL.md': skill('dup-a'),
      'workspace/.agents/skills/a/SKILL.md': skill('dup-a'),
      'workspace/skills/b/SKILL.md': skill('dup-b'),
      'extra/b/SKILL.md': skill('dup-b'),
    });
    const catalog = await SkillCatalog.open(isolatedOptions(base, { extraDirs: [at('extra')] }));
    const byId = new Map(catalog.list().skills.map((s) => [s.id, s]));
    expect(byId.get(at('workspace/.claude/skills/a'))?.shadowedBy).toBe(at('workspace/.agents/skills/a'));
    expect(byId.get(at('workspace/.agents/skills/a'))?.shadows).toEqual([at('workspace/.claude/skills/a')]);
    expect(byId.get(at('workspace/skills/b'))?.shadowedBy).toBe(at('extra/b'));
    expect(byId.get(at('extra/b'))?.shadows).toEqual([at('workspace/skills/b')]);
    // It said "workspace skills take precedence over workspace ones" of .agents over .claude.
    const shadowed = (id: string) => byId.get(id)?.problems.find((p) => p.code === 'shadowed')?.message;
    expect(shadowed(at('workspace/.claude/skills/a'))).toBe(
      `Shadowed by ${at('workspace/.agents/skills/a')}: both are workspace skills, and the folder searched later (${at('workspace/.agents/skills')}) takes precedence. Rename one of them to use both.`,
    );
    expect(shadowed(at('workspace/skills/b'))).toContain('extra skills take precedence over workspace ones');
  });

  it('resolves same-named skills inside one folder by path order, deterministically', async () => {
    writeTree(base, {
      'extra/zeta/tool/SKILL.md': skill('tool', 'Later in path order.'),
      'extra/alpha/tool/SKILL.md': skill('tool', 'First in path order.'),
      'extra/mid/tool/SKILL.md': skill('tool', 'Middle.'),
    });
    const catalog = await SkillCatalog.open(
      isolatedOptions(base, { extraDirs: [at('extra')], noDefaultPaths: true }),
    );
    const [first, second, third] = catalog.list().skills;
    expect([first.id, second.id, third.id]).toEqual([
      at('extra/alpha/tool'),
      at('extra/mid/tool'),
      at('extra/zeta/tool'),
    ]);
    expect(first).toMatchObject({
      description: 'First in path order.',
      shadows: [second.id, third.id],
      routable: true,
    });
    expect(second.shadowedBy).toBe(first.id);
    expect(third.shadowedBy).toBe(first.id);
    expect(third.problems[0].message).toMatch(/path order/);
  });

  it('searches a folder reached under two names once, under the lower-precedence source', async () => {
    // The workspace is the app's own repo: its skills/ is the bundled folder.
    writeTree(base, { 'workspace/skills/own/SKILL.md': skill('own') });
    await fsp.mkdir(at('links'), { recursive: true });
    await fsp.symlink(at('workspace/skills'), at('links/again'));
    const catalog = await SkillCatalog.open(
      isolatedOptions(base, { bundledDir: at('workspace/skills'), extraDirs: [at('links/again')] }),
    );
    const list = catalog.list();
    expect(list.skills.map((s) => [s.name, s.source])).toEqual([['own', 'bundled']]);
    expect(list.skills[0].shadows).toEqual([]);
    const folders = list.folders.filter((f) => f.exists && f.skillCount === 0 && f.duplicateOf);
    expect(folders.map((f) => [f.path, f.source, f.duplicateOf])).toEqual([
      [at('workspace/skills'), 'workspace', at('workspace/skills')],
      [at('links/again'), 'extra', at('workspace/skills')],
    ]);
  });

  it('follows symlinked skill folders without finding one skill twice or looping', async () => {
    writeTree(base, {
      'real/linked/SKILL.md': skill('linked'),
      'extra/plain/SKILL.md': skill('plain'),
    });
    await fsp.symlink(at('real/linked'), at('extra/linked'));
    await fsp.symlink(at('extra'), at('extra/plain/loop'));
    const catalog = await SkillCatalog.open(
      isolatedOptions(base, { extraDirs: [at('extra'), at('real')], noDefaultPaths: true }),
    );
    expect(catalog.list().skills.map((s) => [s.name, s.id])).toEqual([
      ['linked', at('extra/linked')],
      ['plain', at('extra/plain')],
    ]);
  });

  it('bounds the scan of one folder and says so', async () => {
    writeTree(base, {
      'extra/a/SKILL.md': skill('a'),
      'extra/b/c/d/SKILL.md': skill('d'),
      'extra/e/SKILL.md': skill('e'),
    });
    const scan = scanRootSync(at('extra'), at('extra'), 'extra', { maxDepth: 6, maxDirs: 3 });
    expect(scan.truncated).toBe(true);
    expect(scan.skills.map((s) => path.basename(s.dir))).toEqual(['a']);
    expect(scan.problems).toEqual([expect.objectContaining({ code: 'scan-limit', severity: 'warning' })]);
  });

  it('lists a root that is a file as searched, with a problem', async () => {
    writeTree(base, { 'file.txt': 'not a folder' });
    const catalog = await SkillCatalog.open(
      isolatedOptions(base, { extraDirs: [at('file.txt')], noDefaultPaths: true }),
    );
    expect(catalog.list().folders).toEqual([
      expect.objectContaining({
        path: at('file.txt'),
        exists: true,
        skillCount: 0,
        problems: [expect.objectContaining({ code: 'folder-unreadable' })],
      }),
    ]);
  });

  it('lists a skill whose SKILL.md is a dangling link, a loop, a folder or a pipe, with an error saying so', async () => {
    writeTree(base, {
      'extra/folder/SKILL.md/notes.md': 'A folder, not a file.\n',
      'extra/to-folder/docs/readme.md': 'Docs.\n',
      'extra/pipe/README.md': 'Holds a pipe.\n',
      'extra/fine/SKILL.md': skill('fine'),
      'extra/both/skill.md': skill('both'),
      'shared/linked.md': skill('linked'),
    });
    // Unchanged: a readable skill.md beside a broken SKILL.md wins, and a link to a file anywhere is followed.
    await fsp.symlink('gone.md', at('extra/both/SKILL.md'));
    await fsp.mkdir(at('extra/linked'));
    await fsp.symlink(at('shared/linked.md'), at('extra/linked/SKILL.md'));
    await fsp.mkdir(at('extra/dangling'));
    await fsp.symlink('../moved/SKILL.md', at('extra/dangling/SKILL.md'));
    await fsp.mkdir(at('extra/loop'));
    await fsp.symlink('SKILL.md', at('extra/loop/SKILL.md'));
    await fsp.symlink('docs', at('extra/to-folder/SKILL.md'));
    if (process.platform !== 'win32') execFileSync('mkfifo', [at('extra/pipe/SKILL.md')]);
    const catalog = await SkillCatalog.open(
      isolatedOptions(base, { extraDirs: [at('extra')], noDefaultPaths: true }),
    );
    const listed = new Map(catalog.list().skills.map((s) => [path.relative(at('extra'), s.id), s]));
    const problem = (dir: string) => {
      const s = listed.get(dir);
      expect(s).toMatchObject({ name: dir, routable: false, file: at('extra', dir, 'SKILL.md') });
      expect(s?.problems).toHaveLength(1);
      expect(s?.problems[0]).toMatchObject({ severity: 'error', code: 'file-unreadable' });
      return s?.problems[0].message;
    };
    const fix = "the skill's frontmatter and instructions go in a file named SKILL.md.";
    expect(problem('dangling')).toBe(
      "SKILL.md is a link to ../moved/SKILL.md, which does not exist; point the link at the skill's file, or put the file itself here.",
    );
    expect(problem('loop')).toBe(
      'SKILL.md is a link to SKILL.md, which leads round in a loop of links; put the file itself here.',
    );
    expect(problem('folder')).toBe(`SKILL.md is a folder, not a file; ${fix}`);
    expect(problem('to-folder')).toBe(`SKILL.md is a link to docs, which is a folder, not a file; ${fix}`);
    if (process.platform !== 'win32')
      expect(problem('pipe')).toBe(`SKILL.md is a pipe, socket or device, not a file; ${fix}`);
    expect(listed.get('fine')).toMatchObject({ routable: true, problems: [] });
    expect(listed.get('both')).toMatchObject({ file: at('extra/both/skill.md'), routable: true });
    expect(listed.get('both')?.problems.map((p) => p.code)).toEqual(['skill-file-name']);
    expect(listed.get('linked')).toMatchObject({ routable: true, problems: [] });

    // Opening one shows the same error (the pipe is never read), and validation the reference's words.
    for (const dir of ['dangling', 'folder', ...(process.platform === 'win32' ? [] : ['pipe'])]) {
      const detail = await catalog.get(at('extra', dir));
      expect(detail.problems).toEqual(listed.get(dir)?.problems);
      expect(detail.validation).toEqual({ valid: false, errors: ['Missing required file: SKILL.md'] });
    }
  });
});
