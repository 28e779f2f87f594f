import { expect, test } from './fixtures';
import { LURE } from './lures';
import { RoutingPage } from './pages/routing';
import { SkillsPage } from './pages/skills';
import { shots, watchConsole } from './support';

// Skills in a folder SkillDeck only reads (never installed through the preview): the detail says
// what their instructions ask the agent to do.
test.use({
  seedFiles: {
    ...Object.fromEntries(Object.entries(LURE).map(([file, content]) => [`trend-helper/${file}`, content])),
    'table-tidy/SKILL.md':
      '---\nname: table-tidy\ndescription: Tidies Markdown tables.\n---\n# Table tidy\n\nAlign the columns.\n',
  },
});

test('opening a listed skill shows what its instructions ask for, dangers at the top', async ({
  page,
  workspace,
}, testInfo) => {
  const errors = watchConsole(page);
  const skills = new SkillsPage(page);
  await skills.open(workspace.url);

  await skills.row('trend-helper').click();
  const section = skills.instructions();
  await expect(section).toBeVisible();
  await expect(skills.findings().first()).toHaveAttribute('data-severity', 'danger');
  await expect(skills.findings().first()).toContainText('SKILL.md:12');
  await expect(skills.findings().filter({ hasText: 'do not tell the user' })).toHaveAttribute(
    'data-severity',
    'danger',
  );
  await expect(skills.findings().filter({ hasText: 'references/setup.md:3' })).toHaveAttribute(
    'data-severity',
    'caution',
  );
  await expect(section).not.toContainText('api.example.com/v1/trends');
  // Nothing to confirm: the skill is already here.
  await expect(page.getByTestId('instructions-accept')).toHaveCount(0);
  // Above the instructions themselves, and named in the header.
  const [sectionBox, bodyBox] = await Promise.all([
    section.boundingBox(),
    page.getByTestId('detail-body').boundingBox(),
  ]);
  expect(sectionBox!.y).toBeLessThan(bodyBox!.y);
  await expect(skills.dangerBadge()).toHaveText('2 dangerous instructions');
  await shots(page, testInfo, 'skill-detail-instructions');

  // The badge stays on every tab and leads back to the findings.
  await skills.tab('files').click();
  await expect(section).toHaveCount(0);
  await skills.dangerBadge().click();
  await expect(section).toBeVisible();

  await skills.row('table-tidy').click();
  await expect(skills.detail()).toHaveAttribute('data-loaded', 'true');
  await expect(page.getByTestId('detail-body')).toContainText('Align the columns.');
  await expect(section).toHaveCount(0);
  await expect(skills.dangerBadge()).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a skill whose instructions are flagged is marked, held back from routing, and can be allowed', async ({
  page,
  workspace,
}, testInfo) => {
  const errors = watchConsole(page);
  const skills = new SkillsPage(page);
  await skills.open(workspace.url);
  await expect(skills.row('trend-helper').getByTestId('flagged-marker')).toBeVisible();
  await expect(skills.row('table-tidy').getByTestId('flagged-marker')).toHaveCount(0);

  // The live preview shows it over T but held, with the line that holds it.
  const routing = new RoutingPage(page);
  await routing.nav('chat').click();
  await routing.type('what is trending right now?');
  const row = routing.candidate('trend-helper');
  await expect(row).toHaveAttribute('data-status', 'explicit_only');
  await expect(row.getByTestId('candidate-reason')).toContainText('held back: SKILL.md line 12');
  await expect(routing.primary()).toHaveText('none — plain chat');
  await expect(page.getByTestId('plan-reason')).toHaveText(
    /^trend-helper fits \(score 0\.\d\d\) but is held back: its instructions are flagged; plain chat\.$/,
  );
  await shots(page, testInfo, 'routing-flagged-held');

  // "Why isn't it used?" names the line and lets the user allow it anyway.
  await routing.nav('skills').click();
  await skills.row('trend-helper').click();
  await skills.tab('availability').click();
  await expect(page.getByTestId('diagnosis-verdict')).toHaveAttribute('data-verdict', 'manual');
  const reason = page.locator('[data-testid="diagnosis-reason"][data-code="instructions-flagged"]');
  await expect(reason).toContainText('Held back from automatic selection: SKILL.md line 12');
  await expect(page.getByTestId('switch-auto-select')).not.toBeChecked();
  await shots(page, testInfo, 'availability-flagged');
  await page.getByTestId('reason-allow-flagged').click();
  await expect(page.getByTestId('diagnosis-verdict')).toHaveAttribute('data-verdict', 'ok');
  await expect(page.getByTestId('switch-auto-select')).toBeChecked();
  // Still marked: allowed, not cleared.
  await expect(skills.row('trend-helper').getByTestId('flagged-marker')).toBeVisible();

  await routing.nav('chat').click();
  await routing.type('what is trending today?');
  await expect(routing.primary()).toHaveAttribute('data-skill-name', 'trend-helper');
  expect(errors).toEqual([]);
});
