import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page, TestInfo } from '@playwright/test';
import type { ModelServer } from '../electron/testing/modelServer';
import { SEED, scriptedModel } from './expenseSkill';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat';
import { InstallDialog } from './pages/install';
import { RepairPage } from './pages/repair';
import { RoutingPage } from './pages/routing';
import { RunsPage } from './pages/runs';
import { SkillsPage } from './pages/skills';
import { expectReachable, layoutProblems, watchConsole } from './support';

/**
 * The Electron window may be as small as 720×480 (electron/main.ts), and half a 1280–1440 px
 * screen is 640–720 px: every view has to work from there up. 1280×720 is shot to compare.
 */
const NARROW = [
  { width: 720, height: 480 },
  { width: 800, height: 600 },
];
const WIDE = { width: 1280, height: 720 };

/** A script skill that asks before it runs, with a long unbroken word in its description. */
const NOTE_SKILL = {
  'echo-note/SKILL.md': `---
name: echo-note
description: Echoes a short note back, for example notes/2026-11-28/grocery-list-with-oat-milk-and-bread.md. Use when the user wants a note echoed.
---

# Echo note

Prints the task it was given.
`,
  'echo-note/skill.yaml': `spec:
  type: script
triggers:
  - echo a note
cost_hint: low
permissions:
  filesystem: { read: [], write: [] }
  network: { outbound: false }
  environment: { allow: [] }
execution_policy:
  sandbox: process
  approval: ask
  timeout: 20
entrypoints:
  - name: echo
    path: scripts/echo.mjs
    description: Prints the task.
`,
  'echo-note/scripts/echo.mjs': `const { task } = JSON.parse(process.env.INPUT_JSON ?? '{}');
console.log('Noted: ' + String(task));
`,
};

/** The shot goes to the report, and to `$NARROW_SHOTS` when set (to look at before and after). */
async function shoot(page: Page, testInfo: TestInfo, name: string) {
  const size = page.viewportSize() ?? WIDE;
  const file = testInfo.outputPath(`${name}-${size.width}x${size.height}.png`);
  await page.screenshot({ path: file, animations: 'disabled' });
  await testInfo.attach(path.basename(file), { path: file, contentType: 'image/png' });
  const dir = process.env.NARROW_SHOTS;
  if (dir) {
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(file, path.join(dir, path.basename(file)));
  }
}

/**
 * At each narrow size: nothing runs out sideways or spills (layoutProblems), then `check`
 * (the view's key controls are reachable); a shot at each size and at 1280×720.
 * Soft assertions, so one run lists everything a view breaks.
 */
async function atEachSize(
  page: Page,
  testInfo: TestInfo,
  name: string,
  check: () => Promise<void> = async () => {},
) {
  for (const size of NARROW) {
    await page.setViewportSize(size);
    expect.soft(await layoutProblems(page), `${name} at ${size.width}×${size.height}`).toEqual([]);
    await check();
    await shoot(page, testInfo, name);
  }
  await page.setViewportSize(WIDE);
  expect.soft(await layoutProblems(page), `${name} at 1280×720`).toEqual([]);
  await shoot(page, testInfo, name);
  await page.setViewportSize(NARROW[0]);
}

const reachable = async (page: Page, ...controls: Locator[]) => {
  for (const control of controls) await expectReachable(page, control);
};

/** A side panel a narrow window folds away: opened with its toggle when it is hidden. */
async function reveal(page: Page, target: Locator, toggle: Locator) {
  if (await target.isVisible()) return false;
  await reachable(page, toggle);
  await toggle.click();
  await expect(target).toBeVisible();
  return true;
}

