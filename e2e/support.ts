import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';

/** Console errors and page errors fail the test: the app must never cause them. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

/** The same screen in light and dark, attached to the report to be looked at. */
export async function shots(page: Page, testInfo: TestInfo, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const file = testInfo.outputPath(`${name}-${scheme}.png`);
    await page.screenshot({ path: file });
    await testInfo.attach(`${name}-${scheme}`, { path: file, contentType: 'image/png' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * Nothing pokes out of the window sideways: the page does not scroll horizontally and each
 * element given ends inside the viewport (the Electron window may be as small as 720×480).
 */
export async function fitsWindow(page: Page, ...elements: Locator[]) {
  const width = page.viewportSize()?.width ?? 0;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  for (const element of elements) {
    const box = await element.boundingBox();
    expect(box ? box.x + box.width : Infinity).toBeLessThanOrEqual(width);
  }
}
