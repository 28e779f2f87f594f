import type { Page, TestInfo } from '@playwright/test';

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