test.describe('a narrow window (720–800 px)', () => {
  test.use({ seedFiles: { ...NOTE_SKILL, ...SEED }, viewport: NARROW[0] });

  test('chat: conversations, thread, composer, live routing and the approval dialog fit', async ({
    page,
    workspace,
  }, testInfo) => {
    test.slow();
    const problems = watchConsole(page);
    const chat = new ChatPage(page);
    await chat.open(workspace.url);
    await chat.composer().fill('echo a note about oat milk');
    const candidate = page.locator('[data-testid="candidate"][data-skill-name="echo-note"]');
    await atEachSize(page, testInfo, 'chat-live', async () => {
      await reachable(page, chat.composer(), chat.send());
      if (await reveal(page, chat.newChat(), page.getByTestId('conversations-toggle'))) {
        await reachable(page, chat.newChat(), chat.search());
        await expect(chat.newChat()).toBeFocused();
        await shoot(page, testInfo, 'chat-drawer');
        await page.keyboard.press('Escape');
        await expect(page.getByTestId('conversations-toggle')).toBeFocused();
        await expect(chat.newChat()).toBeHidden();
      }
      await reachable(page, candidate);
    });

    // Wide, the list is in its column and the drawer's button is gone.
    await page.setViewportSize(WIDE);
    await expect(chat.newChat()).toBeVisible();
    await expect(page.getByTestId('conversations-toggle')).toBeHidden();
    await page.setViewportSize(NARROW[0]);

    await chat.say(
      '$echo-note notes/2026-11-28/grocery-list-with-oat-milk-and-bread-and-a-very-long-name.md',
    );
    await expect(chat.dialog()).toBeVisible();
    const runs = new RunsPage(page);
    await atEachSize(page, testInfo, 'approval', () =>
      reachable(page, runs.deny(), runs.allowOnce(), runs.allowAlways()),
    );
    await runs.allowOnce().click();
    await chat.finished('success');
    await atEachSize(page, testInfo, 'chat-answered', () => reachable(page, chat.composer(), chat.send()));
    expect(problems).toEqual([]);
  });

  test('skills: the list, every detail tab and the install preview fit', async ({
    page,
    workspace,
  }, testInfo) => {
    test.slow();
    const problems = watchConsole(page);
    const skills = new SkillsPage(page);
    await skills.open(workspace.url);
    await atEachSize(page, testInfo, 'skills-list', () =>
      reachable(page, skills.search(), skills.row('echo-note')),
    );

    await skills.row('echo-note').click();
    await expect(skills.detail()).toHaveAttribute('data-loaded', 'true');
    const tabs = page.locator('[data-testid^="detail-tab-"]');
    await atEachSize(page, testInfo, 'skill-overview', async () => {
      for (const tab of await tabs.all()) await reachable(page, tab);
    });
    await page.setViewportSize(WIDE);
    await expect(skills.list()).toBeVisible();
    await expect(page.getByTestId('detail-back')).toBeHidden();
    for (const id of ['run', 'metadata', 'files', 'problems', 'evals', 'availability', 'history']) {
      await page.setViewportSize(NARROW[0]);
      const tab = page.getByTestId(`detail-tab-${id}`);
      await reachable(page, tab);
      await tab.click();
      await expect(tab).toHaveAttribute('aria-selected', 'true');
      expect.soft(await layoutProblems(page), `tab ${id} at 720×480`).toEqual([]);
      await shoot(page, testInfo, `skill-${id}`);
    }

    const source = path.join(path.dirname(workspace.home), 'sources', 'weather-report');
    fs.mkdirSync(path.join(source, 'scripts'), { recursive: true });
    fs.writeFileSync(
      path.join(source, 'SKILL.md'),
      '---\nname: weather-report\ndescription: Fetches the weather for a city from https://api.open-meteo.com/v1/forecast?latitude=41.9&longitude=12.5. Use when asked about the weather.\n---\n# Weather\n\nRun `scripts/fetch.sh`.\n',
    );
    fs.writeFileSync(path.join(source, 'scripts', 'fetch.sh'), '#!/usr/bin/env bash\ncurl -s "$1"\n');
    // A narrow window shows the detail alone: its way back leads to the list and its Install.
    if (await page.getByTestId('detail-back').isVisible()) {
      await page.getByTestId('detail-back').click();
      await expect(skills.list()).toBeFocused();
    }
    const install = new InstallDialog(page);
    await install.previewFolder(source);
    await atEachSize(page, testInfo, 'install-preview', () => reachable(page, install.confirm()));
    await install.install();
    await atEachSize(page, testInfo, 'install-result');
    // "Show in list" shows the list, with the new skill selected and scrolled into view, not its detail.
    await install.resultLink('weather-report').click();
    await expect(install.dialog()).toBeHidden();
    await expect(skills.list()).toBeVisible();
    await expect(skills.detail()).toBeHidden();
    await expect(skills.row('weather-report')).toHaveAttribute('aria-selected', 'true');
    await expect(skills.row('weather-report')).toBeInViewport({ ratio: 0.95 });
    await expect(skills.list()).toBeFocused();
    await shoot(page, testInfo, 'install-shown');
    // Wide, the list and the new skill's detail show side by side.
    await page.setViewportSize(WIDE);
    await expect(skills.detail()).toHaveAttribute('data-skill-name', 'weather-report');
    await page.setViewportSize(NARROW[0]);
    expect(problems).toEqual([]);
  });
});

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
      OPENAI_API_KEY: 'sk-e2e-narrow',
      SKILLDECK_MODEL: 'scripted-model',
    }),
  seedFiles: SEED,
  viewport: NARROW[0],
});

