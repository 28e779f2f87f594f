import { _electron as electron, expect, test } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The Electron binary cannot be downloaded on our build machines; where one exists
// (ELECTRON_OVERRIDE_DIST_PATH, or a completed `electron` download) this runs the real app.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function electronBinary(): string | null {
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const candidates = override
    ? [
        path.join(override, 'electron'),
        path.join(override, 'Electron.app/Contents/MacOS/Electron'),
        path.join(override, 'electron.exe'),
      ]
    : [];
  try {
    const pathFile = path.join(repoRoot, 'node_modules', 'electron', 'path.txt');
    candidates.push(
      path.join(repoRoot, 'node_modules', 'electron', 'dist', fs.readFileSync(pathFile, 'utf8').trim()),
    );
  } catch {
    // no completed download
  }
  return candidates.find((file) => fs.existsSync(file)) ?? null;
}

const binary = electronBinary();

test('the desktop app opens its window, reaches ready and lists the bundled skills', async () => {
  test.skip(!binary, 'No Electron binary here (set ELECTRON_OVERRIDE_DIST_PATH to run this spec).');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldeck-electron-'));
  const app = await electron.launch({
    executablePath: binary!,
    args: [path.join(repoRoot, 'dist', 'electron', 'main.cjs'), '--no-sandbox'],
    env: { ...process.env, SKILLDECK_HOME: path.join(root, 'home'), HOME: root, SKILLDECK_WORKSPACE: root },
  });
  try {
    const window = await app.firstWindow();
    await expect(window.locator('html[data-app-state="ready"]')).toBeAttached({ timeout: 30_000 });
    await expect(window.getByTestId('skill-row').first()).toBeVisible();
    // Runs over IPC: the Runs view loads (empty in a fresh home).
    await window.getByTestId('nav-runs').click();
    await expect(window.getByTestId('runs-empty')).toBeVisible();
    const exposed = await window.evaluate(() =>
      Object.keys((window as unknown as { skilldeck: object }).skilldeck),
    );
    expect(exposed.sort()).toEqual(['invoke', 'on']);
    const nodeVisible = await window.evaluate(() => typeof (globalThis as { require?: unknown }).require);
    expect(nodeVisible).toBe('undefined');
  } finally {
    await app.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
