import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RepairProposal, RepairTransition } from '../../../shared/contract';
import { EngineEvents } from '../events';
import { runSkill, replayWith, type ScriptRun } from '../../testing/scriptRunner';
import { runRepairLoop } from './loop';
import { repairReport } from './report';
import { RepairService } from './service';
import {
  KEY_ERROR_FIX,
  keyErrorScript,
  missingArgument,
  noModel,
  renamedReference,
  scriptedModel,
  snapshotBytes,
} from './testFixtures';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

/** Runs the skill, repairs the failure, checks the replay passed, applies, and re-runs the original request. */
async function repairAndApply(
  fixture: { root: string; dir: string; cwd: string; home: string },
  run: Omit<ScriptRun, 'cwd'>,
  complete?: (p: { system: string; user: string }) => Promise<string>,
) {
  roots.push(fixture.root);
  const spec: ScriptRun = { ...run, cwd: fixture.cwd };
  const failed = await runSkill(fixture.dir, spec);
  expect(failed.status).toBe('failure');
  const service = new RepairService({
    home: fixture.home,
    complete,
    scratchRoot: path.join(fixture.root, 'scratch'),
  });
  const untouched = snapshotBytes(fixture.dir);
  const outcome = await service.repair({
    run: failed,
    skillDir: fixture.dir,
    task: run.task,
    input: run.input,
    replay: replayWith(spec),
  });
  // Nothing is written to the skill before the user applies (DESIGN §5).
  expect(snapshotBytes(fixture.dir)).toEqual(untouched);
  return { failed, outcome, service, spec };
}

