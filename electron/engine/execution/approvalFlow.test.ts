import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEngines } from '../../testing/fixtures';
import { answerWith, scriptSkill } from './testSkills';

const engines = isolatedEngines();
afterEach(() => engines.cleanup());

const MARK = 'echo ran > out/marker.txt; echo done';

async function setup(options: Parameters<typeof engines.open>[0] = {}) {
  const opened = await engines.open(options);
  const dir = path.join(opened.workspace, 'skills');
  const id = scriptSkill(dir, 'marker', MARK, [
    "permissions: { filesystem: { write: ['./out/**'] } }",
    'execution_policy: { approval: ask }',
  ]);
  await opened.engine.reloadSkills();
  return { ...opened, id, dir };
}

const marker = (cwd: string | null) => (cwd ? fs.existsSync(path.join(cwd, 'out', 'marker.txt')) : false);

describe('approvals (real bwrap runs)', () => {
  it('deny: the script never runs, the timeline says denied, and the reason reaches the result', async () => {
    const { engine, id } = await setup();
    const { requests } = answerWith(engine, () => 'deny');
    const result = await engine.execution.start({ id, task: 'go' }).done;
    expect(result.status).toBe('denied');
    expect(result.error).toBe('Denied: marker did not run (test).');
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request).toMatchObject({ skill: 'marker', sandbox: 'bwrap', unenforced: [], network: false });
    expect(request.command_line).toMatch(/bash .*\/scripts\/run\.sh$/);
    expect(request.writes.some((w) => w.startsWith('./out/** → '))).toBe(true);
    expect(request.reasons).toContain('marker asks for approval before it runs a command');
    expect(result.timeline.map((t) => t.state)).toEqual([
      'selected',
      'awaiting_approval',
      'fatal_failure',
      'exit',
    ]);
    const runDir = path.join(engine.info.home, 'runs', result.run_id, 'work');
    expect(marker(runDir)).toBe(false);
  });

  it('allow once: it runs, and the next run asks again', async () => {
    const { engine, id } = await setup();
    const { requests } = answerWith(engine, () => 'allow_once');
    const first = await engine.execution.start({ id, task: 'go' }).done;
    expect(first).toMatchObject({ status: 'success', sandbox: 'bwrap', output: 'done\n' });
    expect(marker(first.cwd)).toBe(true);
    expect(first.files.map((f) => f.path)).toEqual(['out/marker.txt']);
    // The script that ran is listed with what it wrote; the timeline names it as it starts.
    expect(first.scripts?.map((s) => [s.script, s.files?.map((f) => f.path)])).toEqual([
      ['scripts/run.sh', ['out/marker.txt']],
    ]);
    expect(first.timeline.find((t) => t.state === 'running')).toMatchObject({
      script: 'scripts/run.sh',
      detail: 'running scripts/run.sh in the bwrap sandbox (allowed once by you: test)',
    });
    await engine.execution.start({ id, task: 'go' }).done;
    expect(requests).toHaveLength(2);
  });

  it('allow always: not asked again until the skill changes; revoking asks again', async () => {
    const { engine, id } = await setup();
    const { requests } = answerWith(engine, () => 'allow_always');
    await engine.execution.start({ id, task: 'go' }).done;
    expect(engine.execution.grants.list().map((g) => g.skill)).toEqual(['marker']);
    const second = await engine.execution.start({ id, task: 'go' }).done;
    expect(second.status).toBe('success');
    expect(requests).toHaveLength(1);
    expect(second.timeline.find((t) => t.state === 'running')?.detail).toMatch(
      /allowed by your "always allow"/,
    );
    // An edit changes the content hash: the grant no longer holds.
    fs.appendFileSync(path.join(id, 'scripts', 'run.sh'), 'echo edited\n');
    await engine.execution.start({ id, task: 'go' }).done;
    expect(requests).toHaveLength(2);
    expect(engine.execution.revoke('marker')).toBe(true);
    await engine.execution.start({ id, task: 'go' }).done;
    expect(requests).toHaveLength(3);
  });

  it('a widened permission asks again even with an always-allow grant', async () => {
    const { engine, id } = await setup();
    const { requests } = answerWith(engine, () => 'allow_always');
    await engine.execution.start({ id, task: 'go' }).done;
    fs.writeFileSync(
      path.join(id, 'skill.yaml'),
      "spec: { type: script }\npermissions: { filesystem: { write: ['./out/**'] }, network: { outbound: true } }\nexecution_policy: { approval: ask }\n",
    );
    await engine.reloadSkills();
    await engine.execution.start({ id, task: 'go' }).done;
    expect(requests).toHaveLength(2);
    expect(requests[1].network).toBe(true);
  });

  it('no answer within the timeout is a deny', async () => {
    const { engine, id } = await setup({ approvalTimeoutMs: 150 });
    const resolved: string[] = [];
    engine.events.subscribe((name, payload) => {
      if (name === 'approval.resolved') resolved.push((payload as { by: string }).by);
    });
    const result = await engine.execution.start({ id, task: 'go' }).done;
    expect(result.status).toBe('denied');
    expect(result.error).toBe('Denied: marker did not run (no answer within 0.1 s).');
    expect(resolved).toEqual(['timeout']);
    expect(marker(result.cwd)).toBe(false);
  });

  it('Stop while waiting for approval denies and cancels', async () => {
    const { engine, id } = await setup();
    const { run_id, done } = engine.execution.start({ id, task: 'go' });
    await new Promise((r) => setTimeout(r, 100));
    expect(engine.execution.broker.list()).toHaveLength(1);
    expect(engine.execution.cancel(run_id)).toBe(true);
    const result = await done;
    expect(['denied', 'cancelled']).toContain(result.status);
    expect(engine.execution.broker.list()).toHaveLength(0);
  });
});

