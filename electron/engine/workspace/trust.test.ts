import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEngines, skillMd, writeTree } from '../../testing/fixtures';
import { answerWith, scriptSkill } from '../execution/testSkills';
import { WorkspaceStore } from './store';

// what-users-ask §14: a folder's own skills (skills/, .claude/skills, .agents/skills) came with
// the folder, a cloned repository, not from the user. Until the user trusts the folder none of
// them runs unasked; trust is kept per absolute folder in $SKILLDECK_HOME and can be taken back.
const engines = isolatedEngines();
afterEach(() => engines.cleanup());

const AUTO = ["permissions: { filesystem: { write: ['./out/**'] } }", 'execution_policy: { approval: auto }'];
const SCRIPT = 'mkdir -p out; echo ran > out/marker.txt; echo done';

/** An engine whose workspace ships an `approval: auto` skill in .claude/skills. */
async function openWith(options: Parameters<typeof engines.open>[0] = {}) {
  const opened = await engines.open({ trustWorkspace: false, ...options });
  fs.mkdirSync(opened.workspace, { recursive: true });
  const id = scriptSkill(path.join(opened.workspace, '.claude', 'skills'), 'repo-tool', SCRIPT, AUTO);
  await opened.engine.reloadSkills();
  return { ...opened, id, real: fs.realpathSync(opened.workspace) };
}

describe('workspace trust (real runs, real files)', () => {
  it('an untrusted folder: its auto skill asks, and the request says the folder is not trusted', async () => {
    const { engine, id, real } = await openWith();
    const { requests } = answerWith(engine, () => 'deny');
    const result = await engine.execution.start({ id, task: 'go' }).done;
    expect(result.status).toBe('denied');
    expect(requests).toHaveLength(1);
    expect(requests[0].untrusted_workspace).toBe(real);
    expect(requests[0].reasons).toContain(
      `repo-tool comes from the workspace folder ${real}, which you have not trusted: its approval: auto counts only once you trust the folder`,
    );
    const listed = engine.listSkills().skills.find((s) => s.id === id);
    expect(listed).toMatchObject({ source: 'workspace', untrusted: true });
    expect(engine.workspace.status()).toMatchObject({ path: real, trusted: false, skills: [id] });
  });

  it('trusted: the same skill runs unasked; the trust outlives the engine and can be taken back', async () => {
    const { engine, id, real, root, home } = await openWith();
    const { requests } = answerWith(engine, () => 'deny');
    const status = engine.workspace.trust(path.join(root, 'ws'));
    expect(status).toMatchObject({ trusted: true, trusted_by: 'stored' });
    const ran = await engine.execution.start({ id, task: 'go' }).done;
    expect(ran).toMatchObject({ status: 'success', output: 'done\n' });
    expect(requests).toHaveLength(0);
    expect(engine.listSkills().skills.find((s) => s.id === id)?.untrusted).toBeUndefined();
    const file = JSON.parse(fs.readFileSync(path.join(home, 'workspaces.json'), 'utf8'));
    expect(Object.keys(file.folders)).toEqual([real]);

    // Another engine over the same home and folder (the app restarted) still trusts it.
    const again = await engines.open({
      home,
      workspace: path.join(root, 'ws'),
      userHome: path.join(root, 'user'),
      trustWorkspace: false,
    });
    expect(again.engine.workspace.trusted()).toBe(true);

    expect(engine.workspace.untrust(real)).toEqual({ revoked: true, folders: [] });
    const asked = await engine.execution.start({ id, task: 'go' }).done;
    expect(asked.status).toBe('denied');
    expect(requests).toHaveLength(1);
  });

  it("a repair's replay of an untrusted folder's skill (its patched copy) asks too", async () => {
    const { engine, id, real, root } = await openWith();
    const { requests } = answerWith(engine, () => 'deny');
    const first = await engine.execution.start({ id, task: 'go' }).done;
    const scratch = path.join(root, 'scratch', 'repo-tool');
    fs.cpSync(id, scratch, { recursive: true });
    const replayed = await engine.execution.replay(engine.execution.get(first.run_id), scratch);
    expect(replayed.status).toBe('denied');
    expect(requests.map((r) => r.untrusted_workspace)).toEqual([real, real]);
  });

  it('a window can trust only the folder it shows: any other path is refused and nothing is stored', async () => {
    const { engine, root, home } = await openWith();
    const other = path.join(root, 'elsewhere');
    fs.mkdirSync(other);
    expect(() => engine.workspace.trust(other)).toThrow(/Only the open workspace/);
    expect(() => engine.workspace.trust('/')).toThrow(/Only the open workspace/);
    expect(fs.existsSync(path.join(home, 'workspaces.json'))).toBe(false);
    expect(engine.workspace.trusted()).toBe(false);
  });

  it('the CLI trusts the folder it runs in for that command only: unasked, nothing stored', async () => {
    const { engine, id, home } = await openWith({ trustWorkspace: true });
    const { requests } = answerWith(engine, () => 'deny');
    const ran = await engine.execution.start({ id, task: 'go' }).done;
    expect(ran.status).toBe('success');
    expect(requests).toHaveLength(0);
    expect(engine.workspace.status()).toMatchObject({ trusted: true, trusted_by: 'cli', trusted_at: null });
    expect(fs.existsSync(path.join(home, 'workspaces.json'))).toBe(false);
  });

  it("skills outside the workspace's own folders keep their auto while it is untrusted", async () => {
    const { engine, root } = await openWith();
    const extra = path.join(root, 'extra');
    const id = scriptSkill(extra, 'mine', SCRIPT, AUTO);
    const { engine: withExtra } = await engines.open({
      home: engine.info.home,
      workspace: engine.info.workspace,
      userHome: path.join(root, 'user'),
      skillDirs: [extra],
      trustWorkspace: false,
    });
    const { requests } = answerWith(withExtra, () => 'deny');
    const ran = await withExtra.execution.start({ id, task: 'go' }).done;
    expect(ran.status).toBe('success');
    expect(requests).toHaveLength(0);
  });

  it('a workspace skill that hides a user skill of the same name says so, before and when it asks', async () => {
    const { engine, root, real } = await engines.open({ trustWorkspace: false }).then(async (o) => ({
      ...o,
      real: (fs.mkdirSync(o.workspace, { recursive: true }), fs.realpathSync(o.workspace)),
    }));
    const userSkill = path.join(root, 'user', '.claude', 'skills', 'csv-tool');
    writeTree(userSkill, { 'SKILL.md': skillMd('csv-tool', 'Summarizes CSV files the user owns.') });
    const id = scriptSkill(path.join(root, 'ws', 'skills'), 'csv-tool', SCRIPT, AUTO);
    await engine.reloadSkills();
    expect(engine.workspace.status().shadowing).toEqual(['csv-tool']);
    const listed = engine.listSkills().skills.find((s) => s.id === id);
    expect(listed).toMatchObject({ untrusted: true, shadows: [userSkill] });
    const { requests } = answerWith(engine, () => 'deny');
    await engine.execution.start({ id, task: 'go' }).done;
    expect(requests[0].reasons.at(-1)).toBe(
      `csv-tool comes from the workspace folder ${real}, which you have not trusted: its approval: auto counts only once you trust the folder; it has the same name as another skill of yours (${userSkill}) and takes its place here`,
    );
  });
});

