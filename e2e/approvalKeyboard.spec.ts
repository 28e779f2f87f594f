import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat';
import { clippedText, watchConsole } from './support';

// The approval dialog with the keyboard only, as chat opens it: focus starts on Deny, Tab stays
// inside, Esc puts it aside, and when it closes the focus goes back where it was (the message
// box), never to the page's start.

const ECHO_NOTE = {
  'echo-note/SKILL.md': `---
name: echo-note
description: Echoes a short note back. Use when the user wants a note echoed.
---

# Echo note
`,
  'echo-note/skill.yaml': `spec:
  type: script
cost_hint: low
permissions:
  filesystem: { read: [], write: [] }
  network: { outbound: false }
  environment: { allow: [] }
execution_policy:
  sandbox: os
  approval: ask
  timeout: 20
entrypoints:
  - name: echo
    path: scripts/echo.mjs
    description: Prints the task.
`,
  'echo-note/scripts/echo.mjs': `console.log('Noted: ' + JSON.parse(process.env.INPUT_JSON ?? '{}').task);
`,
};

test.use({ seedFiles: ECHO_NOTE });

/** Whether the focus is on the page's body: lost, so the next Tab starts from the top. */
const focusLost = (page: Page) =>
  page.evaluate(() => document.activeElement === null || document.activeElement === document.body);

test('Esc puts the dialog aside and the focus goes back to the message box', async ({ page, workspace }) => {
  const problems = watchConsole(page);
  await page.setViewportSize({ width: 900, height: 800 });
  const chat = new ChatPage(page);
  await chat.open(workspace.url);
  await chat.composer().focus();
  await chat.composer().pressSequentially('$echo-note buy oat milk', { delay: 5 });
  await page.keyboard.press('Enter');
  await expect(chat.dialog()).toBeVisible();
  await expect(page.getByTestId('approval-deny')).toBeFocused();
  // Tab goes round inside the dialog.
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    expect(await chat.dialog().evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(chat.dialog()).toHaveCount(0);
  await expect(chat.composer()).toBeFocused();
  // The request still waits inline; answered there, the run goes on.
  await chat.approval().getByRole('button', { name: 'Allow once', exact: true }).click();
  await chat.finished('success');
  // What was allowed stays readable whole in the answered row, at 900 px too.
  await expect(chat.approval()).toHaveAttribute('data-status', 'allowed');
  await expect(chat.approval()).toContainText('scripts/echo.mjs');
  expect(await clippedText(chat.answer())).toEqual([]);
  expect(problems).toEqual([]);
});

test('answered from the dialog with Alt+O, the focus does not fall to the page start', async ({
  page,
  workspace,
}) => {
  const chat = new ChatPage(page);
  await chat.open(workspace.url);
  await chat.composer().focus();
  await chat.composer().pressSequentially('$echo-note buy bread', { delay: 5 });
  await page.keyboard.press('Enter');
  await expect(chat.dialog()).toBeVisible();
  await expect(page.getByTestId('approval-answers')).toHaveAttribute('data-armed', 'true');
  await page.keyboard.press('Alt+O');
  await expect(chat.dialog()).toHaveCount(0);
  await expect(chat.composer()).toBeFocused();
  await chat.finished('success');
});

test('reopened from the top bar and answered, the focus lands in the main view, not on the page start', async ({
  page,
  workspace,
}) => {
  const chat = new ChatPage(page);
  await chat.open(workspace.url);
  await chat.say('$echo-note buy rice');
  await expect(chat.dialog()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(chat.dialog()).toHaveCount(0);
  const pill = page.getByTestId('approval-pill');
  await pill.focus();
  await page.keyboard.press('Enter');
  await expect(chat.dialog()).toBeVisible();
  await expect(page.getByTestId('approval-deny')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(chat.dialog()).toHaveCount(0);
  await chat.finished('denied');
  // The pill went with the last request: the focus goes to the main view, where Tab goes on.
  await expect(pill).toHaveCount(0);
  expect(await focusLost(page)).toBe(false);
  expect(await page.evaluate(() => document.querySelector('main')?.contains(document.activeElement))).toBe(
    true,
  );
});
