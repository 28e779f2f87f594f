import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ActivationPlan } from '../../../shared/contract';
import { isolatedEngines } from '../../testing/fixtures';
import { scriptSkill } from './testSkills';

const engines = isolatedEngines();
afterEach(() => engines.cleanup());

const AUTO = ['execution_policy: { approval: auto }', "permissions: { filesystem: { write: ['./out/**'] } }"];

function plan(
  skills: { name: string; id: string }[],
  groups: string[][],
  fallback: { name: string; id: string }[] = [],
): ActivationPlan {
  return {
    skills: skills.map((s) => s.name),
    skill_ids: skills.map((s) => s.id),
    primary: skills[0].name,
    primary_id: skills[0].id,
    parallel_groups: groups,
    fallback_chain: [
      ...fallback.map((f) => ({ type: 'skill' as const, ...f })),
      { type: 'ask_user' as const },
    ],
    estimated_cost: 'low',
    routing_reason: 'test plan',
    parameters: { task: 'go' },
  };
}

async function setup(skills: Record<string, string>) {
  const opened = await engines.open();
  const dir = path.join(opened.workspace, 'skills');
  const ids: Record<string, { name: string; id: string }> = {};
  for (const [name, script] of Object.entries(skills)) {
    const parallel = name.startsWith('par') ? ['parallel_safe: true'] : [];
    ids[name] = { name, id: scriptSkill(dir, name, script, [...AUTO, ...parallel]) };
  }
  await opened.engine.reloadSkills();
  return { ...opened, ids };
}

describe('fallback state machine (routing spec §10), real runs', () => {
  it('retries a retryable failure once and succeeds', async () => {
    // EX_TEMPFAIL the first time (the marker persists in the run's folder), success the second.
    const { engine, ids } = await setup({
      flaky: 'if [ -f out/tried ]; then echo second try; else touch out/tried; echo busy >&2; exit 75; fi',
    });
    const result = await engine.execution.start({ id: ids.flaky.id, task: 'go' }).done;
    expect(result).toMatchObject({ status: 'success', output: 'second try\n', fallback_used: false });
    expect(result.timeline.map((t) => t.state)).toEqual([
      'selected',
      'running',
      'retryable_failure',
      'running',
      'success',
    ]);
    expect(result.timeline[2].detail).toMatch(/exit 75: busy — retrying once/);
    // The marker the first try left, counted in words a person would write.
    expect(result.timeline[4].detail).toBe('done; 1 file in its output folder');
  });

  it('a fatal failure falls back to the next skill in the plan', async () => {
    const { engine, ids } = await setup({
      broken: 'echo "KeyError: amount" >&2; exit 1',
      backup: 'echo from backup',
    });
    const p = plan([ids.broken], [['broken']], [ids.backup]);
    const result = await engine.execution.startPlan(p, { task: 'go' }).done;
    expect(result).toMatchObject({
      status: 'success',
      skill: 'backup',
      output: 'from backup\n',
      fallback_used: true,
    });
    expect(result.timeline.map((t) => `${t.state}:${t.skill}`)).toEqual([
      'selected:broken',
      'running:broken',
      'fatal_failure:broken',
      'fallback:backup',
      'selected:backup',
      'running:backup',
      'success:backup',
    ]);
    // The answer is the backup's; the record keeps how the skill asked for failed, for repair.
    expect(result.primary_failure).toMatchObject({
      skill: 'broken',
      skill_id: ids.broken.id,
      status: 'failure',
      exit_code: 1,
      error: 'exit 1: KeyError: amount',
    });
    const { eligibility } = await engine.repair.assess(result.run_id);
    expect(eligibility.reason).not.toMatch(/succeeded|nothing to repair/i);
    expect(eligibility.error_signature).toMatch(/KeyError/);
  });

  it('exits with the last error when every path failed', async () => {
    const { engine, ids } = await setup({ one: 'echo first >&2; exit 1', two: 'echo second >&2; exit 2' });
    const result = await engine.execution.startPlan(plan([ids.one], [['one']], [ids.two]), { task: 'go' })
      .done;
    expect(result).toMatchObject({ status: 'failure', skill: 'two', error: 'exit 2: second' });
    expect(result.primary_failure).toBeUndefined();
    const last = result.timeline[result.timeline.length - 1];
    expect(last).toMatchObject({ state: 'exit', skill: 'two' });
    expect(last.detail).toMatch(/ask the user/);
  });

  it('runs a parallel group together', async () => {
    const stamp = 'date +%s%N; sleep 0.6; date +%s%N';
    const { engine, ids } = await setup({ para: stamp, parb: stamp });
    const p = plan([ids.para, ids.parb], [['para', 'parb']]);
    const outputs: Record<string, string> = {};
    engine.events.subscribe((name, payload) => {
      if (name !== 'run.output') return;
      const o = payload as { chunk: string };
      outputs[o.chunk.length] = o.chunk;
    });
    const started = Date.now();
    const result = await engine.execution.startPlan(p, { task: 'go' }).done;
    const elapsed = Date.now() - started;
    expect(result.status).toBe('success');
    const successes = result.timeline.filter((t) => t.state === 'success').map((t) => t.skill);
    expect(successes.sort()).toEqual(['para', 'parb']);
    // Both started before either finished: their running transitions precede both successes.
    const states = result.timeline.map((t) => t.state);
    expect(states.lastIndexOf('running')).toBeLessThan(states.indexOf('success'));
    // Serial would take ≥ 1.2 s of sleeping alone.
    expect(elapsed).toBeLessThan(1200 + 2000);
  });
});
