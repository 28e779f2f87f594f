import type { Page } from '@playwright/test';

/** Locators of workspace trust: the banner and Settings → Workspaces (STYLE: page modules). */
export class WorkspacePage {
  constructor(readonly page: Page) {}

  banner = () => this.page.getByTestId('trust-banner');
  bannerPath = () => this.page.getByTestId('trust-banner-path');
  trust = () => this.page.getByTestId('trust-folder');
  review = () => this.page.getByTestId('trust-review');
  trustedFolder = (folder: string) =>
    this.page.locator(`[data-testid="trusted-folder"][data-path="${folder}"]`);
}
