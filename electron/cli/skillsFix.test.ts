import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepairProposal, RepairRevision, SkillSummary } from '../../shared/contract';
import { buildCliBundle } from '../testing/cliBundle';
import { corpusDir, tempDir, writeTree } from '../testing/fixtures';

// `skilldeck skills fix NAME [--apply]` on real third-party skills whose SKILL.md the lenient
// loader lists with an error and never routes: a frontmatter never closed (gogcli), none at all
// (agent-news), one below an HTML comment (moltwallet). The fix is shown as a diff, written
// only with --apply, as a revision whose original bytes are kept.
const root = tempDir('skilldeck-cli-fix-');
const cli = path.join(root, 'cli.cjs');
const skills = path.join(root, 'skills');
const home = path.join(root, 'home');
const FROM_CORPUS = ['gogcli', 'agent-news', 'moltwallet'];

beforeAll(async () => {
  for (const name of FROM_CORPUS)
    fs.cpSync(path.join(corpusDir(), 'skills', 'openclaw__skills', name), path.join(skills, name), {
      recursive: true,
    });
  writeTree(skills, {
    'reading-list/Skill.md': '# Reading list\n\nKeeps a reading list of papers and posts.\n',
    'crlf-notes/SKILL.md':
      '---\r\nname: crlf-notes\r\ndescription: Keep meeting notes tidy.\r\n\r\n# Notes\r\n',
    // Never closed, and a merge left its conflict in it: closing it would not make it load.
    'broken-yaml/SKILL.md':
      '---\nname: broken-yaml\n<<<<<<< ours\ndescription: Ours.\n=======\ndescription: Theirs.\n>>>>>>> theirs\n\n# Body\n',
  });
  await buildCliBundle(cli);
}, 60_000);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const skilldeck = (...args: string[]) =>
  spawnSync(process.execPath, [cli, ...args, '--skills', skills, '--no-default-paths'], {
    env: { ...process.env, SKILLDECK_HOME: home, HOME: root },
    encoding: 'utf8',
  });
const listed = (name: string) =>
  (JSON.parse(skilldeck('skills', 'list', '--json').stdout) as SkillSummary[]).find((s) => s.name === name)!;
const bytes = (name: string) => fs.readFileSync(path.join(skills, name, 'SKILL.md'));

interface FixJson {
  fixed: boolean;
  errors?: string[];
  proposal: RepairProposal | null;
  revision: RepairRevision | null;
}

