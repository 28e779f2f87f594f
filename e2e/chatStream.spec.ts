import { startModelServer, type ModelServer } from '../electron/testing/modelServer';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat';
import { shots, watchConsole } from './support';

// A long answer streaming from a scripted model: following it, reading back, stopping it.

const PARAGRAPHS = Array.from({ length: 90 }, (_, i) => `Paragraph ${i + 1} of the long answer.\n\n`);

/** Every answer streams its first 30 paragraphs, then waits for the test's `model.release()`. */
const streamTest = test.extend<{ model: ModelServer }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern.
  model: async ({}, use) => {
    const server = await startModelServer({ fallback: { text: PARAGRAPHS, holdAfter: 30 } });
    await use(server);
    await server.close();
  },
  serverEnv: async ({ model }, use) =>
    use({
      OPENAI_BASE_URL: model.baseURL,
      OPENAI_API_KEY: 'sk-e2e-stream',
      SKILLDECK_MODEL: 'scripted-model',
    }),
});

streamTest(
  'Esc stops a streaming answer when the focus is on the page, and Stop hands the focus back to the message box',
  async ({ page, workspace }) => {
    const problems = watchConsole(page);
    const chat = new ChatPage(page);
    await chat.open(workspace.url);

    await chat.say('tell me a long story');
    await expect(chat.answerText()).toContainText('Paragraph 30');
    // Clicking the answer's text to read it leaves the focus on the page itself.
    await chat.answerText().getByText('Paragraph 2 of the long answer.', { exact: true }).click();
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    await page.keyboard.press('Escape');
    await chat.finished('cancelled');
    await expect(chat.answerText()).toContainText('Paragraph 30');

    await chat.say('and another one');
    await expect(chat.answerText()).toContainText('Paragraph 30');
    await chat.stop().click();
    await chat.finished('cancelled');
    await expect(chat.composer()).toBeFocused();
    expect(problems).toEqual([]);
  },
);

streamTest(
  'the view follows a streaming answer, stays where the reader scrolled to, and Jump to latest brings it back',
  async ({ page, workspace, model }, testInfo) => {
    const problems = watchConsole(page);
    await page.setViewportSize({ width: 900, height: 700 });
    const chat = new ChatPage(page);
    await chat.open(workspace.url);
    const thread = page.getByTestId('thread');
    const jump = page.getByTestId('jump-to-latest');
    /** Whether a paragraph is inside the thread's visible box. */
    const inView = (n: number) =>
      thread.evaluate((el, text) => {
        const box = el.getBoundingClientRect();
        const p = [...el.querySelectorAll('p')].find((q) => q.textContent === text);
        const r = p?.getBoundingClientRect();
        return !!r && r.top >= box.top && r.bottom <= box.bottom;
      }, `Paragraph ${n} of the long answer.`);

    await chat.say('tell me a long story');
    await expect(chat.answerText()).toContainText('Paragraph 30');
    // At the bottom while it streams: the newest paragraph is in view, no jump button.
    await expect.poll(() => inView(30)).toBe(true);
    await expect(jump).toHaveCount(0);

    // The reader scrolls up to paragraph 5; the rest of the answer streams in below.
    await thread.evaluate((el) => {
      const p = [...el.querySelectorAll('p')].find(
        (q) => q.textContent === 'Paragraph 5 of the long answer.',
      );
      p?.scrollIntoView({ block: 'center' });
    });
    await expect(jump).toBeVisible();
    await shots(page, testInfo, 'chat-stream-jump');
    model.release();
    await chat.finished('success');
    await expect.poll(() => inView(5)).toBe(true);
    expect(await inView(90)).toBe(false);

    await jump.click();
    await expect.poll(() => inView(90)).toBe(true);
    await expect(jump).toHaveCount(0);
    await expect(chat.composer()).toBeFocused();
    expect(problems).toEqual([]);
  },
);
