import { expect, type Page, type TestInfo } from '@playwright/test';

/** Locators and actions of Settings → Model (page module). */
export class ModelSettingsPage {
  constructor(readonly page: Page) {}

  async open(url: string) {
    await this.page.goto(`${url}#settings`);
    await expect(this.page.locator('html[data-app-state="ready"]')).toBeAttached();
    await expect(this.card()).toBeVisible();
  }

  card = () => this.page.getByTestId('model-settings');
  provider = () => this.page.getByTestId('model-provider');
  baseURL = () => this.page.getByTestId('model-base-url');
  preset = (name: string) =>
    this.page.locator(`[data-testid="model-base-url-preset"][data-preset="${name}"]`);
  model = () => this.page.getByTestId('model-id');
  modelOptions = () => this.page.locator('[data-testid="model-options"] option');
  listHint = () => this.page.getByTestId('model-list-hint');
  key = () => this.page.getByTestId('model-key');
  saveKey = () => this.page.getByTestId('model-key-save');
  keyState = () => this.page.getByTestId('model-key-state');
  clearKey = () => this.page.getByTestId('model-key-clear');
  test = () => this.page.getByTestId('model-test');
  result = () => this.page.getByTestId('model-test-result');
  problem = () => this.page.getByTestId('model-problem');
  envNote = () => this.page.getByTestId('model-env-note');
  arbiter = () => this.page.getByTestId('model-arbiter');
  stall = () => this.page.getByTestId('model-stall');
  stallError = () => this.page.getByTestId('model-stall-error');
  stallEnv = () => this.page.getByTestId('model-stall-env');

  /** Types into a commit-on-Enter field and commits. */
  async commit(locator: ReturnType<Page['getByTestId']>, value: string) {
    await locator.fill(value);
    await locator.press('Enter');
  }

  /** The Model card (or the whole page) in the light and the dark scheme. */
  async shoot(testInfo: TestInfo, name: string, whole = false) {
    for (const scheme of ['light', 'dark'] as const) {
      await this.page.emulateMedia({ colorScheme: scheme });
      const file = testInfo.outputPath(`${name}-${scheme}.png`);
      await (whole ? this.page.locator('body') : this.card()).screenshot({ path: file });
      await testInfo.attach(`${name}-${scheme}`, { path: file, contentType: 'image/png' });
    }
    await this.page.emulateMedia({ colorScheme: 'light' });
  }
}
