import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { RoutingPage } from './pages/routing';
import { SkillsPage } from './pages/skills';
import { layoutProblems, shots, watchConsole } from './support';

// what-users-ask §15 (and §1): should / should-not-trigger queries are stored per skill from the
// app — its Evals tab, the "Why not…?" panel, a recorded route — and run against the router at once.
const WEATHER = `---
name: weather-now
description: Reports the current weather forecast for a city, temperature and rain.
---
# Weather

Say the forecast.
`;
const SKILL_YAML = 'triggers: [weather, forecast]\ncost_hint: low\n';

test.use({ seedFiles: { 'weather-now/SKILL.md': WEATHER, 'weather-now/skill.yaml': SKILL_YAML } });

const casesOnDisk = (skillsDir: string): unknown => {
  const file = path.join(skillsDir, 'weather-now', 'evals', 'trigger_evals.json');
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
};

test('the Evals tab adds, re-answers and removes cases, and runs them at once', async ({
  page,
  workspace,
}, testInfo) => {
  const problems = watchConsole(page);
  const skills = new SkillsPage(page);
  await skills.openSkill(workspace.url, 'weather-now', 'evals');
  await expect(page.getByTestId('evals-tab')).toHaveAttribute('data-state', 'none');
  // Each save changes the skill on disk; the reload that follows must not blank the open pane.
  await page.evaluate(() => {
    const seen = { loading: false };
    (window as unknown as { __detailBlanked: typeof seen }).__detailBlanked = seen;
    new MutationObserver(() => {
      if (document.querySelector('.detail__loading')) seen.loading = true;
    }).observe(document.body, { childList: true, subtree: true });
  });

  // The first case creates the file; Enter saves as "should trigger".
  await page.getByTestId('eval-query').fill('weather in Paris tomorrow');
  await page.getByTestId('eval-query').press('Enter');
  await expect(page.getByTestId('evals-tab')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByTestId('eval-save-note')).toHaveAttribute('data-state', 'added');
  await expect(page.getByTestId('eval-save-note')).toHaveAttribute('data-pass', 'true');
  await expect(page.getByTestId('eval-query')).toHaveValue('');
  // The new file shows in the Files tab once the changed skill is read again: the pane stayed up.
  await expect(page.getByTestId('detail-tab-files')).toContainText('3');
  expect(
    await page.evaluate(() => (window as unknown as { __detailBlanked: object }).__detailBlanked),
  ).toEqual({
    loading: false,
  });

  // A case the router fails is shown failing, with what it did instead.
  await page.getByTestId('eval-query').fill('tell me a joke');
  await page.getByTestId('eval-add-trigger').click();
  await expect(page.getByTestId('eval-save-note')).toHaveAttribute('data-pass', 'false');
  await expect(page.getByTestId('eval-save-note')).toContainText('The router fails it: not recalled');
  await expect(page.getByTestId('evals-verdict')).toHaveText('1 of 2 cases fail');
  await shots(page, testInfo, 'evals-tab-failing');

  // The same query with the other answer changes the case instead of adding one.
  await page.getByTestId('eval-query').fill('Tell me a  joke');
  await page.getByTestId('eval-add-not').click();
  await expect(page.getByTestId('eval-save-note')).toHaveAttribute('data-state', 'updated');
  await expect(page.getByTestId('evals-verdict')).toHaveText('All 2 cases pass');
  expect(casesOnDisk(workspace.skillsDir)).toEqual([
    { query: 'weather in Paris tomorrow', should_trigger: true },
    { query: 'tell me a joke', should_trigger: false },
  ]);

  await page
    .getByTestId('eval-case')
    .filter({ hasText: 'tell me a joke' })
    .getByTestId('eval-remove')
    .click();
  await expect(page.getByTestId('eval-case')).toHaveCount(1);
  await expect(page.getByTestId('eval-save-note')).toHaveAttribute('data-state', 'removed');
  expect(casesOnDisk(workspace.skillsDir)).toEqual([
    { query: 'weather in Paris tomorrow', should_trigger: true },
  ]);
  await shots(page, testInfo, 'evals-tab-after-remove');
  expect(
    await page.evaluate(() => (window as unknown as { __detailBlanked: object }).__detailBlanked),
  ).toEqual({
    loading: false,
  });
  expect(problems).toEqual([]);
});

test('a message from the "Why not…?" panel or a recorded route becomes a case of the chosen skill', async ({
  page,
  workspace,
}, testInfo) => {
  const problems = watchConsole(page);
  const routing = new RoutingPage(page);
  await routing.open(workspace.url);

  // A draft the router leaves to plain chat, kept as a case weather-now should trigger on.
  await routing.type('should I bring a jacket to Oslo');
  await routing.whyNotSearch().fill('weather-now');
  await routing.whyNotOption('weather-now').click();
  await expect(routing.whyNotResult()).toHaveAttribute('data-skill-name', 'weather-now');
  const save = page.getByTestId('save-as-eval');
  await save.getByTestId('save-eval-trigger').click();
  await expect(save.getByTestId('eval-save-note')).toHaveAttribute('data-state', 'added');
  await expect(save.getByTestId('eval-save-note')).toHaveAttribute('data-pass', 'false');
  await save.scrollIntoViewIfNeeded();
  await shots(page, testInfo, 'why-not-saved');
  // Another draft: the note of the last save is not shown under it.
  await routing.type('weather in Rome');
  await expect(save.getByTestId('eval-save-note')).toHaveCount(0);

  // Activity: a recorded route, kept as a case; the routed skill is picked to start with.
  await routing.commitRoute('forecast for Lisbon this weekend');
  await routing.open(workspace.url, 'activity');
  await page.getByTestId('route-row').filter({ hasText: 'forecast for Lisbon' }).click();
  const keep = page.getByTestId('keep-as-eval');
  await expect(keep.getByTestId('keep-eval-search')).toHaveAttribute('placeholder', 'weather-now');
  await keep.getByTestId('save-eval-not').click();
  await expect(keep.getByTestId('eval-save-note')).toHaveAttribute('data-state', 'added');
  await expect(keep.getByTestId('eval-save-note')).toContainText('The router fails it: it selects the skill');
  await keep.scrollIntoViewIfNeeded();
  await shots(page, testInfo, 'activity-keep-as-eval');
  expect(casesOnDisk(workspace.skillsDir)).toEqual([
    { query: 'should I bring a jacket to Oslo', should_trigger: true },
    { query: 'forecast for Lisbon this weekend', should_trigger: false },
  ]);

  // The Evals tab shows both, without a reload.
  await page.getByTestId('nav-skills').click();
  await page.locator('[data-testid="skill-row"][data-skill-name="weather-now"]').click();
  await page.getByTestId('detail-tab-evals').click();
  await expect(page.getByTestId('eval-case')).toHaveCount(2);

  await page.setViewportSize({ width: 720, height: 560 });
  expect(await layoutProblems(page)).toEqual([]);
  expect(problems).toEqual([]);
});
