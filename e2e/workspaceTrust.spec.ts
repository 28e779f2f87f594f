import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, repoRoot, test } from './fixtures';
import { RunsPage } from './pages/runs';
import { SkillsPage } from './pages/skills';
import { WorkspacePage } from './pages/workspace';
import { layoutProblems, shots, watchConsole } from './support';

// what-users-ask §14: a folder opened in the window ships skills of its own (a cloned repository).
// Until the user trusts the folder, they are marked, and each asks before it runs, its
// `approval: auto` included; trust is kept per folder in $SKILLDECK_HOME and revocable.
const scriptSkill = (dir: string, name: string, description: string, script: string) => ({
  [`${dir}/${name}/SKILL.md`]: `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`,
  [`${dir}/${name}/skill.yaml`]: 'spec: { type: script }\nexecution_policy: { approval: auto }\n',
  [`${dir}/${name}/scripts/run.sh`]: `#!/bin/bash\n${script}\n`,
});

test.use({
  rootFiles: {
    ...scriptSkill(
      'workspace/.claude/skills',
      'repo-reader',
      'Reads the project and reports what it found. Use when asked to look over the project.',
      'echo "looked over $WORKSPACE"',
    ),
    ...scriptSkill(
      'workspace/skills',
      'csv-tool',
      'Summarizes CSV files. Use when asked for CSV statistics.',
      'echo "the folder\'s csv-tool"',
    ),
    'user-home/.claude/skills/csv-tool/SKILL.md':
      '---\nname: csv-tool\ndescription: My own CSV summaries. Use for CSV statistics.\n---\n# csv-tool\n',
  },
});

