import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat';
import { SkillsPage } from './pages/skills';
import { shots, watchConsole } from './support';

// Users' ask #13: one-click installs of what a skill needs, from its own install entries. A real
// npm installs a real tarball into this spec's own npm prefix, which is on the server's PATH.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldeck-e2e-deps-'));
const prefix = path.join(root, 'prefix');
const bin = 'desk-lamp-cli';
const tarball = path.join(root, 'pkg', `${bin}-1.0.0.tgz`);

const LAMP = {
  'desk-lamp/SKILL.md': `---
name: desk-lamp
description: Switch the desk lamp on and off and set its brightness.
metadata:
  { "openclaw": { "requires": { "bins": ["${bin}"] },
      "install": [{ "kind": "node", "package": "${tarball}", "bins": ["${bin}"], "label": "Install the lamp CLI (npm)" },
                  { "kind": "apt", "package": "${bin}", "bins": ["${bin}"] }] } }
---
Run \`${bin} on\` or \`${bin} off\`.
`,
};

test.beforeAll(() => {
  const pkg = path.join(root, 'pkg');
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(
    path.join(pkg, 'package.json'),
    JSON.stringify({ name: bin, version: '1.0.0', bin: { [bin]: 'run.js' } }),
  );
  fs.writeFileSync(path.join(pkg, 'run.js'), '#!/usr/bin/env node\nconsole.log("lamp ok");\n');
  execFileSync('npm', ['pack', '--silent'], { cwd: pkg, stdio: 'ignore' });
});
test.afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

test.describe('installing what a skill needs', () => {
  test.use({
    seedFiles: LAMP,
    serverEnv: {
      npm_config_prefix: prefix,
      npm_config_cache: path.join(root, 'npm-cache'),
      PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH}`,
    },
  });

  test('the Availability tab installs it after a confirmation, and the skill becomes available', async ({
    page,
    workspace,
  }, testInfo) => {
    const problems = watchConsole(page);
    const skills = new SkillsPage(page);
    await skills.openSkill(workspace.url, 'desk-lamp', 'availability');
    const reason = page.locator('[data-testid="diagnosis-reason"][data-code="missing-bin"]');
    const hints = reason.getByTestId('install-hints');
    await expect(hints).toContainText(`npm install -g ${tarball}`);
    await expect(hints).toContainText(`sudo apt install ${bin}`);
    // Only the npm line can be run from here; apt needs sudo and stays a line to copy.
    await expect(hints.getByTestId('install-dependency')).toHaveCount(1);

    await hints.getByTestId('install-dependency').click();
    await expect(hints).toContainText('outside the sandbox');
    await hints.getByTestId('install-dependency-confirm').scrollIntoViewIfNeeded();
    await shots(page, testInfo, 'dependency-confirm');
    expect(fs.existsSync(path.join(prefix, 'bin', bin))).toBe(false);

    await hints.getByTestId('install-dependency-confirm').click();
    const result = page.getByTestId('install-dependency-result');
    await expect(result).toHaveAttribute('data-ok', 'true', { timeout: 60_000 });
    await expect(result).toContainText('desk-lamp has what it needs');
    expect(fs.existsSync(path.join(prefix, 'bin', bin))).toBe(true);
    await shots(page, testInfo, 'dependency-installed');
    // The engine said the skill changed: the tab asks again, and nothing is missing any more.
    await expect(page.locator('[data-testid="diagnosis-reason"][data-code="missing-bin"]')).toHaveCount(0);

    // The router sees it at once: the live score panel no longer says it cannot run.
    const chat = new ChatPage(page);
    await chat.open(workspace.url);
    await chat.composer().fill('turn the desk lamp on');
    const row = page.locator('[data-testid="candidate"][data-skill-name="desk-lamp"]');
    await expect(row).toBeVisible();
    await expect(row).not.toHaveAttribute('data-status', 'unavailable');
    expect(problems).toEqual([]);
  });
});

// A brew install takes minutes: what it prints shows while it runs. A stand-in Homebrew on the
// server's PATH prints a line, waits, then prints the rest and puts the program in place.
const brewDir = path.join(root, 'brew-bin');
const KETTLE = {
  'kettle/SKILL.md': `---
name: kettle
description: Boil the smart kettle and keep the water warm.
metadata:
  { "openclaw": { "requires": { "bins": ["kettle-cli"] },
      "install": [{ "kind": "brew", "formula": "example/tap/kettle-cli", "bins": ["kettle-cli"] }] } }
---
Run \`kettle-cli boil\`.
`,
};

test.describe('a long install', () => {
  test.beforeAll(() => {
    fs.mkdirSync(brewDir, { recursive: true });
    const brew = path.join(brewDir, 'brew');
    fs.writeFileSync(
      brew,
      [
        '#!/bin/sh',
        'echo "==> Fetching $2"',
        "printf '==> Downloading  40%%\\r'",
        'sleep 4',
        "printf '==> Downloading 100%%\\n==> Pouring kettle-cli\\n'",
        `printf '#!/bin/sh\\necho boiled\\n' > "${brewDir}/kettle-cli" && chmod +x "${brewDir}/kettle-cli"`,
        'echo "==> Installed"',
      ].join('\n'),
    );
    fs.chmodSync(brew, 0o755);
  });
  test.use({ seedFiles: KETTLE, serverEnv: { PATH: `${brewDir}${path.delimiter}${process.env.PATH}` } });

  test('shows what the installer prints while it runs', async ({ page, workspace }, testInfo) => {
    const problems = watchConsole(page);
    await new SkillsPage(page).openSkill(workspace.url, 'kettle', 'availability');
    const hints = page.getByTestId('install-hints');
    await hints.getByTestId('install-dependency').click();
    await hints.getByTestId('install-dependency-confirm').click();
    // Still running, and the first lines are there already.
    await expect(hints.getByTestId('install-dependency-running')).toBeVisible();
    const live = hints.getByTestId('install-dependency-live');
    await expect(live).toContainText('==> Fetching example/tap/kettle-cli');
    await expect(live).toContainText('Downloading  40%');
    await expect(hints.getByTestId('install-dependency-running')).toBeVisible();
    await shots(page, testInfo, 'dependency-running');
    const result = page.getByTestId('install-dependency-result');
    await expect(result).toHaveAttribute('data-ok', 'true', { timeout: 30_000 });
    await expect(result).toContainText('kettle has what it needs');
    expect(problems).toEqual([]);
  });
});