describe('skilldeck skills fix', () => {
  it('skills show says such a skill is never routed, and which command fixes it', () => {
    const shown = skilldeck('skills', 'show', 'gogcli');
    expect(shown.stdout).toContain('error: The frontmatter is not closed');
    expect(shown.stdout).toContain(
      'It is listed but never routed until this is fixed: skilldeck skills fix gogcli shows the edit that makes it load.',
    );
    expect(skilldeck('skills', 'show', 'crlf-notes').stdout).toContain('skilldeck skills fix crlf-notes');
  });

  it('shows the edit for a frontmatter that is never closed, and writes nothing without --apply', () => {
    const before = bytes('gogcli');
    expect(listed('gogcli').routable).toBe(false);
    const r = skilldeck('skills', 'fix', 'gogcli');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('The frontmatter is not closed');
    expect(r.stdout).toMatch(/^\+---$/m);
    expect(r.stdout).toContain('Nothing was written');
    expect(bytes('gogcli').equals(before)).toBe(true);
    expect(fs.existsSync(path.join(home, 'repairs', '_proposals'))).toBe(false);
  });

  it('applies it as a revision that keeps the original, after which the skill routes', () => {
    const before = bytes('gogcli');
    expect(
      JSON.parse(skilldeck('route', 'list my unread Gmail messages from today', '--json').stdout).plan
        .primary,
    ).toBe(null);
    const r = skilldeck('skills', 'fix', 'gogcli', '--apply', '--json');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as FixJson;
    expect(out.fixed).toBe(true);
    expect(out.proposal?.fixer).toBe('frontmatter');
    const after = bytes('gogcli').toString('utf8');
    expect(after.split('\n').slice(0, 5)).toEqual([
      '---',
      'name: gogcli',
      expect.stringMatching(/^description: Google Workspace CLI/),
      '---',
      '',
    ]);
    // Only the closing line was added.
    expect(after.replace('\n---\n', '\n')).toBe(before.toString('utf8'));
    expect(listed('gogcli')).toMatchObject({ routable: true, problems: [] });
    expect(
      JSON.parse(skilldeck('route', 'list my unread Gmail messages from today', '--json').stdout).plan
        .primary,
    ).toBe('gogcli');
    const kept = path.join(home, 'repairs', 'gogcli', out.revision!.revision);
    expect(fs.readFileSync(path.join(kept, 'before', 'SKILL.md')).equals(before)).toBe(true);
    expect(skilldeck('skills', 'fix', 'gogcli').stdout).toContain('nothing to fix');
  });

  it('lists the revision in skills history, and skills undo puts the original bytes back', () => {
    const original = fs.readFileSync(
      path.join(corpusDir(), 'skills', 'openclaw__skills', 'gogcli', 'SKILL.md'),
    );
    const listedJson = skilldeck('skills', 'history', 'gogcli', '--json');
    expect(listedJson.status).toBe(0);
    const { revisions } = JSON.parse(listedJson.stdout) as { revisions: RepairRevision[] };
    expect(revisions).toHaveLength(1);
    expect(revisions[0]).toMatchObject({
      skill: 'gogcli',
      undone_at: null,
      error_signature: 'frontmatter-unclosed',
    });
    const id = revisions[0].revision;
    expect(skilldeck('skills', 'history', 'gogcli').stdout).toMatch(
      new RegExp(`^${id} .* fixer {2}applied\n`),
    );

    const undo = skilldeck('skills', 'undo', id);
    expect(undo.status).toBe(0);
    expect(undo.stdout).toBe(`Undid ${id} of gogcli: SKILL.md is back as before it.\n`);
    expect(bytes('gogcli').equals(original)).toBe(true);
    expect(listed('gogcli')?.routable).toBe(false);

    const again = skilldeck('skills', 'undo', id, '--json');
    expect(again.status).toBe(1);
    expect(JSON.parse(again.stdout)).toEqual({ undone: false, error: `Revision ${id} is already undone.` });
    expect(skilldeck('skills', 'history', 'gogcli').stdout).toContain(' undone ');
    expect(skilldeck('skills', 'undo').status).toBe(2);
  });

  it('gives a skill without frontmatter its folder name and first paragraph', () => {
    const r = skilldeck('skills', 'fix', 'agent-news', '--apply', '--json');
    expect(r.status).toBe(0);
    const skill = listed('agent-news');
    expect(skill.routable).toBe(true);
    expect(skill.description).toBe(
      'Monitors Hacker News, Reddit, and arXiv for AI agent developments. Produces daily digests and alerts for trending topics.',
    );
  });

  it('moves a frontmatter below other content to the top, keeping that content', () => {
    const before = bytes('moltwallet').toString('utf8');
    expect(skilldeck('skills', 'fix', 'moltwallet', '--apply').status).toBe(0);
    const after = bytes('moltwallet').toString('utf8');
    expect(after.startsWith('---\nname: moltwallet\n')).toBe(true);
    expect(after).toContain('<!-- https://github.com/gillberto1/moltwallet -->');
    expect(after.length).toBe(before.length + 1);
    expect(listed('moltwallet').routable).toBe(true);
  });

  it('edits the skill file as discovery spells it (Skill.md)', () => {
    expect(skilldeck('skills', 'fix', 'reading-list', '--apply').status).toBe(0);
    const text = fs.readFileSync(path.join(skills, 'reading-list', 'Skill.md'), 'utf8');
    expect(
      text.startsWith(
        '---\nname: reading-list\ndescription: Keeps a reading list of papers and posts.\n---\n',
      ),
    ).toBe(true);
    expect(listed('reading-list').routable).toBe(true);
  });

  it('keeps CRLF line ends', () => {
    expect(skilldeck('skills', 'fix', 'crlf-notes', '--apply').status).toBe(0);
    const after = bytes('crlf-notes').toString('utf8');
    expect(after).toBe(
      '---\r\nname: crlf-notes\r\ndescription: Keep meeting notes tidy.\r\n---\r\n\r\n# Notes\r\n',
    );
    expect(listed('crlf-notes').routable).toBe(true);
  });

  it('refuses, with why and exit 1, what needs a person', () => {
    const before = bytes('broken-yaml');
    const r = skilldeck('skills', 'fix', 'broken-yaml', '--json');
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout) as FixJson;
    expect(out.fixed).toBe(false);
    expect(out.errors?.join(' ')).toMatch(/would still not load: .*merge-conflict markers/);
    expect(bytes('broken-yaml').equals(before)).toBe(true);
    expect(skilldeck('skills', 'fix', 'no-such-skill').status).toBe(2);
  });
});