repairTest(
  'a narrow window: a failed run, its repair review (inline diff), Runs, Settings and Activity fit',
  async ({ page, workspace }, testInfo) => {
    test.slow();
    const problems = watchConsole(page);
    const skills = new SkillsPage(page);
    const runs = new RunsPage(page);
    const repair = new RepairPage(page);
    await skills.open(workspace.url);
    await skills.row('expense-total').click();
    await expect(skills.detail()).toHaveAttribute('data-loaded', 'true');
    await runs.openRunTab();
    await runs.start('how much did I spend?');
    await repair.allowOnce();
    await expect(runs.tabRun()).toHaveAttribute('data-status', 'failure');
    await atEachSize(page, testInfo, 'run-failed', () => reachable(page, repair.repairButton(runs.tabRun())));

    await repair.repairButton(runs.tabRun()).click();
    await repair.allowOnce();
    await expect(repair.review()).toBeVisible({ timeout: 30_000 });
    await repair.diffReady('SKILL.md');
    await atEachSize(page, testInfo, 'repair-review', async () => {
      await reachable(page, repair.apply(), repair.reject(), repair.fileTabs().first());
      await reachable(page, repair.hunk(0).getByTestId('hunk-accept'));
      // Narrow: one inline diff (as VS Code does), not two columns of a few words each.
      await expect(repair.diffPane().locator('.monaco-diff-editor.side-by-side')).toHaveCount(0);
      await reachable(page, repair.diffPane());
    });
    await repair.reject().click();
    await atEachSize(page, testInfo, 'repair-reject', () =>
      reachable(page, page.getByTestId('reject-confirm')),
    );

    await page.goto(`${workspace.url}#runs`);
    await expect(page.getByTestId('runs-page')).toBeVisible();
    await atEachSize(page, testInfo, 'runs');
    await page.goto(`${workspace.url}#settings`);
    await expect(page.getByTestId('settings-page')).toBeVisible();
    await atEachSize(page, testInfo, 'settings');
    await new RoutingPage(page).commitRoute('how much did I spend on lunch last week?');
    await page.goto(`${workspace.url}#activity`);
    await expect(page.getByTestId('activity-page')).toBeVisible();
    await atEachSize(page, testInfo, 'activity', async () => {
      // One route: p50 and p95 are the same line, labelled once, clear of the caption above.
      const labels = page.getByTestId('latency-ref-label');
      await expect(labels).toHaveCount(1);
      const caption = await page.getByTestId('latency-chart').locator('figcaption').boundingBox();
      const label = await labels.boundingBox();
      expect
        .soft(label && caption && label.y >= caption.y + caption.height, 'the label is under the caption')
        .toBe(true);
      // The route's latency, origin and time each keep to one line.
      for (const part of await page
        .getByTestId('route-row')
        .first()
        .locator('.route-row__meta > span')
        .all()) {
        const box = await part.boundingBox();
        expect.soft(box?.height ?? 0, `"${await part.textContent()}" is one line`).toBeLessThan(22);
      }
    });
    expect(problems).toEqual([]);
  },
);

test.describe('a short window (480–600 px high)', () => {
  test.use({ seedFiles: { ...NOTE_SKILL, ...SEED }, viewport: NARROW[0] });

  test('activity: the route list scrolls in its own region, the page does not', async ({
    page,
    workspace,
  }, testInfo) => {
    const problems = watchConsole(page);
    const routing = new RoutingPage(page);
    await routing.open(workspace.url);
    for (let i = 1; i <= 16; i++) await routing.commitRoute(`echo a note number ${i} about oat milk`);
    await routing.open(workspace.url, 'activity');
    const rows = page.getByTestId('route-row');
    await expect(rows).toHaveCount(16);
    const region = page.getByTestId('route-list-region');
    await atEachSize(page, testInfo, 'activity-routes', async () => {
      const size = page.viewportSize() ?? NARROW[0];
      // The list's region lies wholly in the window with room for a few rows, and scrolls itself.
      const box = await region.boundingBox();
      expect
        .soft(box && box.y >= 0 && box.y + box.height <= size.height + 1, 'the list is in the window')
        .toBe(true);
      expect.soft(box?.height ?? 0, 'the list shows a few rows').toBeGreaterThanOrEqual(150);
      const scroll = await region.evaluate((el) => ({ scrolls: el.scrollHeight > el.clientHeight + 1 }));
      expect.soft(scroll.scrolls, 'the list scrolls within itself').toBe(true);
      // Reaching the last route scrolls the list, not the page: the metrics stay where they were.
      const cards = page.getByTestId('metric-cards');
      const before = await cards.boundingBox();
      await reachable(page, rows.last());
      expect.soft(await cards.boundingBox(), 'the page did not scroll').toEqual(before);
      await reachable(page, rows.first());
    });
    expect(problems).toEqual([]);
  });
});
