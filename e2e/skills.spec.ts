import fs from 'node:fs';
import path from 'node:path';
import { expect, repoRoot, test } from './fixtures';
import { SkillsPage } from './pages/skills';
import { fitsWindow, shots } from './support';

const bundledDir = path.join(repoRoot, 'skills');
const bundledNames = fs
  .readdirSync(bundledDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(bundledDir, entry.name, 'SKILL.md')))
  .map((entry) => entry.name)
  .sort();

test('the Skills view lists every bundled skill once the app is ready', async ({
  page,
  workspace,
}, testInfo) => {
  const skills = new SkillsPage(page);
  await skills.open(workspace.url);
  expect(bundledNames.length).toBeGreaterThanOrEqual(8);
  for (const name of bundledNames) await expect(skills.row(name)).toBeVisible();
  await expect(skills.count()).toContainText(String(bundledNames.length));
  const shot = testInfo.outputPath('skills-list.png');
  await page.screenshot({ path: shot, fullPage: true });
  await testInfo.attach('skills-list', { path: shot, contentType: 'image/png' });
});

test('search filters the list as the user types, in English and Chinese', async ({ page, workspace }) => {
  const skills = new SkillsPage(page);
  await skills.open(workspace.url);
  await skills.search().fill('invoice');
  await expect(skills.row('invoice-organizer')).toBeVisible();
  await expect(skills.row('json-format')).toHaveCount(0);
  await skills.search().fill('发票');
  await expect(skills.row('invoice-organizer')).toBeVisible();
  expect((await skills.rowNames()).length).toBeLessThan(bundledNames.length);
  await skills.search().fill('no skill is called this zzqx');
  await expect(skills.rows()).toHaveCount(0);
  await skills.search().fill('');
  await expect(skills.rows()).toHaveCount(bundledNames.length);
});

test('a detail view renders the body as Markdown and the metadata beside the raw frontmatter', async ({
  page,
  workspace,
}, testInfo) => {
  const skills = new SkillsPage(page);
  await skills.open(workspace.url);
  const name = 'invoice-organizer';
  const skillMd = fs.readFileSync(path.join(bundledDir, name, 'SKILL.md'), 'utf8');
  const heading = /^#{1,2} (.+)$/m.exec(skillMd.split(/^---$/m).slice(2).join('---'))?.[1].trim();
  expect(heading).toBeTruthy();

  await skills.row(name).click();
  await expect(skills.detail()).toBeVisible();
  await expect(page.getByTestId('detail-name')).toContainText(name);
  await expect(
    page.getByTestId('detail-body').getByRole('heading', { name: heading! }).first(),
  ).toBeVisible();
  const shot = testInfo.outputPath('skill-detail.png');
  await page.screenshot({ path: shot, fullPage: true });
  await testInfo.attach('skill-detail', { path: shot, contentType: 'image/png' });

  await skills.tab('metadata').click();
  await expect(page.getByTestId('metadata-view')).toContainText('发票');
  await expect(page.getByTestId('raw-frontmatter')).toContainText(`name: ${name}`, { timeout: 20_000 });

  await skills.tab('files').click();
  await expect(page.getByTestId('file-tree')).toContainText('SKILL.md');
  await expect(page.getByTestId('file-tree')).toContainText('skill.yaml');
});

test('in a small window the detail pane and all its tabs stay inside the window', async ({
  page,
  workspace,
}, testInfo) => {
  await page.setViewportSize({ width: 900, height: 600 });
  const skills = new SkillsPage(page);
  await skills.open(workspace.url);
  await skills.row('invoice-organizer').click();
  await expect(skills.detail()).toHaveAttribute('data-loaded', 'true');
  await skills.page.getByTestId('detail-tab-history').click();
  await fitsWindow(page, skills.detail(), skills.page.getByTestId('detail-tab-history'));
  await shots(page, testInfo, 'skill-detail-small-window');

  // Metadata stacks its halves; the fields are shown whole, not in a strip a few rows high.
  await skills.tab('metadata').click();
  await expect(page.getByTestId('raw-frontmatter')).toContainText('name: invoice-organizer', {
    timeout: 20_000,
  });
  const fields = page.getByTestId('metadata-view').locator('..');
  expect(await fields.evaluate((side) => side.scrollHeight - side.clientHeight)).toBeLessThanOrEqual(1);
  await page.getByTestId('raw-frontmatter').scrollIntoViewIfNeeded();
  expect((await page.getByTestId('raw-frontmatter').boundingBox())?.height).toBeGreaterThanOrEqual(240);
  await shots(page, testInfo, 'skill-metadata-small-window');
});

test.describe('with broken skills in the skills folder', () => {
  test.use({
    seedFiles: {
      'broken-yaml/SKILL.md': '---\nname: broken-yaml\ndescription: [unclosed\n  nope: {\n---\n# Broken\n',
      'no-description/SKILL.md': '---\nname: no-description\n---\n# Nothing to route on\n',
      'healthy-extra/SKILL.md':
        '---\nname: healthy-extra\ndescription: A healthy extra skill for the e2e test.\n---\n# Healthy\n',
    },
  });

  test('shows each problem with how to fix it, and the others still load', async ({
    page,
    workspace,
  }, testInfo) => {
    const skills = new SkillsPage(page);
    await skills.open(workspace.url);
    for (const name of bundledNames) await expect(skills.row(name)).toBeVisible();
    await expect(skills.row('healthy-extra')).toBeVisible();
    await expect(skills.row('no-description')).toBeVisible();

    await page.getByTestId('filter-problems').click();
    await expect(skills.row('no-description')).toBeVisible();
    await expect(skills.row('healthy-extra')).toHaveCount(0);

    await skills.row('no-description').click();
    await skills.tab('problems').click();
    await expect(page.getByTestId('problem-item').first()).toContainText(/description/i);

    await skills.search().fill('broken');
    await expect(skills.rows()).toHaveCount(1);
    await skills.rows().first().click();
    await skills.tab('problems').click();
    await expect(page.getByTestId('problem-item').first()).toContainText(/YAML/i);
    const shot = testInfo.outputPath('skill-problems.png');
    await page.screenshot({ path: shot, fullPage: true });
    await testInfo.attach('skill-problems', { path: shot, contentType: 'image/png' });
  });
});
