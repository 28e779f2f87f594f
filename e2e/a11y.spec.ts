import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { ModelServer } from '../electron/testing/modelServer';
import { startModelServer } from '../electron/testing/modelServer';
import { UNCLOSED } from './brokenSkills';
import { SEED, scriptedModel } from './expenseSkill';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat';
import { RepairPage } from './pages/repair';
import { RoutingPage } from './pages/routing';
import { RunsPage } from './pages/runs';
import { SkillsPage } from './pages/skills';

/**
 * axe-core's WCAG 2.1 A/AA rules on every main screen, light and dark: text contrast, names
 * of controls, roles. Monaco draws its own editor (and its own screen-reader mode) and is left
 * to it. `scrollable-region-focusable` is off: Chromium (130+, so Electron 45 and Debian's)
 * makes a scrolling box a Tab stop by itself, which axe does not model; the approval test
 * below checks that a keyboard really reaches the dialog's scrolling body. Of the best-practice
 * rules, `page-has-heading-one` is on: a screen reader's heading list starts at the page title.
 */
async function violations(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const { violations } = await new AxeBuilder({ page })
      .options({
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
        rules: {
          'scrollable-region-focusable': { enabled: false },
          'page-has-heading-one': { enabled: true },
        },
      })
      .exclude('.monaco-editor')
      .analyze();
    for (const v of violations)
      for (const node of v.nodes)
        found.push(
          `${scheme} ${v.id}: ${node.target.join(' ')} ${node.failureSummary?.split('\n')[1] ?? ''}`,
        );
  }
  await page.emulateMedia({ colorScheme: 'light' });
  // One h1 per page (axe only asks for at least one): the view's title, not a skill's `# Title`
  // or a model answer's heading as well.
  const titles = await page.locator('h1').allTextContents();
  if (titles.length !== 1) found.push(`${titles.length} h1 headings: ${JSON.stringify(titles)}`);
  return found;
}

test('the skill list, a skill, chat with its live routing panel, Runs, Activity and Settings pass axe', async ({
  page,
  workspace,
}) => {
  test.slow(); // Six screens, each checked in light and dark.
  const skills = new SkillsPage(page);
  const routing = new RoutingPage(page);
  await skills.open(workspace.url);
  await expect(skills.rows().first()).toBeVisible();
  expect(await violations(page)).toEqual([]);

  await skills.row('save-note').click();
  await expect(skills.detail()).toHaveAttribute('data-loaded', 'true');
  expect(await violations(page)).toEqual([]);

  // Chat with the score panel filled: the primary, and dimmed candidates under the threshold.
  await routing.nav('chat').click();
  await routing.type('save a note: buy milk');
  await expect(routing.primary()).toContainText('save-note');
  await expect(page.locator('[data-testid="candidate"].is-dim').first()).toBeVisible();
  expect(await violations(page)).toEqual([]);

  for (const view of ['runs', 'activity', 'settings'] as const) {
    await routing.nav(view).click();
    await expect(page.getByTestId(`nav-${view}`)).toHaveAttribute('aria-current', 'page');
    expect(await violations(page)).toEqual([]);
  }
});