describe('a blocked run, then "allow this for this skill?"', () => {
  it('tells exactly what was blocked; widening asks again, once or always', async () => {
    // Outside the home and /tmp, so the sandbox shows it read-only (EROFS), not hidden. By its
    // real path, as the sandbox sees it: Stryker's copy of the repo links to node_modules.
    const outside = fs.realpathSync(
      fs.mkdtempSync(path.join(__dirname, '../../../node_modules/.cache-widen-')),
    );
    try {
      const { engine, workspace } = await engines.open();
      const id = scriptSkill(path.join(workspace, 'skills'), 'writer', `echo hi > ${outside}/x.txt`, [
        "permissions: { filesystem: { write: ['./out/**'] } }",
        'execution_policy: { approval: auto }',
      ]);
      await engine.reloadSkills();
      const blocked = await engine.execution.start({ id, task: 'go' }).done;
      expect(blocked.status).toBe('blocked');
      expect(blocked.violations).toEqual([
        {
          kind: 'write',
          target: `${outside}/x.txt`,
          message: `tried to write ${outside}/x.txt, outside its write paths ./out/**`,
        },
      ]);
      expect(blocked.error).toMatch(/^Blocked by the sandbox: tried to write/);
      const { requests } = answerWith(engine, (r) =>
        r.widen ? (requests.length === 1 ? 'allow_once' : 'allow_always') : null,
      );
      const once = await engine.execution.retry(blocked.run_id, { kind: 'write', target: `${outside}/x.txt` })
        .done;
      expect(once.status).toBe('success');
      expect(requests[0].widen).toEqual({ kind: 'write', target: outside, grant: outside });
      expect(requests[0].reasons).toContain(`it asks for more than it declares: write ${outside}`);
      expect(fs.readFileSync(path.join(outside, 'x.txt'), 'utf8')).toBe('hi\n');
      // Allowed once: the next run is blocked again.
      expect((await engine.execution.start({ id, task: 'go' }).done).status).toBe('blocked');
      // Allowed always: the widened path joins the skill's grant; the next run passes without asking.
      const always = await engine.execution.retry(blocked.run_id, {
        kind: 'write',
        target: `${outside}/x.txt`,
      }).done;
      expect(always.error ?? '').toBe('');
      // The file exists by now, so the grant is that file, not its folder.
      expect(engine.execution.grants.list()[0].extra.write).toEqual([`${outside}/x.txt`]);
      const after = await engine.execution.start({ id, task: 'go' }).done;
      expect(after.status).toBe('success');
      expect(requests).toHaveLength(2);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('a run past a resource limit', () => {
  it('is blocked and named, with no permission to offer: limits are not granted per skill', async () => {
    const { engine, workspace } = await engines.open();
    // 5 GiB at once, past the default 4 GiB memory limit (the allocation fails before it is touched).
    const id = scriptSkill(path.join(workspace, 'skills'), 'hog', `python3 -c 'bytearray(5 * 1024**3)'`, [
      'execution_policy: { approval: auto }',
    ]);
    await engine.reloadSkills();
    const blocked = await engine.execution.start({ id, task: 'go' }).done;
    expect(blocked).toMatchObject({ status: 'blocked', sandbox: 'bwrap' });
    expect(blocked.violations).toEqual([
      {
        kind: 'output',
        target: `${4 * 1024 ** 3} bytes of memory`,
        message: 'ran out of memory at its 4 GiB memory limit',
      },
    ]);
    expect(blocked.error).toBe(
      'Blocked by the sandbox: ran out of memory at its 4 GiB memory limit. These limits hold for every run; a skill that needs more should do its work in smaller parts.',
    );
  });
});
