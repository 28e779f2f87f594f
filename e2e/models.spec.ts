import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startModelServer, type ModelServer } from '../electron/testing/modelServer';
import { expect, test } from './fixtures';
import { ModelSettingsPage } from './pages/models';
import { fitsWindow } from './support';

const KEY = 'sk-e2e-stored-key-0123456789';
const ENV_KEY = 'sk-e2e-env-key-9876543210';

/** Every frame the engine pushed to the page: a key must never be among them. */
function framesFromEngine(page: Page): string[] {
  const frames: string[] = [];
  page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => frames.push(String(payload))));
  return frames;
}

test('configures a compatible server, takes a key it never shows again, and tests the connection', async ({
  page,
  workspace,
}, testInfo) => {
  const server = await startModelServer({ apiKey: KEY, models: ['qwen3:8b', 'llama3.2:3b', 'mistral'] });
  try {
    const received = framesFromEngine(page);
    const settings = new ModelSettingsPage(page);
    await settings.open(workspace.url);
    await expect(settings.problem()).toContainText('No model configured');
    await settings.shoot(testInfo, 'model-none');

    await settings.provider().selectOption('openai-compatible');
    await expect(settings.problem()).toContainText('Enter the server’s base URL');
    await settings.preset('Ollama').click();
    await expect(settings.baseURL()).toHaveValue('http://127.0.0.1:11434/v1');
    await settings.commit(settings.baseURL(), 'not a url');
    await expect(page.getByTestId('model-base-url-error')).toContainText('http:// or https://');

    await settings.commit(settings.baseURL(), server.baseURL);
    await expect(settings.listHint()).toContainText(
      `401: ${server.baseURL} wants an API key and none is set`,
    );

    // A wrong key first: the test says it was refused, in the user's terms.
    await settings.key().fill('sk-wrong-key-000');
    await settings.saveKey().click();
    await expect(settings.keyState()).toContainText('Key stored');
    await expect(settings.key()).toHaveValue('');
    await settings.test().click();
    await expect(settings.result()).toHaveAttribute('data-status', 'unauthorized');
    await expect(settings.result()).toContainText(`401: the key was refused by ${server.baseURL}`);

    await settings.key().fill(KEY);
    await settings.saveKey().click();
    await expect(settings.result()).toHaveCount(0);
    await expect(settings.listHint()).toHaveAttribute('data-count', '3');
    await expect(settings.modelOptions()).toHaveCount(3);
    await settings.commit(settings.model(), 'qwen3:8b');
    await settings.test().click();
    await expect(settings.result()).toHaveAttribute('data-status', 'connected');
    await expect(settings.result()).toContainText(
      `Connected to ${server.baseURL}: 3 models, including qwen3:8b.`,
    );
    // The routing arbiter is off until asked for: it costs a request on unsure messages.
    await expect(settings.arbiter()).not.toBeChecked();
    await settings.arbiter().click();
    await expect(settings.arbiter()).toBeChecked();
    await expect
      .poll(
        () => JSON.parse(fs.readFileSync(path.join(workspace.home, 'settings.json'), 'utf8')).model.arbiter,
      )
      .toBe(true);
    await settings.shoot(testInfo, 'model-connected');
    await settings.shoot(testInfo, 'settings-page', true);
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);

    await settings.commit(settings.model(), 'gpt-oss');
    await settings.test().click();
    await expect(settings.result()).toContainText('but gpt-oss is not among them');
    await settings.shoot(testInfo, 'model-missing');

    // After a reload the key is still there and still never shown.
    await page.reload();
    await expect(settings.keyState()).toContainText('Key stored in a file only you can read (mode 0600)');
    await expect(settings.key()).toHaveValue('');
    expect(await page.content()).not.toContain(KEY);
    expect(received.length).toBeGreaterThan(0);
    expect(received.filter((frame) => frame.includes(KEY))).toEqual([]);
    expect(fs.statSync(path.join(workspace.home, 'secrets.json')).mode & 0o777).toBe(0o600);

    await settings.clearKey().click();
    await expect(settings.keyState()).toHaveCount(0);
  } finally {
    await server.close();
  }
});

test('says clearly when nothing answers at the base URL', async ({ page, workspace }, testInfo) => {
  // A port that was free a moment ago: connecting to it is refused at once.
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const baseURL = `http://127.0.0.1:${(probe.address() as net.AddressInfo).port}/v1`;
  await new Promise((resolve) => probe.close(resolve));
  const settings = new ModelSettingsPage(page);
  await settings.open(workspace.url);
  await settings.provider().selectOption('openai-compatible');
  await settings.commit(settings.baseURL(), baseURL);
  await settings.commit(settings.model(), 'llama3');
  await expect(settings.listHint()).toContainText(`Could not reach ${baseURL}: connection refused.`);
  await settings.test().click();
  await expect(settings.result()).toHaveAttribute('data-status', 'unreachable');
  await expect(settings.result()).toContainText(`Could not reach ${baseURL}: connection refused.`);
  await settings.shoot(testInfo, 'model-unreachable');
});

