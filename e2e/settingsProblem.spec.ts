import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { shots, watchConsole } from './support';

// A settings.json with one field that does not fit (skills.disabled written as a string): the
// engine keeps every other preference and a copy of the file. Before, only the CLI said so; the
// window showed the rest as if nothing had happened, and the user never learnt which setting was
// lost or where their file went.
test.use({
  rootFiles: {
    'home/settings.json': JSON.stringify({ routing: { threshold: 0.8 }, skills: { disabled: 'weather' } }),
  },
  viewport: { width: 1280, height: 800 },
});

test('a settings.json that does not fit is shown: which field, where the file is kept; the rest kept; dismissed stays dismissed', async ({
  page,
  workspace,
}, testInfo) => {
  const problems = watchConsole(page);
  await page.goto(workspace.url);
  const banner = page.getByRole('region', { name: 'Settings problem' });
  await expect(banner).toContainText('could not be used as written');
  await expect(banner).toContainText('skills.disabled');
  const kept = fs.readdirSync(workspace.home).find((f) => f.startsWith('settings.json.invalid-'));
  expect(kept).toBeTruthy();
  await expect(banner).toContainText(path.join(workspace.home, kept!));
  await shots(page, testInfo, 'settings-problem');

  // The field that fit is the user's, not a default.
  await banner.getByRole('link', { name: 'Open Settings' }).click();
  await expect(page.getByTestId('setting-threshold-range')).toHaveValue('0.8');

  await banner.getByRole('button', { name: 'Dismiss' }).click();
  await expect(banner).toHaveCount(0);
  await page.reload();
  // app.info has come (the version shows) and the banner stays away.
  await expect(page.locator('.top-bar__version')).toBeVisible();
  await expect(page.getByTestId('settings-problem')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test.describe('a settings.json that fits', () => {
  test.use({ rootFiles: { 'home/settings.json': JSON.stringify({ routing: { threshold: 0.7 } }) } });
  test('shows no banner', async ({ page, workspace }) => {
    await page.goto(`${workspace.url}#settings`);
    await expect(page.getByTestId('setting-threshold-range')).toHaveValue('0.7');
    await expect(page.locator('.top-bar__version')).toBeVisible();
    await expect(page.getByTestId('settings-problem')).toHaveCount(0);
  });
});
