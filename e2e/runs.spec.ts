import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { watchConsole } from './support';
import { RunsPage } from './pages/runs';
import { SkillsPage } from './pages/skills';

/** Files under a run's output folder, on disk: what really happened, whatever the window says. */
const outFiles = (cwd: string): string[] =>
  fs.existsSync(path.join(cwd, 'out'))
    ? fs.readdirSync(path.join(cwd, 'out'), { recursive: true }).map(String)
    : [];

test('save-note asks first: deny runs nothing, allow once writes the note; meeting-notes never asks', async ({
  page,
  workspace,
}, testInfo) => {
  const errors = watchConsole(page);
  const skills = new SkillsPage(page);
  const runs = new RunsPage(page);
  await skills.open(workspace.url);

  await skills.row('save-note').click();
  await expect(skills.detail()).toHaveAttribute('data-loaded', 'true');
  await runs.openRunTab();
  await runs.start('save a note: buy oat milk');

  // The dialog tells exactly what will run, where, and what it may touch.
  await expect(runs.dialog()).toBeVisible();
  await expect(runs.request()).toHaveAttribute('data-skill', 'save-note');
  await expect(runs.command()).toContainText('save_note.py');
  await expect(runs.writes()).toContainText('./out/**');
  await expect(runs.sandbox()).toHaveAttribute('data-tier', /bwrap|seatbelt|process/);
  await expect(runs.countdown()).toContainText(/\d:\d\d left/);
  await expect(runs.deny()).toBeFocused();
  // Every answer is reachable by Tab once armed, and shows where the focus is.
  await expect(page.getByTestId('approval-answers')).toHaveAttribute('data-armed', 'true');
  await page.keyboard.press('Tab');
  await expect(runs.allowOnce()).toBeFocused();
  await expect(runs.allowOnce()).toHaveCSS('box-shadow', /0px 0px 0px 4px/);
  await page.keyboard.press('Shift+Tab');
  await expect(runs.deny()).toBeFocused();
  // Tab never leaves the dialog: past the last answer it comes round to the first control.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(runs.allowAlways()).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(runs.dialog().getByRole('button', { name: 'Close' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(runs.allowAlways()).toBeFocused();
  await runs.deny().focus();
  const cwd = (await runs.cwd().textContent()) ?? '';
  const firstRun = (await runs.request().getAttribute('data-run-id')) ?? '';
  expect(cwd).toBe(path.join(workspace.home, 'runs', firstRun, 'work'));
  await runs.shoot(testInfo, 'approval-dialog');

  // Enter denies from the reason field; the reason reaches the timeline.
  await runs.reason().fill('not today');
  await page.keyboard.press('Enter');
  await expect(runs.dialog()).toHaveCount(0);
  await expect(runs.tabRun()).toHaveAttribute('data-run-id', firstRun);
  await expect(runs.tabRun()).toHaveAttribute('data-status', 'denied');
  await expect(runs.tabRun().getByTestId('timeline-status')).toHaveAttribute('data-status', 'denied');
  await expect(runs.tabRun().getByTestId('timeline-answer')).toHaveText('Denied by you (not today)');
  await expect(runs.tabRun().getByTestId('run-error')).toContainText('did not run');
  expect(await runs.timelineStates()).not.toContain('running');
  expect(outFiles(cwd)).toEqual([]);
  await runs.shoot(testInfo, 'timeline-denied', runs.tabRun());

  // Again, allowed once: it runs, prints, and the note is on disk where the window says.
  await runs.start('save a note: buy oat milk');
  await expect(runs.dialog()).toBeVisible();
  const secondRun = (await runs.request().getAttribute('data-run-id')) ?? '';
  expect(secondRun).not.toBe(firstRun);
  await runs.allowOnce().click();
  await expect(runs.dialog()).toHaveCount(0);
  await expect(runs.tabRun()).toHaveAttribute('data-status', 'success');
  await expect(runs.tabRun().getByTestId('run-output')).toContainText('Created `out/');
  await expect(runs.tabRun().getByTestId('timeline-answer')).toHaveText('Allowed once by you');
  const file = runs.tabRun().getByTestId('run-file');
  await expect(file).toHaveCount(1);
  await expect(file).toHaveAttribute('data-path', /^out\/\d{4}-\d\d-\d\d-buy-oat-milk\.md$/);
  const note = path.join(
    (await runs.tabRun().getAttribute('data-cwd')) ?? '',
    (await file.getAttribute('data-path')) ?? '',
  );
  expect(fs.readFileSync(note, 'utf8')).toBe('buy oat milk\n');
  expect(await runs.timelineStates()).toEqual(['selected', 'awaiting_approval', 'running', 'success']);
  await runs.shoot(testInfo, 'timeline-success', runs.tabRun());

  // A direct skill fills its template; nothing asks, nothing runs.
  await skills.row('meeting-notes').click();
  await expect(skills.detail()).toHaveAttribute('data-skill-name', 'meeting-notes');
  await runs.openRunTab();
  await page.getByTestId('run-input-example').click();
  await expect(page.getByTestId('run-input')).toHaveValue(/"title": ""/);
  await runs.start('weekly sync', '{ "title": "Weekly sync", "attendees": "Ann, Bo" }');
  await expect(runs.tabRun()).toHaveAttribute('data-status', 'success');
  await expect(runs.tabRun().getByTestId('run-output')).toContainText('# Weekly sync');
  await expect(runs.tabRun().getByTestId('run-sandbox').first()).toHaveText('nothing ran');
  await expect(runs.dialog()).toHaveCount(0);
  await expect(runs.pill()).toHaveCount(0);
  expect(await runs.timelineStates()).toEqual(['selected', 'success']);

  // The Runs view lists all three, newest first.
  await page.getByTestId('nav-runs').click();
  const rows = page.getByTestId('run-row');
  await expect(rows).toHaveCount(3);
  expect(
    await rows.evaluateAll((r) =>
      r.map((x) => `${x.getAttribute('data-skill')}:${x.getAttribute('data-status')}`),
    ),
  ).toEqual(['meeting-notes:success', 'save-note:success', 'save-note:denied']);
  await page.locator(`[data-testid="run-row"][data-run-id="${firstRun}"]`).click();
  await expect(page.getByTestId('runs-page').getByTestId('run-detail')).toHaveAttribute(
    'data-status',
    'denied',
  );
  await runs.shoot(testInfo, 'runs-view');

  expect(errors).toEqual([]);
});

