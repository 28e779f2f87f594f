// Which Chromium the e2e suite drives, in order: $CHROMIUM_PATH, Debian's /usr/bin/chromium,
// a Chromium installed by Playwright. `npx playwright install` cannot download here, so the
// Debian package (`apt-get install chromium`) is the usual answer.
import fs from 'node:fs';
import { chromium } from 'playwright-core';

export const HOW_TO_GET_ONE =
  "No Chromium for the e2e tests: install Debian's (`sudo apt-get install chromium`), or set CHROMIUM_PATH to a Chromium binary, or run `npx playwright install chromium` where downloads work.";

export function findBrowser() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  try {
    candidates.push(chromium.executablePath());
  } catch {
    // playwright-core throws when it has no browser of its own
  }
  return candidates.find((file) => file && fs.existsSync(file)) ?? null;
}
