import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';

/** Locators and actions of the repair offer, the review view and a skill's repair history (page module). */
export class RepairPage {
  constructor(readonly page: Page) {}

  // On a failed run
  offer = (scope: Locator | Page = this.page) => scope.getByTestId('repair-offer');
  reason = (scope: Locator | Page = this.page) => scope.getByTestId('repair-reason');
  repairButton = (scope: Locator | Page = this.page) => scope.getByTestId('repair-start');
  steps = (scope: Locator | Page = this.page) => scope.getByTestId('repair-step');

  // The review view
  view = () => this.page.getByTestId('repair-page');
  review = () => this.page.getByTestId('repair-review');
  record = () => this.page.getByTestId('repair-record');
  rootCause = () => this.page.getByTestId('record-root-cause');
  budget = () => this.page.getByTestId('record-budget');
  replay = () => this.page.getByTestId('replay-result');
  replaySummary = () => this.page.getByTestId('replay-summary');
  replayOutput = () => this.page.getByTestId('replay-output');
  hunks = () => this.page.getByTestId('hunk');
  hunk = (index: number) => this.page.locator(`[data-testid="hunk"][data-index="${index}"]`);
  hunkCount = () => this.page.getByTestId('hunk-count');
  fileTabs = () => this.page.getByTestId('review-file-tab');
  fileTab = (path: string) => this.page.locator(`[data-testid="review-file-tab"][data-path="${path}"]`);
  diffPane = () => this.page.getByTestId('diff-pane');
  /**
   * Monaco's right-hand (proposed) side, as rendered: its own lines only, not the view zones
   * (a diff editor that lays out before its box has a width starts inline, with deleted lines
   * drawn as zones on the right, then switches to side by side).
   */
  proposedSide = () => this.diffPane().locator('.editor.modified .lines-content > .view-lines');
  originalSide = () => this.diffPane().locator('.editor.original .lines-content > .view-lines');
  /**
   * How far the widest line on the left (original) side runs past its editor, in px: with
   * word wrap on, 0; a positive value means text is hidden under the right side.
   */
  originalOverflow = () =>
    this.diffPane()
      .locator('.editor.original')
      .evaluate((editor) => {
        const right = editor.getBoundingClientRect().right;
        const lines = Array.from(editor.querySelectorAll('.view-lines .view-line > span'));
        return Math.max(0, ...lines.map((line) => Math.round(line.getBoundingClientRect().right - right)));
      });
  unreplayed = () => this.page.getByTestId('review-unreplayed');
  applies = () => this.page.getByTestId('review-applies');
  apply = () => this.page.getByTestId('review-apply');
  recheck = () => this.page.getByTestId('review-recheck');
  reject = () => this.page.getByTestId('review-reject');
  applyResult = () => this.page.getByTestId('apply-result');
  retry = () => this.page.getByTestId('retry-result');
  retryOutput = () => this.page.getByTestId('retry-output');

  // A skill's Repairs tab
  historyTab = () => this.page.getByTestId('detail-tab-history');
  revisions = () => this.page.getByTestId('revision');

  /**
   * Answers the approval dialog with "allow once": every run of an `approval: ask` skill asks,
   * the replays and the retry too. Resolves once the dialog is gone or shows the next request.
   */
  async allowOnce() {
    const request = this.page.getByTestId('approval-body');
    await expect(this.page.getByTestId('approval-dialog')).toBeVisible();
    const asked = await request.getAttribute('data-run-id');
    await this.page.getByTestId('approval-allow-once').click();
    await expect
      .poll(() =>
        request.evaluateAll((els, id) => els.every((e) => e.getAttribute('data-run-id') !== id), asked),
      )
      .toBe(true);
  }

  /**
   * The window, or one element whole, in light and dark (a page without Monaco on it). For an
   * element the window grows, since an element shot clips to the viewport.
   */
  async shootPage(testInfo: TestInfo, name: string, element?: Locator) {
    const size = this.page.viewportSize();
    if (element && size) await this.page.setViewportSize({ width: size.width, height: 1600 });
    for (const scheme of ['light', 'dark'] as const) {
      await this.page.emulateMedia({ colorScheme: scheme });
      const file = testInfo.outputPath(`${name}-${scheme}.png`);
      await (element ?? this.page).screenshot({ path: file, animations: 'disabled' });
      await testInfo.attach(`${name}-${scheme}`, { path: file, contentType: 'image/png' });
    }
    await this.page.emulateMedia({ colorScheme: 'light' });
    if (element && size) await this.page.setViewportSize(size);
  }

  /** The file shown in the diff has loaded in Monaco, both sides drawn. */
  async diffReady(path: string) {
    await expect(this.diffPane()).toHaveAttribute('data-path', path);
    // The first diff parses Monaco's bundle: on a loaded 2-core machine that once took over 10 s.
    await expect(this.diffPane().locator('.monaco-diff-editor')).toBeVisible({ timeout: 30_000 });
    await expect(this.proposedSide()).not.toBeEmpty();
  }

  /**
   * The review in light and dark, attached to the report to be looked at. The window grows
   * for the shot so the actions under the diff are in it too.
   */
  async shoot(testInfo: TestInfo, name: string) {
    const size = this.page.viewportSize();
    if (size) await this.page.setViewportSize({ width: size.width, height: 1400 });
    for (const scheme of ['light', 'dark'] as const) {
      await this.page.emulateMedia({ colorScheme: scheme });
      // Monaco follows the scheme through its theme: wait until it has repainted.
      await expect(this.diffPane().locator('.monaco-editor').first()).toHaveClass(
        scheme === 'dark' ? /(^|\s)vs-dark(\s|$)/ : /(^|\s)vs(\s|$)/,
      );
      const file = testInfo.outputPath(`${name}-${scheme}.png`);
      await this.page.screenshot({ path: file, animations: 'disabled' });
      await testInfo.attach(`${name}-${scheme}`, { path: file, contentType: 'image/png' });
    }
    await this.page.emulateMedia({ colorScheme: 'light' });
    if (size) await this.page.setViewportSize(size);
  }
}