test('the approval dialog passes axe, tells a screen reader the command, and a keyboard reaches its scrolling body', async ({
  page,
  workspace,
}) => {
  const skills = new SkillsPage(page);
  const runs = new RunsPage(page);
  await page.setViewportSize({ width: 900, height: 600 });
  await skills.open(workspace.url);
  await skills.row('save-note').click();
  await expect(skills.detail()).toHaveAttribute('data-loaded', 'true');
  await runs.openRunTab();
  await runs.start('save a note: buy oat milk');
  await expect(page.getByTestId('approval-answers')).toHaveAttribute('data-armed', 'true');
  expect(await violations(page)).toEqual([]);

  // A screen reader opening the dialog hears the question, then the command and where it runs,
  // not only "Allow save-note to run this command?" over a focused Deny.
  await expect(runs.dialog()).toHaveAccessibleName('Allow save-note to run this command?');
  await expect(runs.dialog()).toHaveAccessibleDescription(/save_note\.py .*in .*\/work$/);

  // The facts are taller than the dialog: Tab from × lands on the body, and the arrow keys scroll it.
  const body = runs.dialog().locator('.modal__body');
  expect(await body.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  await runs.dialog().getByRole('button', { name: 'Close' }).focus();
  await page.keyboard.press('Tab');
  await expect(body).toBeFocused();
  await page.keyboard.press('End');
  await expect.poll(() => body.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
});

const limitedTest = test.extend<{ model: ModelServer }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern.
  model: async ({}, use) => {
    const server = await startModelServer({
      replies: [{ error: { status: 429, message: 'Rate limit reached.', retryAfter: '120' } }],
      fallback: { text: 'A plain answer.' },
    });
    await use(server);
    await server.close();
  },
  serverEnv: async ({ model }, use) =>
    use({ OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'sk-e2e-a11y', SKILLDECK_MODEL: 'scripted-model' }),
});

limitedTest(
  'a conversation passes axe: a rate-limited turn with its countdown, a shown route chip, an approval waiting inline',
  async ({ page, workspace }) => {
    test.slow();
    const chat = new ChatPage(page);
    await chat.open(workspace.url);
    await chat.say('hello there');
    await chat.finished('error');
    await expect(chat.answer().getByTestId('turn-retry')).toBeDisabled();
    expect(await violations(page)).toEqual([]);

    // Put aside, the request waits in the thread: the card, and "Waiting for your answer…" under it.
    await chat.say('$save-note buy oat milk');
    await expect(chat.dialog()).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(chat.approval()).toHaveAttribute('data-status', 'waiting');
    await expect(chat.chip()).toHaveAttribute('aria-pressed', 'true');
    await expect(chat.answer().locator('.answer__pending')).toBeVisible();
    expect(await violations(page)).toEqual([]);
  },
);

const repairTest = test.extend<{ model: ModelServer }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern.
  model: async ({}, use) => {
    const server = await scriptedModel('A plain answer.');
    await use(server);
    await server.close();
  },
  serverEnv: async ({ model }, use) =>
    use({ OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'sk-e2e-a11y', SKILLDECK_MODEL: 'scripted-model' }),
  seedFiles: SEED,
});

repairTest(
  'the repair review passes axe around its diff, and names both sides of the diff',
  async ({ page, workspace }) => {
    test.slow();
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
    await repair.repairButton(runs.tabRun()).click();
    await repair.allowOnce();
    await expect(repair.review()).toBeVisible({ timeout: 30_000 });
    await expect(repair.replay()).toHaveAttribute('data-verdict', 'passes');
    await repair.diffReady('SKILL.md');
    expect(await violations(page)).toEqual([]);

    // Monaco's own text boxes: a screen reader tells the original from the editable proposal.
    const side = (which: 'original' | 'modified') =>
      repair.diffPane().locator(`.editor.${which}`).getByRole('textbox');
    await expect(side('original')).toHaveAccessibleName(/^Original SKILL\.md, read-only\b/);
    await expect(side('modified')).toHaveAccessibleName(/^Proposed SKILL\.md, editable\b/);
  },
);

test.extend({ seedFiles: { 'notes-digest/SKILL.md': UNCLOSED } })(
  'a skill that never loads: its Fix… offer and the review of the fix, made without a run, pass axe',
  async ({ page, workspace }) => {
    const skills = new SkillsPage(page);
    const repair = new RepairPage(page);
    await skills.openSkill(workspace.url, 'notes-digest', 'problems');
    await expect(page.getByTestId('frontmatter-fix')).toBeVisible();
    expect(await violations(page)).toEqual([]);
    await page.getByTestId('frontmatter-fix-button').click();
    await repair.diffReady('SKILL.md');
    expect(await violations(page)).toEqual([]);
  },
);