test.describe('in dark mode', () => {
  test.use({ colorScheme: 'dark' });

  test('a reloaded window shows the pending request again; always-allow is listed and revocable', async ({
    page,
    workspace,
  }, testInfo) => {
    const errors = watchConsole(page);
    const skills = new SkillsPage(page);
    const runs = new RunsPage(page);
    await skills.open(workspace.url);
    await skills.row('save-note').click();
    await runs.openRunTab();
    await runs.start('save a note: call the dentist');
    await expect(runs.dialog()).toBeVisible();
    const runId = (await runs.request().getAttribute('data-run-id')) ?? '';
    await runs.shoot(testInfo, 'approval-dialog-dark');

    // Put aside, it waits in the top bar; a reload brings it back (what-users-ask #3).
    await page.keyboard.press('Escape');
    await expect(runs.dialog()).toHaveCount(0);
    await expect(runs.pill()).toHaveText('1 approval waiting');
    await expect(runs.tabRun().getByTestId('inline-approval')).toBeVisible();
    await runs.shoot(testInfo, 'inline-approval-dark', runs.tabRun());
    await page.reload();
    await expect(page.locator('html[data-app-state="ready"]')).toBeAttached();
    await expect(runs.dialog()).toBeVisible();
    await expect(runs.request()).toHaveAttribute('data-run-id', runId);

    // Enter on the focused Deny would deny; the allow buttons need a click or their accelerator.
    await expect(runs.deny()).toBeFocused();
    await expect(runs.allowAlways()).toBeEnabled();
    await page.keyboard.press('Alt+A');
    await expect(runs.dialog()).toHaveCount(0);

    // Always allowed: the next run of this version does not ask.
    await page.getByTestId('nav-runs').click();
    const row = page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`);
    await expect(row).toHaveAttribute('data-status', 'success');
    await row.click();
    await expect(page.getByTestId('runs-page').getByTestId('run-file')).toHaveCount(1);
    await runs.shoot(testInfo, 'runs-view-dark');
    await page.getByTestId('run-again').click();
    await expect(page.getByTestId('run-row')).toHaveCount(2);
    await expect(page.getByTestId('run-row').first()).toHaveAttribute('data-status', 'success');
    await expect(runs.dialog()).toHaveCount(0);

    await page.getByTestId('nav-settings').click();
    const grant = page.locator('[data-testid="grant"][data-skill="save-note"]');
    await expect(grant).toBeVisible();
    await expect(grant).toContainText('writes ./out/**');
    await runs.shoot(testInfo, 'settings-approvals-dark', page.getByTestId('approval-settings'));
    await grant.getByTestId('grant-revoke').click();
    await expect(page.getByTestId('grants-empty')).toBeVisible();

    expect(errors).toEqual([]);
  });
});

test('two waiting requests: the dialog steps between them, each one re-armed with Deny focused', async ({
  page,
  workspace,
}) => {
  const skills = new SkillsPage(page);
  const runs = new RunsPage(page);
  await skills.open(workspace.url);
  await skills.row('save-note').click();
  await runs.openRunTab();
  await runs.start('save a note: first');
  await expect(runs.dialog()).toBeVisible();
  const first = (await runs.request().getAttribute('data-request-id')) ?? '';
  await page.keyboard.press('Escape');
  await runs.start('save a note: second');
  await expect(page.getByTestId('approval-queue')).toHaveText('1 of 2 waiting');
  await expect(runs.request()).toHaveAttribute('data-request-id', first);

  // Next shows the other request whole, without answering the first. The allow buttons wait
  // ARM_DELAY_MS again: recorded in the page as the second request appears, since a loaded
  // machine can take longer than that between the click and a check from here.
  await page.evaluate(() => {
    const seen: { id: string | null; allowDisabled: boolean | undefined }[] = [];
    (window as unknown as { armLog: typeof seen }).armLog = seen;
    new MutationObserver(() => {
      const id =
        document.querySelector('[data-testid="approval-body"]')?.getAttribute('data-request-id') ?? null;
      const allow = document.querySelector<HTMLButtonElement>('[data-testid="approval-allow-once"]');
      seen.push({ id, allowDisabled: allow?.disabled });
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await page.getByTestId('approval-next').click();
  await expect(page.getByTestId('approval-queue')).toHaveText('2 of 2 waiting');
  await expect(runs.request()).not.toHaveAttribute('data-request-id', first);
  await expect(runs.deny()).toBeFocused();
  const firstSight = await page.evaluate(
    (firstId) =>
      (window as unknown as { armLog: { id: string | null; allowDisabled?: boolean }[] }).armLog.find(
        (e) => e.id !== null && e.id !== firstId,
      ),
    first,
  );
  expect(firstSight?.allowDisabled).toBe(true);
  await expect(page.getByTestId('approval-answers')).toHaveAttribute('data-armed', 'true');
  await expect(page.getByTestId('approval-next')).toHaveAccessibleName('Show the next waiting request');
  await runs.allowOnce().click();

  // Answered: the first one is left, and it still waits.
  await expect(runs.request()).toHaveAttribute('data-request-id', first);
  await expect(page.getByTestId('approval-queue')).toHaveCount(0);
  await expect(page.getByTestId('approval-next')).toHaveCount(0);
  await expect(runs.pill()).toHaveText('1 approval waiting');
});

test.describe('a long run', () => {
  test.use({
    seedFiles: {
      'slow-count/SKILL.md': [
        '---',
        'name: slow-count',
        'description: Counts slowly, one number every fifth of a second, until stopped. Use to watch output stream in.',
        '---',
        '# Slow count',
        '',
        'Run `scripts/count.sh`.',
        '',
      ].join('\n'),
      'slow-count/skill.yaml': [
        'spec:',
        '  type: script',
        'execution_policy:',
        '  approval: ask',
        '  timeout: 60',
        'entrypoints:',
        '  - name: count',
        '    path: scripts/count.sh',
        '  - name: count-twice',
        '    path: scripts/count.sh',
        '',
      ].join('\n'),
      // It never ends on its own (until the skill's 60 s timeout): the test sees it running
      // and stops it whenever it gets there, however slow the machine.
      'slow-count/scripts/count.sh':
        'i=0; while :; do i=$((i+1)); echo "n=$i"; echo "tick $i" >&2; sleep 0.2; done\n',
    },
  });

  test('streams its output live and stops on Stop', async ({ page, workspace }, testInfo) => {
    const errors = watchConsole(page);
    const skills = new SkillsPage(page);
    const runs = new RunsPage(page);
    await skills.open(workspace.url);
    await skills.row('slow-count').click();
    await runs.openRunTab();
    await expect(page.getByTestId('run-entrypoint')).toHaveValue('count');

    // Invalid JSON never leaves the window.
    await page.getByTestId('run-input').fill('{ "n": }');
    await expect(page.getByTestId('run-input-status')).toContainText('Not valid JSON');
    await expect(page.getByTestId('run-start')).toBeDisabled();
    await page.getByTestId('run-input').fill('{ "n": 50 }');

    await runs.start('count');
    await runs.allowOnce().click();
    await expect(runs.tabRun().getByTestId('run-live-output')).toContainText('n=3');
    await expect(runs.tabRun().getByTestId('run-live-output')).toContainText('tick 3');
    await expect(runs.tabRun().getByTestId('run-status')).toHaveAttribute('data-status', 'running');
    await runs.shoot(testInfo, 'run-live', runs.tabRun());
    await runs.tabRun().getByTestId('run-stop').click();
    await expect(runs.tabRun()).toHaveAttribute('data-status', 'cancelled');
    await expect(runs.tabRun().getByTestId('timeline-status')).toHaveAttribute('data-status', 'cancelled');
    // What it printed before Stop is kept; left alone it would have ended at its timeout instead.
    await expect(runs.tabRun().getByTestId('run-output')).toContainText('n=3');
    expect(errors).toEqual([]);
  });
});

test.describe('a sandbox block', () => {
  test.use({
    seedFiles: {
      'blocky/SKILL.md': [
        '---',
        'name: blocky',
        'description: Writes a line to the path it is given, which may lie outside its write paths. Use to see a sandbox block.',
        '---',
        '# Blocky',
        '',
        'Run `scripts/write.py` with `{"target": "/some/path"}`.',
        '',
      ].join('\n'),
      'blocky/skill.yaml': [
        'spec:',
        '  type: script',
        'permissions:',
        '  filesystem:',
        "    write: ['./out/**']",
        'execution_policy:',
        '  approval: ask',
        'entrypoints:',
        '  - name: write',
        '    path: scripts/write.py',
        '',
      ].join('\n'),
      'blocky/scripts/write.py': [
        'import json, os',
        'target = json.loads(os.environ["INPUT_JSON"])["target"]',
        'with open(target, "w") as fh:',
        '    fh.write("hello\\n")',
        'print("wrote", target)',
        '',
      ].join('\n'),
    },
  });

  test('is told exactly, and each allow-and-run-again asks first with the widening shown', async ({
    page,
    workspace,
  }, testInfo) => {
    const errors = watchConsole(page);
    // Outside /tmp, which the sandbox hides anyway; removed after the test.
    const outside = fs.mkdtempSync('/var/tmp/skilldeck-e2e-');
    const target = path.join(outside, 'note.txt');
    try {
      const skills = new SkillsPage(page);
      const runs = new RunsPage(page);
      await skills.open(workspace.url);
      await skills.row('blocky').click();
      await runs.openRunTab();
      await runs.start('write outside', JSON.stringify({ target }));
      await expect(runs.dialog()).toBeVisible();
      const tier = await runs.sandbox().getAttribute('data-tier');
      test.skip(tier !== 'bwrap' && tier !== 'seatbelt', `no OS sandbox here (${tier}): nothing is blocked`);
      await runs.allowOnce().click();

      await expect(runs.tabRun()).toHaveAttribute('data-status', 'blocked');
      const blockedRun = (await runs.tabRun().getAttribute('data-run-id')) ?? '';
      // The write itself is named exactly (Python's traceback shows it was opened for writing).
      const violation = runs.tabRun().locator('[data-testid="run-violation"][data-kind="write"]');
      await expect(violation).toContainText(`tried to write ${target}`);
      await expect(runs.tabRun().getByTestId('run-status')).toHaveText('Blocked');
      // A sandbox block is a permission question, never a repair (DESIGN §4), and the run says so.
      const offer = runs.tabRun().getByTestId('repair-offer');
      await expect(offer).toHaveAttribute('data-eligible', 'false');
      await expect(offer).toHaveAttribute('data-category', 'sandbox_denial');
      await expect(offer.getByTestId('repair-start')).toHaveCount(0);
      await runs.shoot(testInfo, 'run-blocked', runs.tabRun());

      await violation.getByTestId('violation-allow').click();
      await expect(runs.dialog()).toBeVisible();
      await expect(page.getByTestId('approval-widen')).toContainText(`asks for more than it declares:`);
      // The file does not exist yet: the grant is the folder it is written in.
      await expect(page.getByTestId('approval-widen')).toContainText(`write ${outside}`);
      await expect(runs.request()).not.toHaveAttribute('data-run-id', blockedRun);
      await runs.shoot(testInfo, 'approval-widen');
      await runs.allowOnce().click();
      await expect(runs.tabRun()).toHaveAttribute('data-status', 'success');
      await expect(runs.tabRun().getByTestId('run-output')).toContainText(`wrote ${target}`);
      expect(fs.readFileSync(target, 'utf8')).toBe('hello\n');
      await runs.shoot(testInfo, 'run-after-widen', runs.tabRun());
      expect(errors).toEqual([]);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
