import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';

/** Locators and actions of the Run tab, the Runs view and the approval dialog (STYLE: page modules). */
export class RunsPage {
  constructor(readonly page: Page) {}

  dialog = () => this.page.getByTestId('approval-dialog');
  request = () => this.page.getByTestId('approval-body');
  command = () => this.page.getByTestId('approval-command');
  cwd = () => this.page.getByTestId('approval-cwd');
  writes = () => this.page.getByTestId('approval-writes');
  reads = () => this.page.getByTestId('approval-reads');
  sandbox = () => this.page.getByTestId('approval-sandbox');
  countdown = () => this.page.getByTestId('approval-countdown');
  deny = () => this.page.getByTestId('approval-deny');
  reason = () => this.page.getByTestId('approval-reason');
  allowOnce = () => this.page.getByTestId('approval-allow-once');
  allowAlways = () => this.page.getByTestId('approval-allow-always');
  pill = () => this.page.getByTestId('approval-pill');

  /** The run shown under the Run tab's form (the one started last from there). */
  tabRun = () => this.page.getByTestId('run-tab').getByTestId('run-detail');
  timelineStates = () =>
    this.tabRun()
      .getByTestId('timeline-step')
      .evaluateAll((steps) => steps.map((s) => s.getAttribute('data-state') ?? ''));

  /** Opens the Run tab of the skill shown in the detail pane. */
  async openRunTab() {
    await this.page.getByTestId('skill-run-open').click();
    await expect(this.page.getByTestId('run-form')).toBeVisible();
  }

  /** Fills the task (and JSON input) and presses Run; resolves once the new run is on screen. */
  async start(task: string, input?: string) {
    const before = await this.tabRun()
      .getAttribute('data-run-id', { timeout: 100 })
      .catch(() => null);
    await this.page.getByTestId('run-task-input').fill(task);
    if (input !== undefined) await this.page.getByTestId('run-input').fill(input);
    await this.page.getByTestId('run-start').click();
    await expect(this.tabRun()).toBeVisible();
    if (before) await expect(this.tabRun()).not.toHaveAttribute('data-run-id', before);
  }

  /**
   * The whole window, or one element whole: the window grows for the shot, since a run's
   * detail is taller than a laptop screen and an element shot clips to the viewport.
   */
  async shoot(testInfo: TestInfo, name: string, element?: Locator) {
    const file = testInfo.outputPath(`${name}.png`);
    const size = this.page.viewportSize();
    if (element && size) await this.page.setViewportSize({ width: size.width, height: 1600 });
    await (element ?? this.page).screenshot({ path: file, animations: 'disabled' });
    if (element && size) await this.page.setViewportSize(size);
    await testInfo.attach(name, { path: file, contentType: 'image/png' });
  }
}