test('an untrusted folder: banner, marked skills, asked on an auto skill; trusted, it runs unasked; revocable', async ({
  page,
  workspace,
}, testInfo) => {
  const errors = watchConsole(page);
  const skills = new SkillsPage(page);
  const runs = new RunsPage(page);
  const trust = new WorkspacePage(page);
  const folder = fs.realpathSync(workspace.folder);
  await skills.open(workspace.url);

  await expect(trust.banner()).toBeVisible();
  await expect(trust.bannerPath()).toHaveText(folder);
  await expect(trust.banner()).toContainText('ships 2 skills of its own');
  await expect(trust.banner().getByTestId('trust-banner-shadowing')).toContainText('csv-tool');
  await runs.shoot(testInfo, 'trust-banner', trust.banner());
  // The smallest window the desktop app allows: the banner wraps, nothing runs out of it.
  const size = page.viewportSize();
  await page.setViewportSize({ width: 720, height: 480 });
  expect(await layoutProblems(page)).toEqual([]);
  await runs.shoot(testInfo, 'trust-banner-narrow');
  if (size) await page.setViewportSize(size);

  // The folder's skills, marked; the one that takes the place of the user's own says so.
  await trust.review().click();
  await expect.poll(async () => (await skills.rowNames()).sort()).toEqual(['csv-tool', 'repo-reader']);
  await expect(skills.row('repo-reader').getByTestId('untrusted-marker')).toHaveText('untrusted');
  await expect(skills.row('csv-tool').getByTestId('untrusted-marker')).toHaveText(
    'untrusted · replaces yours',
  );
  await runs.shoot(testInfo, 'skill-list-untrusted');

  // Its auto is an ask, and the dialog says why.
  await skills.row('repo-reader').click();
  await expect(skills.detail()).toHaveAttribute('data-loaded', 'true');
  await expect(page.getByTestId('untrusted-badge')).toBeVisible();
  await runs.openRunTab();
  await runs.start('look over the project');
  await expect(runs.dialog()).toBeVisible();
  await expect(page.getByTestId('approval-untrusted')).toContainText(folder);
  await expect(page.getByTestId('approval-reasons')).toContainText(
    `repo-reader comes from the workspace folder ${folder}, which you have not trusted`,
  );
  await expect(page.getByTestId('approval-answers')).toHaveAttribute('data-armed', 'true');
  await runs.shoot(testInfo, 'approval-untrusted');
  await shots(page, testInfo, 'approval-untrusted-scheme');
  await runs.deny().click();
  await expect(runs.tabRun()).toHaveAttribute('data-status', 'denied');

  // Trusted: the banner and the marks go, the trust is on disk, and the skill runs unasked.
  await trust.trust().click();
  await expect(trust.banner()).toHaveCount(0);
  await expect(skills.row('repo-reader').getByTestId('untrusted-marker')).toHaveCount(0);
  const stored = JSON.parse(fs.readFileSync(path.join(workspace.home, 'workspaces.json'), 'utf8'));
  expect(Object.keys(stored.folders)).toEqual([folder]);
  await runs.start('look over the project again');
  await expect(runs.tabRun()).toHaveAttribute('data-status', 'success');
  await expect(runs.tabRun().getByTestId('run-output')).toContainText(`looked over ${folder}`);
  await expect(runs.dialog()).toHaveCount(0);

  // Settings lists it; revoking brings the banner back.
  await page.evaluate(() => (location.hash = '#settings'));
  await expect(trust.trustedFolder(folder)).toBeVisible();
  await runs.shoot(testInfo, 'settings-workspaces', page.getByTestId('workspace-settings'));
  await trust.trustedFolder(folder).getByTestId('trusted-revoke').click();
  await expect(page.getByTestId('trusted-empty')).toBeVisible();
  await expect(trust.banner()).toBeVisible();
  expect(JSON.parse(fs.readFileSync(path.join(workspace.home, 'workspaces.json'), 'utf8')).folders).toEqual(
    {},
  );

  // Trusted from a terminal while the window is open: coming back to the window shows it.
  const cli = spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'node', 'cli.cjs'), 'trust', folder], {
    env: { ...process.env, SKILLDECK_HOME: workspace.home },
    encoding: 'utf8',
  });
  expect(cli.stdout).toContain(`Trusted: ${folder}`);
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await expect(trust.banner()).toHaveCount(0);
  await page.evaluate(() => (location.hash = '#skills'));
  await expect(skills.row('repo-reader')).toBeVisible();
  await expect(skills.row('repo-reader').getByTestId('untrusted-marker')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a skill turned off in this workspace only is marked, and the router skips it here', async ({
  page,
  workspace,
}, testInfo) => {
  const skills = new SkillsPage(page);
  const errors = watchConsole(page);
  await skills.open(workspace.url);
  await skills.row('repo-reader').click();
  await expect(skills.detail()).toHaveAttribute('data-loaded', 'true');
  await skills.tab('availability').click();
  await page.getByTestId('switch-workspace').click();
  await expect(skills.row('repo-reader').getByTestId('workspace-off-marker')).toHaveText('off here');
  await expect(page.getByTestId('workspace-off-badge')).toBeVisible();
  await expect(page.getByTestId('routable-badge')).toHaveCount(0);
  await expect(page.getByTestId('availability')).toContainText('Turned off in this workspace');
  await new RunsPage(page).shoot(testInfo, 'skill-off-here');

  // The same folder from a terminal: the router does not pick it there.
  const route = (query: string) => {
    const result = spawnSync(
      process.execPath,
      [path.join(repoRoot, 'dist', 'node', 'cli.cjs'), 'route', query, '--json'],
      {
        cwd: workspace.folder,
        env: {
          ...Object.fromEntries(
            Object.entries(process.env).filter(([name]) => !/^(OPENAI_|ANTHROPIC_|SKILLDECK_)/.test(name)),
          ),
          HOME: path.join(path.dirname(workspace.home), 'user-home'),
          SKILLDECK_HOME: workspace.home,
        },
        encoding: 'utf8',
      },
    );
    return JSON.parse(result.stdout) as { plan: { primary: string | null } };
  };
  expect(route('$repo-reader look over the project').plan.primary).toBeNull();
  // "Why isn't it used?" turns it back on here.
  await page.getByTestId('reason-enable-here').click();
  await expect(page.getByTestId('switch-workspace')).toHaveAttribute('data-checked', 'true');
  await expect(skills.row('repo-reader').getByTestId('workspace-off-marker')).toHaveCount(0);
  expect(route('$repo-reader look over the project').plan.primary).toBe('repo-reader');
  expect(errors).toEqual([]);
});
