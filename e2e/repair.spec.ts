import fs from 'node:fs';
import path from 'node:path';
import type { ModelServer } from '../electron/testing/modelServer';
import { FIXED_DOC, SEED, SKILL_MD, scriptedModel } from './expenseSkill';
import { expect, test } from './fixtures';
import { watchConsole } from './support';
import { ChatPage } from './pages/chat';
import { RepairPage } from './pages/repair';
import { RunsPage } from './pages/runs';
import { SkillsPage } from './pages/skills';

const repairTest = test.extend<{ model: ModelServer }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern.
  model: async ({}, use) => {
    const server = await scriptedModel('A plain answer.');
    await use(server);
    await server.close();
  },
  serverEnv: async ({ model }, use) =>
    use({
      OPENAI_BASE_URL: model.baseURL,
      OPENAI_API_KEY: 'sk-e2e-repair',
      SKILLDECK_MODEL: 'scripted-model',
    }),
  seedFiles: SEED,
  viewport: { width: 1440, height: 1000 },
});

repairTest(
  'a failed run offers a repair; review hunk by hunk, turn one down, apply, the retry passes, undo restores the bytes',
  async ({ page, workspace, model }, testInfo) => {
    // Four sandboxed runs, a model round and Monaco: more than the default minute on a busy machine.
    test.slow();
    const problems = watchConsole(page);
    const skills = new SkillsPage(page);
    const runs = new RunsPage(page);
    const repair = new RepairPage(page);
    const skillDir = path.join(workspace.skillsDir, 'expense-total');
    const originals = Object.fromEntries(
      ['SKILL.md', 'scripts/total.py'].map((f) => [f, fs.readFileSync(path.join(skillDir, f))]),
    );

    // The run fails with a KeyError after reading its rows: nearly worked.
    await skills.open(workspace.url);
    await skills.row('expense-total').click();
    await expect(skills.detail()).toHaveAttribute('data-loaded', 'true');
    await runs.openRunTab();
    await runs.start('how much did I spend?');
    await repair.allowOnce();
    const run = runs.tabRun();
    await expect(run).toHaveAttribute('data-status', 'failure');
    const runId = (await run.getAttribute('data-run-id')) ?? '';
    await expect(repair.offer(run)).toHaveAttribute('data-eligible', 'true');
    await expect(repair.offer(run)).toHaveAttribute('data-category', 'script_bug');
    await expect(repair.reason(run)).toContainText('It nearly worked');
    await expect(repair.reason(run)).toContainText("KeyError 'amount'");

    await repair.shootPage(testInfo, 'repair-offer');

    // Repair… opens the review; the replay on a patched copy asks like any run.
    await repair.repairButton(run).click();
    await expect(page).toHaveURL(new RegExp(`#repair/${runId}/rep-`));
    await repair.allowOnce();
    await expect(repair.review()).toBeVisible({ timeout: 30_000 });
    await expect(repair.review()).toHaveAttribute('data-status', 'pending');
    await expect(repair.rootCause()).toHaveText(
      'The export\'s header is now "Amount" but the script reads "amount".',
    );
    await expect(repair.budget()).toContainText('2 of 3 files · 3 of 8 hunks');
    await expect(repair.replay()).toHaveAttribute('data-verdict', 'passes');
    await expect(repair.replaySummary()).toContainText('passes');
    await expect(repair.replayOutput()).not.toHaveAttribute('open');
    await repair.replayOutput().locator('summary').click();
    await expect(repair.replayOutput()).toContainText('total spent: 19.75');
    // The model was asked once, with the failure it has to fix.
    expect(model.chatRequests()).toHaveLength(1);

    // One tab per patched file, three hunks with their headers and sizes.
    await expect(repair.fileTabs()).toHaveText([/SKILL\.md/, /scripts\/total\.py/]);
    await expect(repair.hunks()).toHaveCount(3);
    await expect(repair.hunk(2).locator('.hunk__header')).toHaveText(/^@@ -\d+,\d+ \+\d+,\d+ @@$/);
    await expect(repair.hunk(2).locator('.hunk__counts')).toHaveText('+1−1');
    await expect(repair.hunkCount()).toHaveText('3 of 3 accepted');
    await repair.diffReady('SKILL.md');
    await expect(repair.proposedSide()).toContainText('of the `Amount` column');
    // Markdown wraps on both sides: the original's long description line is read whole, not cut off.
    await expect.poll(() => repair.originalOverflow()).toBe(0);

    // Jump to the needed hunk: its file opens with both sides at the change.
    await repair.hunk(2).getByTestId('hunk-jump').click();
    await repair.diffReady('scripts/total.py');
    await expect(repair.fileTab('scripts/total.py')).toHaveAttribute('aria-selected', 'true');
    await expect(repair.proposedSide()).toContainText('row["Amount"]');
    await expect(repair.originalSide()).toContainText('row["amount"]');
    await repair.shoot(testInfo, 'repair-review');

    // The repair's steps are in the failed run's timeline too.
    await page.getByTestId('repair-back').click();
    await expect(page.getByTestId('run-detail')).toHaveAttribute('data-run-id', runId);
    const steps = repair.steps(page.getByTestId('run-detail'));
    await expect(steps.first()).toHaveAttribute('data-state', 'failure_detected');
    await expect(steps.last()).toHaveAttribute('data-state', 'success');
    expect(await steps.evaluateAll((els) => els.map((e) => e.getAttribute('data-state')))).toEqual([
      'failure_detected',
      'eligibility',
      'planning',
      'patching',
      'retry',
      'evaluation',
      'success',
    ]);
    await repair.shootPage(testInfo, 'repair-run-timeline', page.getByTestId('run-detail'));
    await page.getByTestId('repair-review-link').click();
    await expect(repair.review()).toBeVisible();

    // Turn the docstring hunk down: the proposed side loses it, and the choice is not replayed yet.
    await repair.fileTab('scripts/total.py').click();
    await repair.diffReady('scripts/total.py');
    await repair.hunk(1).getByTestId('hunk-accept').uncheck();
    await expect(repair.hunk(1)).toHaveAttribute('data-accepted', 'false');
    await expect(repair.hunkCount()).toHaveText('2 of 3 accepted');
    await expect(repair.proposedSide()).not.toContainText('(Amount column)');
    await expect(repair.proposedSide()).toContainText('row["Amount"]');
    await expect(repair.unreplayed()).toContainText('2 of 3 hunks');
    await expect(repair.apply()).toHaveText('Re-check and apply');
    await repair.shoot(testInfo, 'repair-review-partial');

    // Apply re-checks the choice first (a new replay), applies it, and runs the request again.
    const firstProposal = (await repair.review().getAttribute('data-proposal-id')) ?? '';
    await repair.apply().click();
    await repair.allowOnce();
    await expect(repair.applyResult()).toBeVisible({ timeout: 30_000 });
    await expect(repair.review()).not.toHaveAttribute('data-proposal-id', firstProposal);
    await expect(repair.review()).toHaveAttribute('data-status', 'applied');
    await expect(repair.replay()).toHaveAttribute('data-verdict', 'passes');
    await expect(repair.hunks()).toHaveCount(2);
    await repair.allowOnce();
    await expect(repair.retry()).toHaveAttribute('data-status', 'success', { timeout: 30_000 });
    await expect(repair.retryOutput()).toContainText('total spent: 19.75');
    await repair.shootPage(testInfo, 'repair-applied');

    // On disk: the needed fix and the SKILL.md note, not the turned-down docstring.
    const script = fs.readFileSync(path.join(skillDir, 'scripts/total.py'), 'utf8');
    expect(script).toContain('row["Amount"]');
    expect(script).not.toContain('(Amount column)');
    expect(fs.readFileSync(path.join(skillDir, 'SKILL.md'), 'utf8')).toBe(FIXED_DOC);
    const revision = (await repair.applyResult().getAttribute('data-revision')) ?? '';

    // The skill's Repairs tab lists the revision, its files and diff; Undo puts the bytes back.
    await page.getByTestId('open-history').click();
    await expect(page).toHaveURL(/#skills$/);
    await expect(repair.historyTab()).toHaveAttribute('aria-selected', 'true');
    await expect(repair.revisions()).toHaveCount(1);
    const item = repair.revisions().first();
    await expect(item).toHaveAttribute('data-revision', revision);
    await expect(item.getByTestId('revision-file')).toHaveCount(2);
    await item.getByTestId('revision-diff-toggle').click();
    await expect(item.getByTestId('revision-diff')).toContainText('+    total += float(row["Amount"])');
    await expect(item.getByTestId('revision-diff')).not.toContainText('(Amount column)');
    await repair.shootPage(testInfo, 'repair-history');
    await item.getByTestId('revision-undo').click();
    await item.getByTestId('revision-undo-confirm').click();
    await expect(item).toHaveAttribute('data-undone', 'true');
    for (const [file, bytes] of Object.entries(originals))
      expect(fs.readFileSync(path.join(skillDir, file)).equals(bytes)).toBe(true);
    expect(problems).toEqual([]);
  },
);

repairTest(
  'rejecting after editing the proposed side: the edit is not written, and the next attempt hears it',
  async ({ page, workspace, model }) => {
    test.slow();
    const problems = watchConsole(page);
    const skills = new SkillsPage(page);
    const runs = new RunsPage(page);
    const repair = new RepairPage(page);
    const doc = path.join(workspace.skillsDir, 'expense-total', 'SKILL.md');
    await skills.open(workspace.url);
    await skills.row('expense-total').click();
    await expect(skills.detail()).toHaveAttribute('data-loaded', 'true');
    await runs.openRunTab();
    await runs.start('how much did I spend?');
    await repair.allowOnce();
    await expect(runs.tabRun()).toHaveAttribute('data-status', 'failure');
    await repair.repairButton(runs.tabRun()).click();
    await repair.allowOnce();
    await expect(repair.review()).toHaveAttribute('data-status', 'pending', { timeout: 30_000 });

    // The user writes what they want on the proposed side, then turns the proposal down.
    await repair.diffReady('SKILL.md');
    await repair.proposedSide().getByText('column.').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Header names are matched case-insensitively.');
    await expect(repair.diffPane()).toHaveAttribute('data-edited', 'true');
    // Escape leaves the reason box for the Reject button it came from, not for the page.
    await repair.reject().click();
    await expect(page.getByTestId('reject-reason')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('reject-form')).toHaveCount(0);
    await expect(repair.reject()).toBeFocused();
    await repair.reject().click();
    await expect(page.getByTestId('reject-hint')).toContainText('sees your edit of SKILL.md');
    await page.getByTestId('reject-reason').fill('not like this, see my edit');
    await page.getByTestId('reject-confirm').click();
    await expect(repair.review()).toHaveAttribute('data-status', 'rejected');
    expect(fs.readFileSync(doc, 'utf8')).toBe(SKILL_MD);
    // The form is gone with the button that had focus: focus goes to the next step.
    await expect(page.getByTestId('repair-again')).toBeFocused();

    const asked = model.chatRequests().length;
    await page.getByTestId('repair-again').click();
    await repair.allowOnce();
    await expect(repair.review()).toHaveAttribute('data-status', 'pending', { timeout: 30_000 });
    const prompt = model
      .chatRequests()
      .slice(asked)
      .map((r) => JSON.stringify(r))
      .join('\n');
    expect(prompt).toContain('the user edited the proposed side to this (their own idea of the fix)');
    expect(prompt).toContain(
      '+Run `scripts/total.py`. It reads `references/expenses.csv` and prints the total of the `Amount` column. Header names are matched case-insensitively.',
    );
    expect(problems).toEqual([]);
  },
);

/**
 * In chat a failed skill falls back to a plain answer, and a turn that got one succeeded. Here
 * the plain answer fails too (the model answers only the repair), so the turn fails with the
 * skill's own error on its run card.
 */
const chatRepairTest = repairTest.extend({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern.
  model: async ({}, use) => {
    const server = await scriptedModel(null);
    await use(server);
    await server.close();
  },
});

chatRepairTest(
  'from a failed chat run: edit and re-check, stale after a hand edit, reject with a reason that the next repair hears',
  async ({ page, workspace, model }, testInfo) => {
    test.slow();
    const problems = watchConsole(page);
    const chat = new ChatPage(page);
    const repair = new RepairPage(page);
    await chat.open(workspace.url);

    await chat.say('$expense-total how much did I spend?');
    await repair.allowOnce();
    await chat.finished('failure');
    const card = chat.lastTurn().locator('[data-testid="tool-card"][data-kind="run"]');
    await expect(card).toHaveAttribute('data-status', 'failure');
    await expect(repair.offer(card)).toHaveAttribute('data-eligible', 'true');
    await expect(repair.reason(card)).toContainText("KeyError 'amount'");
    await repair.shootPage(testInfo, 'repair-chat-offer');

    await repair.repairButton(card).click();
    await expect(page).toHaveURL(/#repair\//);
    await repair.allowOnce();
    await expect(repair.review()).toHaveAttribute('data-stale', 'false', { timeout: 30_000 });
    await expect(repair.apply()).toBeEnabled();

    // Edit the proposed side: the edit replaces that file's hunks, and Re-check replays it.
    await repair.diffReady('SKILL.md');
    await repair.proposedSide().getByText('column.').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Amounts use a dot.');
    await expect(repair.diffPane()).toHaveAttribute('data-edited', 'true');
    await expect(page.getByTestId('file-edited')).toBeVisible();
    await expect(repair.hunk(0).getByTestId('hunk-accept')).toBeDisabled();
    await expect(repair.applies()).toContainText('1 file edited');
    const before = (await repair.review().getAttribute('data-proposal-id')) ?? '';
    await repair.recheck().click();
    await repair.allowOnce();
    await expect(repair.review()).not.toHaveAttribute('data-proposal-id', before, { timeout: 30_000 });
    await expect(repair.record()).toContainText('edited by you');
    await expect(repair.replay()).toHaveAttribute('data-verdict', 'passes');
    await repair.diffReady('SKILL.md');
    await expect(repair.proposedSide()).toContainText('Amounts use a dot.');
    await expect(repair.diffPane()).toHaveAttribute('data-edited', 'false');
    await expect(repair.applies()).toContainText('all 3 hunks, as replayed');

    // Someone edits the skill meanwhile: the proposal no longer matches it, says so, and cannot be applied.
    const doc = path.join(workspace.skillsDir, 'expense-total', 'SKILL.md');
    fs.appendFileSync(doc, '\nEdited by hand.\n');
    await expect(repair.review()).toHaveAttribute('data-stale', 'true', { timeout: 20_000 });
    await expect(page.getByTestId('review-stale')).toContainText('stale');
    await expect(repair.apply()).toBeDisabled();
    await expect(repair.applies()).toContainText('cannot be applied');
    expect(fs.readFileSync(doc, 'utf8')).toBe(`${SKILL_MD}\nEdited by hand.\n`);

    // Reject it with a reason: nothing changes, and the next repair of this run is told why.
    await repair.reject().click();
    await page.getByTestId('reject-reason').fill('keep SKILL.md as it is, fix only the script');
    await page.getByTestId('reject-confirm').click();
    await expect(repair.review()).toHaveAttribute('data-status', 'rejected');
    await expect(page.getByTestId('review-rejected')).toContainText('keep SKILL.md as it is');
    expect(fs.readFileSync(doc, 'utf8')).toBe(`${SKILL_MD}\nEdited by hand.\n`);
    const asked = model.chatRequests().length;
    await page.getByTestId('repair-again').click();
    await repair.allowOnce();
    await expect(repair.review()).toHaveAttribute('data-status', 'pending', { timeout: 30_000 });
    const prompt = JSON.stringify(model.chatRequests().slice(asked));
    expect(prompt).toContain('The user rejected it: keep SKILL.md as it is, fix only the script');
    expect(problems).toEqual([]);
  },
);

test.describe('not eligible', () => {
  test.use({ seedFiles: SEED });

  test('a denied run is never repaired, and says why', async ({ page, workspace }, testInfo) => {
    const problems = watchConsole(page);
    const skills = new SkillsPage(page);
    const runs = new RunsPage(page);
    const repair = new RepairPage(page);
    await skills.open(workspace.url);
    await skills.row('expense-total').click();
    await expect(skills.detail()).toHaveAttribute('data-loaded', 'true');
    await runs.openRunTab();
    await runs.start('how much did I spend?');
    await expect(runs.dialog()).toBeVisible();
    await runs.deny().click();
    const run = runs.tabRun();
    await expect(run).toHaveAttribute('data-status', 'denied');
    await expect(repair.offer(run)).toHaveAttribute('data-eligible', 'false');
    await expect(repair.offer(run)).toHaveAttribute('data-category', 'permission_denied');
    await expect(repair.reason(run)).toContainText('Repairs never change what a skill is allowed to do');
    await expect(repair.reason(run)).toContainText('Denied: expense-total did not run');
    await expect(repair.reason(run)).not.toContainText('was denied (Denied');
    await expect(repair.repairButton(run)).toHaveCount(0);
    await repair.shootPage(testInfo, 'repair-not-eligible', run);
    expect(problems).toEqual([]);
  });
});