test('in a small window the model fields keep room for what they hold', async ({
  page,
  workspace,
}, testInfo) => {
  await page.setViewportSize({ width: 900, height: 600 });
  const settings = new ModelSettingsPage(page);
  await settings.open(workspace.url);
  await settings.provider().selectOption('openai-compatible');
  await expect(settings.baseURL()).toBeVisible();
  await fitsWindow(page, settings.card());
  // The chosen provider's name is read whole: the select is wider than its text and its arrow.
  const room = await settings.provider().evaluate((select: HTMLSelectElement) => {
    const probe = document.createElement('span');
    probe.style.font = getComputedStyle(select).font;
    probe.style.whiteSpace = 'pre';
    probe.textContent = select.selectedOptions[0]?.textContent ?? '';
    document.body.append(probe);
    const text = probe.getBoundingClientRect().width;
    probe.remove();
    return select.clientWidth - text;
  });
  expect(room).toBeGreaterThanOrEqual(36);
  await settings.shoot(testInfo, 'model-small-window');
});

test('sets how long a model may stay silent, in whole seconds from 10 to 300', async ({
  page,
  workspace,
}, testInfo) => {
  const server = await startModelServer({ models: ['qwen3:8b'] });
  const saved = () =>
    JSON.parse(fs.readFileSync(path.join(workspace.home, 'settings.json'), 'utf8')).model
      .stallSeconds as number;
  try {
    const settings = new ModelSettingsPage(page);
    await settings.open(workspace.url);
    await settings.provider().selectOption('openai-compatible');
    await settings.commit(settings.baseURL(), server.baseURL);
    await expect(settings.stall()).toHaveValue('90');
    await expect(page.getByText('Silence limit')).toBeVisible();

    // Out of range: said next to the field, and nothing is saved.
    await settings.commit(settings.stall(), '5');
    await expect(settings.stallError()).toHaveText('Enter whole seconds from 10 to 300.');
    await expect(settings.stall()).toHaveAttribute('aria-invalid', 'true');
    await settings.shoot(testInfo, 'model-stall-invalid');
    expect(saved()).toBe(90);

    await settings.commit(settings.stall(), '240');
    await expect(settings.stallError()).toHaveCount(0);
    await expect.poll(saved).toBe(240);
    await settings.shoot(testInfo, 'model-stall');
    await page.reload();
    await expect(settings.stall()).toHaveValue('240');
    await expect(settings.stallEnv()).toHaveCount(0);
  } finally {
    await server.close();
  }
});

const envTest = test.extend<{ modelServer: ModelServer }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern.
  modelServer: async ({}, use) => {
    const server = await startModelServer({ apiKey: ENV_KEY, models: ['env-model'] });
    await use(server);
    await server.close();
  },
  serverEnv: async ({ modelServer }, use) =>
    use({
      OPENAI_BASE_URL: modelServer.baseURL,
      OPENAI_API_KEY: ENV_KEY,
      SKILLDECK_MODEL: 'env-model',
      SKILLDECK_MODEL_STALL_SECONDS: '120',
    }),
});

envTest(
  'shows a model the environment configures, with its key used but never stored',
  async ({ page, workspace, modelServer }, testInfo) => {
    const received = framesFromEngine(page);
    const settings = new ModelSettingsPage(page);
    await settings.open(workspace.url);
    await expect(settings.envNote()).toContainText(`OPENAI_BASE_URL ${modelServer.baseURL}`);
    await expect(settings.envNote()).toContainText('SKILLDECK_MODEL env-model');
    await expect(settings.provider()).toHaveValue('');
    await expect(settings.keyState()).toHaveAttribute('data-source', 'env');
    await expect(settings.keyState()).toContainText('From OPENAI_API_KEY');
    // The environment's stall limit wins over the field, which says so instead of taking input.
    await expect(settings.stall()).toHaveValue('120');
    await expect(settings.stall()).toBeDisabled();
    await expect(settings.stallEnv()).toContainText('Set by SKILLDECK_MODEL_STALL_SECONDS');
    await settings.test().click();
    await expect(settings.result()).toContainText(
      `Connected to ${modelServer.baseURL}: 1 model, including env-model.`,
    );
    await settings.shoot(testInfo, 'model-env');
    expect(received.filter((frame) => frame.includes(ENV_KEY))).toEqual([]);
    expect(fs.existsSync(path.join(workspace.home, 'secrets.json'))).toBe(false);
  },
);