describe('per-workspace skill switches', () => {
  const ROUTED = skillMd(
    'invoice-filer',
    'Files invoices into folders by vendor and date. Use when the user asks to file or sort invoices.',
  );

  it('a skill turned off in one workspace is never routed to there, and still is in another', async () => {
    const a = await engines.open({ trustWorkspace: false });
    writeTree(path.join(a.root, 'user', '.claude', 'skills', 'invoice-filer'), { 'SKILL.md': ROUTED });
    await a.engine.reloadSkills();
    const query = 'file my invoices by vendor';
    expect(a.engine.routing.preview(query).plan.primary).toBe('invoice-filer');

    const status = a.engine.workspace.setSkillEnabled('invoice-filer', false);
    expect(status.disabled).toEqual(['invoice-filer']);
    expect(a.engine.routing.preview(query).plan.primary).toBeNull();
    expect(a.engine.routing.preview('$invoice-filer sort these').plan.primary).toBeNull();
    const id = path.join(a.root, 'user', '.claude', 'skills', 'invoice-filer');
    expect(a.engine.routing.whyNot(query, id).candidate).toMatchObject({
      status: 'disabled',
      reason: 'turned off in this workspace: never a candidate here',
    });
    expect(a.engine.listSkills().skills.find((s) => s.id === id)).toMatchObject({
      enabled: true,
      workspaceEnabled: false,
    });
    expect(a.engine.install.diagnose(id).reasons.map((r) => r.message)).toContain(
      'Turned off in this workspace: the router skips it here, $invoice-filer included.',
    );

    // The same home, another folder: the switch is this workspace's only.
    const other = path.join(a.root, 'other-ws');
    fs.mkdirSync(other);
    const b = await engines.open({
      home: a.home,
      userHome: path.join(a.root, 'user'),
      workspace: other,
      trustWorkspace: false,
    });
    expect(b.engine.routing.preview(query).plan.primary).toBe('invoice-filer');

    a.engine.workspace.setSkillEnabled('invoice-filer', true);
    expect(a.engine.routing.preview(query).plan.primary).toBe('invoice-filer');
    expect(new WorkspaceStore(path.join(a.home, 'workspaces.json')).disabled(a.workspace)).toEqual([]);
  });

  it('an unreadable or hand-broken workspaces.json trusts nothing', async () => {
    const { engine, home, real } = await openWith();
    fs.mkdirSync(home, { recursive: true });
    const file = path.join(home, 'workspaces.json');
    for (const text of [
      JSON.stringify({ version: 1, folders: { [real]: 'yes' } }),
      JSON.stringify({ version: 2, folders: { [real]: { trusted_at: '2026-01-01T00:00:00Z' } } }),
      `{"version":1,"folders":{"${real}":{"trusted_at":`,
    ]) {
      fs.writeFileSync(file, text);
      expect(engine.workspace.trusted()).toBe(false);
      expect(engine.workspace.trustedFolders()).toEqual([]);
    }
  });
});