describe('nearly working skills are repaired, replayed and applied', () => {
  it('a SKILL.md pointing at a renamed reference file: the fixer points it at the existing file', async () => {
    const fx = renamedReference();
    const { failed, outcome, service, spec } = await repairAndApply(
      fx,
      { task: 'release notes for 1.2' },
      noModel,
    );
    expect(failed.error).toContain('references/style.md');
    expect(outcome.eligibility).toMatchObject({ eligible: true, category: 'reference_path' });
    expect(outcome.eligibility.progress).toBeGreaterThanOrEqual(0.7);
    expect(outcome.final_state).toBe('success');
    const [p] = outcome.proposals;
    expect(p).toMatchObject({ source: 'fixer', fixer: 'reference-path', patched_files: ['SKILL.md'] });
    expect(p.diff).toContain(
      '-Before writing, read the house style in [the style guide](references/style.md)',
    );
    expect(p.diff).toContain(
      '+Before writing, read the house style in [the style guide](references/style-guide.md)',
    );
    expect(p.replay).toMatchObject({ verdict: 'passes', status: 'success', met_expectation: true });
    expect(p.budget).toEqual({ files: 1, hunks: 1, added_tokens: 1 });

    const revision = await service.apply(p.id);
    expect(revision.files.map((f) => f.path)).toEqual(['SKILL.md']);
    // `skilldeck repair --json --apply` prints this (DESIGN §7).
    expect(repairReport(outcome, failed, revision)).toMatchObject({
      eligible: true,
      proposals: [{ patched_files: ['SKILL.md'], replay: { status: 'success', error: null } }],
      applied: { revision: revision.revision },
    });
    const again = await runSkill(fx.dir, spec);
    expect(again.status).toBe('success');
    expect(again.output).toContain('Past tense');
  });

  it('a script called without an argument its usage text names: the fixer maps it from INPUT_JSON', async () => {
    const fx = missingArgument();
    const run = { task: 'total of the amount column', input: { file: 'data.csv', column: 'amount' } };
    const { failed, outcome, service, spec } = await repairAndApply(fx, run, noModel);
    expect(failed.exit_code).toBe(2);
    expect(failed.stderr).toContain('the following arguments are required: --column');
    expect(outcome.eligibility).toMatchObject({ eligible: true, category: 'missing_argument' });
    const [p] = outcome.proposals;
    expect(p).toMatchObject({
      source: 'fixer',
      fixer: 'missing-argument',
      patched_files: ['scripts/column_sum.py'],
    });
    expect(p.diff).toContain(
      '+parser.add_argument("--column", default=_INPUT.get("column"), required=_INPUT.get("column") is None, help="the column to add up")',
    );
    expect(p.replay).toMatchObject({ verdict: 'passes', status: 'success' });
    expect(p.replay.output).toContain('total amount: 42.5');

    await service.apply(p.id);
    const again = await runSkill(fx.dir, spec);
    expect(again).toMatchObject({ status: 'success', exit_code: 0 });
    // Without the field the usage error stays: the fix maps, it does not invent a value.
    const without = await runSkill(fx.dir, { ...spec, input: { file: 'data.csv' } });
    expect(without.stderr).toContain('required: --column');
  });

  it('a one-line KeyError on a column whose case changed: the scripted model fixes it', async () => {
    const fx = keyErrorScript();
    const model = scriptedModel([KEY_ERROR_FIX]);
    const run = { task: 'how much did I spend?', input: { file: 'expenses.csv' } };
    const { failed, outcome, service, spec } = await repairAndApply(fx, run, model.complete);
    expect(failed.stderr).toContain("KeyError: 'amount'");
    expect(outcome.eligibility).toMatchObject({ eligible: true, category: 'script_bug' });
    expect(outcome.eligibility.evidence).toContain('traceback ends in scripts/total.py line 12');
    // The model was asked with the command, exit code, stderr and the skill's files.
    const [prompt] = model.prompts;
    expect(prompt.user).toContain('Status: failure; exit code: 1');
    expect(prompt.user).toContain("KeyError: 'amount'");
    expect(prompt.user).toContain('### scripts/total.py');
    // The input file's header shows the model what the column is called now.
    expect(prompt.user).toContain('expenses.csv:\n```\nDate,Amount,Note');
    expect(prompt.system).toContain('```diff');
    const [p] = outcome.proposals;
    expect(p).toMatchObject({
      source: 'model',
      root_cause: 'The export\'s header is now "Amount" but the script reads "amount".',
      patched_files: ['scripts/total.py'],
    });
    expect(p.replay).toMatchObject({ verdict: 'passes', status: 'success' });
    expect(p.replay.output).toContain('total spent: 19.75');

    const revision = await service.apply(p.id);
    expect(service.history('expense-total').map((r) => r.revision)).toEqual([revision.revision]);
    const again = await runSkill(fx.dir, spec);
    expect(again.output).toContain('total spent: 19.75');
  });

  it('a bare diff (no labels, miscounted header, no a/ b/ prefixes) still becomes a recorded, replayed proposal', async () => {
    const fx = keyErrorScript();
    const bare = [
      '```diff',
      '--- scripts/total.py',
      '+++ scripts/total.py',
      '@@ -11,9 +11,9 @@',
      ' for row in rows:',
      '-    total += float(row["amount"])',
      '+    total += float(row["Amount"])',
      '```',
      '',
    ].join('\n');
    const run = { task: 'how much did I spend?', input: { file: 'expenses.csv' } };
    const { outcome } = await repairAndApply(fx, run, scriptedModel([bare]).complete);
    const [p] = outcome.proposals;
    expect(p.patched_files).toEqual(['scripts/total.py']);
    expect(p.root_cause).toContain(outcome.eligibility.reason);
    expect(p.expected_effect).toContain(outcome.eligibility.error_signature);
    expect(p.replay).toMatchObject({ verdict: 'passes', status: 'success' });
  });

  it('a diff that misquotes its context (trailing blanks, a changed line) still applies, shown as the file really changes', async () => {
    const fx = keyErrorScript();
    const sloppy = [
      'ROOT_CAUSE: The column is "Amount" now.',
      '```diff',
      '--- a/scripts/total.py',
      '+++ b/scripts/total.py',
      '@@ -10,4 +10,4 @@',
      ' total = 0  ',
      ' for row in rows:',
      '-    total += float(row["amount"])',
      '+    total += float(row["Amount"])',
      ' print(f"total spent: {total:.2f}")   ',
      '```',
      '',
    ].join('\n');
    const run = { task: 'how much did I spend?', input: { file: 'expenses.csv' } };
    const { outcome } = await repairAndApply(fx, run, scriptedModel([sloppy]).complete);
    const [p] = outcome.proposals;
    expect(p.patched_files).toEqual(['scripts/total.py']);
    expect(p.replay).toMatchObject({ verdict: 'passes', status: 'success' });
    // The diff the user reviews is the file's real change: its own context lines, one line swapped.
    expect(p.diff).toContain(' total = 0.0\n');
    expect(p.diff).not.toContain('total = 0  ');
    expect(p.diff.split('\n').filter((l) => /^[-+][^-+]/.test(l))).toEqual([
      '-    total += float(row["amount"])',
      '+    total += float(row["Amount"])',
    ]);
  });

  it('emits every state of the repair state machine in order (routing spec §12)', async () => {
    const fx = keyErrorScript();
    roots.push(fx.root);
    const spec = { task: 'spent?', input: { file: 'expenses.csv' }, cwd: fx.cwd };
    const failed = await runSkill(fx.dir, spec);
    const states: string[] = [];
    const outcome = await runRepairLoop(
      { run: failed, skillDir: fx.dir, input: spec.input },
      {
        replay: replayWith(spec),
        complete: scriptedModel([KEY_ERROR_FIX]).complete,
        onTransition: (t) => states.push(t.state),
      },
    );
    expect(outcome.final_state).toBe('success');
    expect(states).toEqual([
      'failure_detected',
      'eligibility',
      'planning',
      'patching',
      'retry',
      'evaluation',
      'success',
    ]);
  });

  it('repair.start works once an executor is connected: events carry the transitions and the proposal', async () => {
    const fx = missingArgument();
    roots.push(fx.root);
    const spec = { task: 'sum it', input: { file: 'data.csv', column: 'amount' }, cwd: fx.cwd };
    const failed = await runSkill(fx.dir, { ...spec, runId: 'run-42' });
    const record = {
      summary: {
        run_id: 'run-42',
        skill: 'column-sum',
        skill_id: fx.dir,
        task: spec.task,
        status: failed.status,
        sandbox: failed.sandbox,
        started_at: new Date().toISOString(),
        duration_ms: failed.duration_ms,
      },
      result: failed,
      timeline: [],
      input: { task: spec.task, ...spec.input },
      entrypoint: null,
    };
    const events = new EngineEvents();
    const seen: string[] = [];
    const proposed = new Promise<RepairProposal>((resolve) =>
      events.subscribe((name, payload) => {
        if (name === 'repair.transition') seen.push((payload as RepairTransition).state);
        if (name === 'repair.proposed') resolve(payload as RepairProposal);
      }),
    );
    const service = new RepairService({ home: fx.home, events });
    await expect(service.start('run-42')).rejects.toMatchObject({ code: 'unavailable' });
    service.connect({
      runs: {
        get: (id) => (id === 'run-42' ? record : undefined),
        replay: (rec, dir) => runSkill(dir, { ...spec, input: rec.input }),
      },
    });
    await expect(service.start('nope')).rejects.toMatchObject({ code: 'not_found' });
    // What the window offers before anything is planned: the verdict start reaches first, no transitions yet.
    const before = await service.assess('run-42');
    expect(before.eligibility).toMatchObject({ eligible: true, category: 'missing_argument' });
    expect(before.eligibility.reason).toMatch(/^It nearly worked/);
    expect(before.transitions).toEqual([]);
    await expect(service.assess('nope')).rejects.toMatchObject({ code: 'not_found' });
    const { repair_id } = await service.start('run-42');
    const p = await proposed;
    expect(p).toMatchObject({ repair_id, run_id: 'run-42', replay: { verdict: 'passes' } });
    expect(seen.at(-1)).toBe('success');
    // A reloaded window gets the same transitions back, in order, with the same eligibility.
    const after = await service.assess('run-42');
    expect(after.transitions.map((t) => t.state)).toEqual(seen);
    expect(after.transitions.every((t) => t.repair_id === repair_id)).toBe(true);
    expect(after.eligibility).toEqual(before.eligibility);
    expect((await service.proposals({ repair_id })).map((x) => x.id)).toEqual([p.id]);
    // After a restart the run's timeline still shows its repair, from the log on disk.
    const restarted = new RepairService({ home: fx.home });
    restarted.connect({
      runs: { get: (id) => (id === 'run-42' ? record : undefined), replay: () => failed as never },
    });
    expect((await restarted.assess('run-42')).transitions).toEqual(after.transitions);
    // A repair the process never finished reads as stopped, not as still planning.
    const log = path.join(fx.home, 'repairs', '_transitions', 'run-42.jsonl');
    const cut = { ...after.transitions[0], repair_id: 'rep-cut', seq: 0, state: 'planning' };
    fs.appendFileSync(
      log,
      `${JSON.stringify(cut)}\nnot json\n${JSON.stringify({ ...cut, run_id: 'other' })}\n`,
    );
    const again = new RepairService({ home: fx.home });
    again.connect({
      runs: { get: (id) => (id === 'run-42' ? record : undefined), replay: () => failed as never },
    });
    const cutOff = (await again.assess('run-42')).transitions.filter((t) => t.repair_id === 'rep-cut');
    expect(cutOff.map((t) => [t.seq, t.state])).toEqual([
      [0, 'planning'],
      [1, 'fallback'],
    ]);
    expect(cutOff[1].detail).toMatch(/stopped when SkillDeck closed/);
  });
});
