import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApprovalGrant } from '../../../shared/contract';
import { tempDir } from '../../testing/fixtures';
import { GrantStore } from './grants';

// "Always allow" answers on disk (DESIGN §4): each bound to a skill's exact content and
// declared permissions, so an edited or widened skill asks again.
const root = tempDir('skilldeck-grants-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let count = 0;
const home = () => {
  const dir = path.join(root, `home${++count}`);
  fs.mkdirSync(dir);
  return dir;
};

const grant = (skill: string, over: Partial<ApprovalGrant> = {}): ApprovalGrant => ({
  skill,
  skill_id: `/skills/${skill}`,
  content_hash: `hash-${skill}`,
  permissions_digest: `digest-${skill}`,
  summary: [`writes ./out/** for ${skill}`],
  granted_at: '2030-01-01T00:00:00.000Z',
  extra: { read: [], write: [], network: [] },
  ...over,
});

describe('GrantStore', () => {
  it('keeps a skill folder’s grants for other permissions of the same content, listing the newest', () => {
    // A {workspace} path binds the folder answered in: one grant per project the skill was allowed in.
    const file = home();
    const store = GrantStore.at(file);
    store.put(grant('notes', { permissions_digest: 'in-app' }));
    store.put(grant('notes', { permissions_digest: 'in-docs', granted_at: '2030-01-02T00:00:00.000Z' }));
    expect(store.match('notes', '/skills/notes', 'hash-notes', 'in-app')).toBeDefined();
    expect(store.match('notes', '/skills/notes', 'hash-notes', 'in-docs')).toBeDefined();
    expect(
      GrantStore.at(file)
        .list()
        .map((g) => g.permissions_digest),
    ).toEqual(['in-docs']);
    // An edited skill's grants can match no more: the next answer drops them.
    store.put(grant('notes', { content_hash: 'edited', permissions_digest: 'in-app' }));
    expect(store.match('notes', '/skills/notes', 'hash-notes', 'in-docs')).toBeUndefined();
    expect(store.revoke('notes')).toBe(true);
    expect(store.match('notes', '/skills/notes', 'edited', 'in-app')).toBeUndefined();
  });

  it('keeps an "always allow" per skill folder: a same-named skill elsewhere does not replace it', () => {
    // Two `repo-sync` skills (the user's own and a cloned project's) each allowed always: the
    // second answer dropped the first, so the user's own skill asked again on its next run and
    // lost the paths widened for it.
    const store = GrantStore.at(home());
    const mine = grant('repo-sync', { extra: { read: [], write: ['/home/u/backups'], network: [] } });
    const theirs = grant('repo-sync', {
      skill_id: '/project/.claude/skills/repo-sync',
      content_hash: 'other',
    });
    store.put(mine);
    store.put(theirs);
    expect(store.match('repo-sync', mine.skill_id, mine.content_hash, mine.permissions_digest)).toEqual(mine);
    expect(store.match('repo-sync', theirs.skill_id, 'other', theirs.permissions_digest)).toEqual(theirs);
    // The same folder's new answer still replaces its old one.
    store.put({ ...mine, content_hash: 'edited' });
    expect(store.list().filter((g) => g.skill_id === mine.skill_id)).toHaveLength(1);
  });

  it('keeps its grants in approvals.json, and a new store reads them back', () => {
    const dir = home();
    const store = GrantStore.at(dir);
    expect(store.file).toBe(path.join(dir, 'approvals.json'));
    expect(store.list()).toEqual([]);
    store.put(grant('a'));
    store.put(grant('b'));
    expect(fs.readFileSync(store.file, 'utf8')).toBe(
      `${JSON.stringify({ version: 1, grants: [grant('a'), grant('b')] }, null, 2)}\n`,
    );
    expect(GrantStore.at(dir).list()).toEqual([grant('a'), grant('b')]);
  });

  it('matches only the same skill, folder, content and declared permissions', () => {
    const store = GrantStore.at(home());
    store.put(grant('a'));
    expect(store.match('a', '/skills/a', 'hash-a', 'digest-a')).toEqual(grant('a'));
    expect(store.match('b', '/skills/a', 'hash-a', 'digest-a')).toBeUndefined();
    expect(store.match('a', '/cloned/.claude/skills/a', 'hash-a', 'digest-a')).toBeUndefined();
    expect(store.match('a', '/skills/a', 'edited', 'digest-a')).toBeUndefined();
    expect(store.match('a', '/skills/a', 'hash-a', 'widened')).toBeUndefined();
    expect(store.forSkill('a')).toEqual(grant('a'));
    expect(store.forSkill('b')).toBeUndefined();
  });

  it('replaces a skill’s grant, leaving the others', () => {
    const store = GrantStore.at(home());
    store.put(grant('a'));
    store.put(grant('b'));
    store.put(grant('a', { content_hash: 'new' }));
    expect(store.list()).toEqual([grant('b'), grant('a', { content_hash: 'new' })]);
  });

  it('revokes a grant on disk too, and says when there was none', () => {
    const dir = home();
    const store = GrantStore.at(dir);
    expect(store.revoke('a')).toBe(false);
    expect(fs.existsSync(store.file)).toBe(false);
    store.put(grant('a'));
    store.put(grant('b'));
    expect(store.revoke('a')).toBe(true);
    expect(store.list()).toEqual([grant('b')]);
    expect(GrantStore.at(dir).list()).toEqual([grant('b')]);
  });

  it('hands out copies: changing one changes nothing stored', () => {
    const store = GrantStore.at(home());
    store.put(grant('a'));
    store.list()[0].skill = 'changed';
    expect(store.list()).toEqual([grant('a')]);
  });

  it('starts empty from a missing, unreadable or foreign file (everything asks again)', () => {
    for (const content of ['{not json', JSON.stringify({ version: 2, grants: [grant('a')] }), '[]']) {
      const dir = home();
      fs.writeFileSync(path.join(dir, 'approvals.json'), content);
      expect(GrantStore.at(dir).list(), content).toEqual([]);
    }
    const unreadable = home();
    fs.mkdirSync(path.join(unreadable, 'approvals.json'));
    expect(GrantStore.at(unreadable).list()).toEqual([]);
  });

  // Two processes on one home (the app open for hours, a `skilldeck chat` asking at a terminal):
  // each wrote back the grants it read at start, so a grant revoked in Settings came back when
  // the other process stored one, and it kept honouring the revoked grant until it quit.
  it('a grant revoked by another process stays revoked, and a grant it stored stays', () => {
    const dir = home();
    GrantStore.at(dir).put(grant('a'));
    const app = GrantStore.at(dir);
    const terminal = GrantStore.at(dir);
    expect(app.revoke('a')).toBe(true);
    expect(terminal.match('a', '/skills/a', 'hash-a', 'digest-a')).toBeUndefined();
    terminal.put(grant('b'));
    app.put(grant('c'));
    expect(GrantStore.at(dir).list()).toEqual([grant('b'), grant('c')]);
    expect(app.list()).toEqual([grant('b'), grant('c')]);
  });
});
