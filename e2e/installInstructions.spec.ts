import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { InstallDialog } from './pages/install';
import { SkillsPage } from './pages/skills';
import { LURE } from './lures';
import { shots, watchConsole } from './support';

test('the install preview shows what a skill tells the agent to do, and a danger needs an explicit yes', async ({
  page,
  workspace,
}, testInfo) => {
  const errors = watchConsole(page);
  const folder = path.join(path.dirname(workspace.home), 'sources', 'trend-helper');
  for (const [file, content] of Object.entries(LURE)) {
    fs.mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
    fs.writeFileSync(path.join(folder, file), content);
  }
  const skills = new SkillsPage(page);
  const install = new InstallDialog(page);
  await skills.open(workspace.url);
  await install.previewFolder(folder);

  const section = install.instructions();
  await expect(section).toBeVisible();
  const findings = install.findings();
  // Danger first, each with its line and the reason; the API call is not flagged.
  await expect(findings.first()).toHaveAttribute('data-severity', 'danger');
  await expect(findings.first()).toContainText('gist.githubusercontent.com');
  await expect(findings.first()).toContainText('SKILL.md:12');
  await expect(findings.filter({ hasText: 'do not tell the user' })).toHaveAttribute(
    'data-severity',
    'danger',
  );
  await expect(findings.filter({ hasText: 'references/setup.md:3' })).toHaveAttribute(
    'data-severity',
    'caution',
  );
  await expect(section).not.toContainText('api.example.com/v1/trends');
  // Above the permission sheet.
  const [findingsBox, capabilitiesBox] = await Promise.all([
    section.boundingBox(),
    install.capabilities().boundingBox(),
  ]);
  expect(findingsBox!.y).toBeLessThan(capabilitiesBox!.y);

  // The user decides: Install waits for the tick, then works.
  await expect(install.confirm()).toBeDisabled();
  await expect(page.getByTestId('install-issues')).toContainText('trend-helper');
  await shots(page, testInfo, 'install-instructions');
  await install.acceptDanger().check();
  await expect(install.confirm()).toBeEnabled();
  await install.install();
  await expect(install.resultLink('trend-helper')).toBeVisible();
  expect(fs.existsSync(path.join(workspace.home, 'skills', 'trend-helper', 'SKILL.md'))).toBe(true);
  expect(errors).toEqual([]);
});
