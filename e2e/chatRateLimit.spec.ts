import { startModelServer, type ModelServer } from '../electron/testing/modelServer';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat';
import { ModelSettingsPage } from './pages/models';
import { layoutProblems, shots, watchConsole } from './support';

// A model that answers 429 with Retry-After: the pane says so once, and Retry waits out the wait
// with a countdown instead of asking a server that said it would refuse.
const WAIT_S = 8;

const limitedTest = test.extend<{ model: ModelServer; waitS: number }>({
  /** The Retry-After the 429 carries, in seconds. */
  waitS: [WAIT_S, { option: true }],
  model: async ({ waitS }, use) => {
    const server = await startModelServer({
      replies: [
        {
          error: {
            status: 429,
            message: 'Rate limit reached for requests',
            type: 'requests',
            code: 'rate_limit_exceeded',
            retryAfter: String(waitS),
          },
        },
      ],
      fallback: { text: 'Hello again, after the wait.' },
    });
    await use(server);
    await server.close();
  },
  serverEnv: async ({ model }, use) =>
    use({ OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'sk-e2e-429', SKILLDECK_MODEL: 'scripted-model' }),
});

limitedTest(
  'after a 429 with Retry-After, the error shows once and Retry counts down before it can be pressed',
  async ({ page, workspace, model }, testInfo) => {
    const problems = watchConsole(page);
    await page.setViewportSize({ width: 1400, height: 900 });
    const chat = new ChatPage(page);
    await chat.open(workspace.url);
    await chat.say('hello there');
    await chat.finished('error');

    const answer = chat.answer();
    // Once: not in the model step's row and again in the notice under it.
    await expect(answer.getByText(/rate-limiting requests/)).toHaveCount(1);
    const notice = answer.getByTestId('turn-notice');
    await expect(notice).toContainText(`it asks to wait ${WAIT_S} s`);

    const retry = notice.getByTestId('turn-retry');
    await expect(retry).toBeDisabled();
    await expect(retry).toHaveText(/^Retry in 0:0\d$/);
    await expect(retry).toHaveAccessibleName(/^Retry in 0:0\d$/);
    await shots(page, testInfo, 'chat-429-waiting');
    // At a 900 px window the notice's buttons keep their labels inside them.
    await page.setViewportSize({ width: 900, height: 800 });
    expect(await layoutProblems(page)).toEqual([]);
    await shots(page, testInfo, 'chat-429-waiting-900');
    expect(model.chatRequests()).toHaveLength(1);

    // The wait ends: Retry can be pressed, and it asks again.
    await expect(retry).toBeEnabled({ timeout: (WAIT_S + 5) * 1000 });
    await expect(retry).toHaveText('Retry');
    await retry.click();
    await chat.finished('success');
    await expect(chat.answerText()).toContainText('Hello again, after the wait.');
    expect(model.chatRequests()).toHaveLength(2);
    expect(problems).toEqual([]);
  },
);

limitedTest.describe('a long wait', () => {
  limitedTest.use({ waitS: 90 });
  limitedTest('survives a reload: Retry is still held until it is over', async ({ page, workspace }) => {
    const chat = new ChatPage(page);
    await chat.open(workspace.url);
    await chat.say('hello there');
    await chat.finished('error');
    await page.reload();
    await chat.ready();
    await chat.finished('error');
    const retry = chat.answer().getByTestId('turn-retry');
    await expect(retry).toBeDisabled();
    await expect(retry).toHaveText(/^Retry in 1:[23]\d$/);
  });

  limitedTest(
    'after a switch to another model, Retry asks that one at once',
    async ({ page, workspace, model }) => {
      const chat = new ChatPage(page);
      await chat.open(workspace.url);
      await chat.say('hello there');
      await chat.finished('error');
      await expect(chat.answer().getByTestId('turn-retry')).toBeDisabled();

      // Settings → Model: the same server, another of its models. Only the one that asked waits.
      const settings = new ModelSettingsPage(page);
      await settings.open(workspace.url);
      await settings.provider().selectOption('openai-compatible');
      await settings.commit(settings.baseURL(), model.baseURL);
      await settings.commit(settings.model(), 'other-model');
      await expect(settings.problem()).toHaveCount(0);

      await chat.open(workspace.url);
      await chat.finished('error');
      const retry = chat.answer().getByTestId('turn-retry');
      await expect(retry).toBeEnabled();
      await expect(retry).toHaveText('Retry');
      await retry.click();
      await chat.finished('success');
      await expect(chat.answerText()).toContainText('Hello again, after the wait.');
      expect(model.chatRequests().map((r) => r.model)).toEqual(['scripted-model', 'other-model']);
    },
  );
});
