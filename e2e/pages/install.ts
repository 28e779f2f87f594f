import { expect, type Page, type TestInfo } from '@playwright/test';

/** Locators and actions of the Install dialog, remove and undo (STYLE: page modules for locators). */
export class InstallDialog {
  constructor(readonly page: Page) {}

  dialog = () => this.page.getByTestId('install-dialog');
  preview = () => this.page.getByTestId('install-preview');
  capabilities = () => this.page.getByTestId('install-capabilities');
  instructions = () => this.page.getByTestId('install-instructions');
  findings = () => this.page.getByTestId('instruction-finding');
  acceptDanger = () => this.page.getByTestId('instructions-accept');
  candidate = (name: string) =>
    this.page.locator(`[data-testid="install-candidate"][data-skill-name="${name}"]`);
  files = () => this.page.getByTestId('install-file');
  conflict = () => this.page.getByTestId('install-conflict');
  confirm = () => this.page.getByTestId('install-confirm');
  result = () => this.page.getByTestId('install-result');
  resultLink = (name: string) =>
    this.page.locator(`[data-testid="install-result-link"][data-skill-name="${name}"]`);
  error = () => this.page.getByTestId('install-error');
  toast = () => this.page.getByTestId('toast');

  async open() {
    await this.page.getByTestId('install-open').click();
    await expect(this.dialog()).toBeVisible();
  }

  /** Opens the dialog, fills the source and waits for the preview. */
  async previewFolder(path: string) {
    await this.open();
    await this.page.getByTestId('install-tab-folder').click();
    await this.page.getByTestId('install-folder').fill(path);
    await this.page.getByTestId('install-preview-button').click();
    await expect(this.preview()).toBeVisible();
  }

  async previewArchive(path: string) {
    await this.open();
    await this.page.getByTestId('install-tab-archive').click();
    await this.page.getByTestId('install-archive').fill(path);
    await this.page.getByTestId('install-preview-button').click();
    await expect(this.preview()).toBeVisible();
  }

  async install() {
    await this.confirm().click();
    await expect(this.result()).toBeVisible();
  }

  async remove() {
    await this.page.getByTestId('skill-remove').click();
    await this.page.getByTestId('remove-confirm').click();
    await expect(this.page.getByTestId('remove-dialog')).toHaveCount(0);
  }

  async shoot(testInfo: TestInfo, name: string) {
    const file = testInfo.outputPath(`${name}.png`);
    await this.page.screenshot({ path: file });
    await testInfo.attach(name, { path: file, contentType: 'image/png' });
  }
}
