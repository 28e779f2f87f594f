import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { replayWith, runSkill } from '../../testing/scriptRunner';
import { RepairService } from './service';
import { KEY_ERROR_FIX, keyErrorScript, scriptedModel, snapshotBytes } from './testFixtures';

// A second repair attempt whose diff is written against the skill as it was, not against the
// first attempt's patched copy (found driving `repair --json` against an outside scripted
// server): it was refused as "does not apply", and the report showed only the first attempt's
// failing patch as "the best proposal so far", though the second one fixed the skill.
const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

/** Fixture 3's fix with the wrong spelling of the column: the replay fails again, differently. */
const WRONG_FIX = KEY_ERROR_FIX.replace('row["Amount"]', 'row["AMOUNT"]');

async function repairWith(answers: string[]) {
  const fx = keyErrorScript();
  roots.push(fx.root);
  const spec = { task: 'how much did I spend?', input: { file: 'expenses.csv' }, cwd: fx.cwd };
  const failed = await runSkill(fx.dir, spec);
  expect(failed.status).toBe('failure');
  const model = scriptedModel(answers);
  const service = new RepairService({
    home: fx.home,
    complete: model.complete,
    scratchRoot: path.join(fx.root, 'scratch'),
  });
  const untouched = snapshotBytes(fx.dir);
  const outcome = await service.repair({
    run: failed,
    skillDir: fx.dir,
    task: spec.task,
    input: spec.input,
    replay: replayWith(spec),
  });
  expect(snapshotBytes(fx.dir)).toEqual(untouched);
  return { outcome, model };
}

describe('repair: a second attempt written against the skill as it was', () => {
  it('is replayed on its own and, when it passes, is the proposal', async () => {
    const { outcome, model } = await repairWith([WRONG_FIX, KEY_ERROR_FIX]);
    expect(model.prompts).toHaveLength(2);
    // The second prompt shows the first attempt and how its replay failed.
    expect(model.prompts[1].user).toContain('row["AMOUNT"]');
    // The same line and the same error with another key got no further (it said "further along").
    expect(model.prompts[1].user).toContain("Its replay: Fails differently: exit 1: KeyError: 'AMOUNT'");
    expect(outcome.final_state).toBe('success');
    expect(outcome.proposals).toHaveLength(1);
    const [p] = outcome.proposals;
    expect(p.attempt).toBe(2);
    expect(p.replay).toMatchObject({ verdict: 'passes', status: 'success' });
    expect(p.replay.output).toContain('total spent: 19.75');
    // Against the original: the first attempt's AMOUNT is nowhere in it.
    expect(p.diff).toContain('-    total += float(row["amount"])\n+    total += float(row["Amount"])');
    expect(p.diff).not.toContain('AMOUNT');
    expect(p.root_cause).toBe('The export\'s header is now "Amount" but the script reads "amount".');
  }, 30_000);

  it('without a stated cause, its record names the failure the skill had, not the first attempt’s', async () => {
    // The defaults were read from the first attempt's replay: the proposal said the skill stopped
    // with KeyError 'AMOUNT' and would get past 'AMOUNT', an error only that rejected patch raised.
    const bare = (answer: string) => answer.slice(answer.indexOf('```diff'));
    const { outcome } = await repairWith([bare(WRONG_FIX), bare(KEY_ERROR_FIX)]);
    expect(outcome.final_state).toBe('success');
    const [p] = outcome.proposals;
    expect(p.attempt).toBe(2);
    expect(p.error_signature).toContain("'amount'");
    expect(p.root_cause).toContain("KeyError 'amount'");
    expect(p.root_cause).toContain('(the model did not state a cause)');
    expect(p.expected_effect).toContain(p.error_signature);
    expect(`${p.root_cause} ${p.expected_effect}`).not.toContain('AMOUNT');
  }, 30_000);

  it('one that applies to neither is still refused, and the first attempt stays the best shown', async () => {
    const neither = KEY_ERROR_FIX.replace(
      '-    total += float(row["amount"])',
      '-    total += float(row["cost"])',
    );
    const { outcome } = await repairWith([WRONG_FIX, neither]);
    expect(outcome.proposals).toHaveLength(1);
    expect(outcome.proposals[0]).toMatchObject({ attempt: 1, replay: { status: 'failure' } });
    expect(outcome.proposals[0].diff).toContain('AMOUNT');
  }, 30_000);
});

describe('repair: a model that sends the same diff again', () => {
  it('is told so and not replayed twice; the first attempt stays the one shown', async () => {
    const { outcome, model } = await repairWith([WRONG_FIX, WRONG_FIX]);
    expect(model.prompts).toHaveLength(2);
    expect(outcome.proposals).toHaveLength(1);
    expect(outcome.proposals[0]).toMatchObject({ attempt: 1, replay: { status: 'failure' } });
    expect(outcome.reason).toContain('attempt 2: the same diff as attempt 1, which was replayed already');
  }, 30_000);
});
