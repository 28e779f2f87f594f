import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat';
import { SkillsPage } from './pages/skills';
import { fitsWindow, shots, watchConsole } from './support';

/** A script skill that asks before it runs and echoes its task: the approval flow without a model. */
const ECHO_NOTE = {
  'echo-note/SKILL.md': `---
name: echo-note
description: Echoes a short note back. Use when the user wants a note echoed.
---

# Echo note

Prints the task it was given.
`,
  'echo-note/skill.yaml': `spec:
  type: script
triggers:
  - echo a note
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
  'echo-note/scripts/echo.mjs': `const { task } = JSON.parse(process.env.INPUT_JSON ?? '{}');
console.log('Noted: ' + String(task).replace(/^\\$echo-note\\s*/, ''));
`,
  // Runs until stopped: what Esc and Stop are for.
  'slow-task/SKILL.md': `---
name: slow-task
description: Takes a long time on purpose. Use to try stopping a run.
---

# Slow task
`,
  'slow-task/skill.yaml': `spec:
  type: script
cost_hint: low
permissions:
  filesystem: { read: [], write: [] }
  network: { outbound: false }
  environment: { allow: [] }
execution_policy:
  sandbox: process
  approval: auto
  timeout: 60
entrypoints:
  - name: wait
    path: scripts/wait.mjs
    description: Waits.
`,
  'slow-task/scripts/wait.mjs': `console.log('started');
setTimeout(() => console.log('done'), 50_000);
`,
};

/** A skill whose program is not installed here, with the install entry OpenClaw skills carry. */
const HUE_LIGHTS = {
  'hue-lights/SKILL.md': `---
name: hue-lights
description: Control Philips Hue lights and scenes — dim, brighten, switch rooms on and off.
metadata:
  { "openclaw": { "requires": { "bins": ["hue-cli-not-installed"] },
      "install": [{ "id": "brew", "kind": "brew", "formula": "example/tap/hue-cli",
                    "bins": ["hue-cli-not-installed"], "label": "Install the Hue CLI (brew)" }] } }
---

# Hue lights

Use \`hue-cli-not-installed\` to set the brightness of a room.
`,
};

test.describe('a skill this machine cannot run', () => {
  test.use({ seedFiles: { ...ECHO_NOTE, ...HUE_LIGHTS } });

  test('a skill that fits but is not installed says what it needs and how to install it', async ({
    page,
    workspace,
  }, testInfo) => {
    const problems = watchConsole(page);
    const chat = new ChatPage(page);
    await chat.open(workspace.url);

    await chat.composer().fill('dim the hue lights in the living room');
    const row = page.locator('[data-testid="candidate"][data-skill-name="hue-lights"]');
    await expect(row).toHaveAttribute('data-status', 'unavailable');
    await expect(row.getByTestId('install-hints')).toContainText('brew install example/tap/hue-cli');
    await expect(row.getByTestId('install-hints')).toContainText('Install the Hue CLI (brew)');
    await shots(page, testInfo, 'route-unavailable-install');

    await chat.composer().press('Enter');
    await chat.finished('no_model');
    const notice = chat.lastTurn().getByTestId('no-model');
    await expect(notice).toContainText('hue-lights can’t run on this machine');
    await expect(notice).toContainText('brew install example/tap/hue-cli');
    await expect(notice).not.toContainText('**');
    await shots(page, testInfo, 'chat-skill-not-installed');

    // The skill's own "Why isn't it used?" says the same, with the same command.
    const skills = new SkillsPage(page);
    await skills.open(workspace.url);
    await skills.row('hue-lights').click();
    await skills.tab('availability').click();
    const reason = page.locator('[data-testid="diagnosis-reason"][data-code="missing-bin"]');
    await expect(reason.getByTestId('install-hints')).toContainText('brew install example/tap/hue-cli');
    await shots(page, testInfo, 'availability-install');
    expect(problems).toEqual([]);
  });
});

test.describe('without a model', () => {
  test.use({ seedFiles: ECHO_NOTE });

  test('plain chat says no model is configured and opens the model settings', async ({
    page,
    workspace,
  }, testInfo) => {
    const problems = watchConsole(page);
    const chat = new ChatPage(page);
    await chat.open(workspace.url);

    await chat.say('hello there, how are you today?');
    await chat.finished('no_model');
    await expect(chat.chip()).toHaveAttribute('data-skill-name', '');
    await expect(chat.chip()).toContainText('plain chat');
    const notice = chat.lastTurn().getByTestId('no-model');
    await expect(notice).toContainText('No model is configured');
    await expect(notice).toContainText('Settings → Model');
    // The conversation was created and named after its first message.
    await expect(chat.conversation('hello there, how are you today?')).toBeVisible();
    await shots(page, testInfo, 'chat-no-model');

    // An instruction skill needs a model too; script skills do not (the next test).
    await chat.say('$translate-zh-en hello world');
    await chat.finished('no_model');
    await expect(chat.lastTurn().getByTestId('no-model')).toContainText('This skill needs a model');

    await chat.lastTurn().getByTestId('open-model-settings').click();
    await expect(page).toHaveURL(/#settings\/model$/);
    await expect(page.getByTestId('model-settings')).toBeVisible();
    expect(problems).toEqual([]);
  });

  test('↑ in the empty message box edits the last message; sending or leaving the edit returns to the box', async ({
    page,
    workspace,
  }) => {
    const problems = watchConsole(page);
    const chat = new ChatPage(page);
    await chat.open(workspace.url);
    await chat.say('hello there, how are you?');
    await chat.finished('no_model');

    // Something typed is never thrown away: ↑ then only moves the caret.
    await chat.composer().fill('draft');
    await chat.composer().press('ArrowUp');
    await expect(page.getByTestId('edit-input')).toHaveCount(0);
    await chat.composer().fill('');

    await chat.composer().press('ArrowUp');
    const editor = chat.lastTurn().getByTestId('edit-input');
    await expect(editor).toBeFocused();
    await expect(editor).toHaveValue('hello there, how are you?');
    await editor.press('Escape');
    await expect(editor).toHaveCount(0);
    await expect(chat.composer()).toBeFocused();

    await chat.composer().press('ArrowUp');
    await page.keyboard.press('End');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(' doing today?');
    await page.keyboard.press('Enter');
    await expect(chat.lastTurn().getByTestId('user-message')).toContainText('how are you doing today?');
    await expect(chat.turns()).toHaveCount(1);
    await expect(chat.composer()).toBeFocused();
    await chat.finished('no_model');
    expect(problems).toEqual([]);
  });

  test('a conversation of hundreds of messages opens with its newest, and earlier ones load above without moving the view', async ({
    page,
    workspace,
  }) => {
    const problems = watchConsole(page);
    const chat = new ChatPage(page);
    await chat.open(workspace.url);
    await chat.say('message number 0');
    await chat.finished('no_model');
    // The same turn 300 times over, as a long-used conversation holds them (chats/<id>.jsonl).
    const dir = path.join(workspace.home, 'chats');
    const log = path.join(dir, fs.readdirSync(dir).find((f) => f.endsWith('.jsonl')) ?? '');
    const first = JSON.parse(fs.readFileSync(log, 'utf8').split('\n')[0]) as {
      turn: { turn_id: string; message: string };
    };
    const lines = Array.from({ length: 300 }, (_, i) =>
      JSON.stringify({
        ...first,
        turn: { ...first.turn, turn_id: `t-${i}`, message: `message number ${i}` },
      }),
    );
    fs.writeFileSync(log, `${lines.join('\n')}\n`);
    await page.reload();
    await chat.ready();

    await expect(chat.lastTurn().getByTestId('user-message')).toContainText('message number 299');
    await expect(chat.turns()).toHaveCount(30);
    const earlier = page.getByTestId('show-earlier');
    await expect(earlier).toContainText('270 not shown');
    // The reader goes up to the oldest shown message and asks for more: it stays where it was.
    const oldest = chat.turns().first();
    await expect(oldest).toContainText('message number 270');
    await earlier.scrollIntoViewIfNeeded();
    const before = await oldest.boundingBox();
    await earlier.click();
    await expect(chat.turns()).toHaveCount(60);
    const same = chat.turns().filter({ hasText: 'message number 270' });
    expect((await same.boundingBox())?.y).toBeCloseTo(before?.y ?? -1, -1);
    expect(problems).toEqual([]);
  });

  test('a script skill asks inline, runs after Allow, and the conversation survives a reload', async ({
    page,
    workspace,
  }, testInfo) => {
    const problems = watchConsole(page);
    const chat = new ChatPage(page);
    await chat.open(workspace.url);

    // `$` completes skill names from the keyboard.
    await chat.composer().pressSequentially('$echo-n', { delay: 10 });
    await expect(chat.suggestions().first()).toHaveAttribute('data-skill-name', 'echo-note');
    await shots(page, testInfo, 'chat-autocomplete');
    await chat.composer().press('Enter');
    await expect(chat.composer()).toHaveValue('$echo-note ');
    await chat.composer().pressSequentially('buy oat milk', { delay: 5 });
    await chat.composer().press('Enter');

    await expect(chat.chip()).toHaveAttribute('data-skill-name', 'echo-note');
    const approval = chat.approval();
    await expect(approval).toHaveAttribute('data-status', 'waiting');
    await expect(approval.getByTestId('chat-approval-command')).toContainText('echo.mjs');
    await expect(approval.getByTestId('sandbox-tier')).toBeVisible();
    // The approval dialog asks too; put aside, the request still waits inline, answered there.
    await expect(chat.dialog()).toBeVisible();
    await shots(page, testInfo, 'chat-approval-dialog');
    await page.keyboard.press('Escape');
    await expect(chat.dialog()).toHaveCount(0);
    await shots(page, testInfo, 'chat-approval');
    await approval.getByTestId('chat-approval-allow').click();
    await chat.finished('success');
    await expect(chat.approval()).toHaveAttribute('data-status', 'allowed');
    const run = chat.lastTurn().locator('[data-testid="tool-card"][data-kind="run"]');
    await expect(run).toHaveAttribute('data-status', 'success');
    await expect(run.getByTestId('sandbox-tier')).toBeVisible();
    await expect(chat.answerText()).toContainText('Noted: buy oat milk');

    // A sent message's route replaces the emptied preview; its chip toggles it.
    const routeId = await chat.chip().getAttribute('data-route-id');
    await expect(chat.scorePanel()).toHaveAttribute('data-state', 'recorded');
    await expect(chat.scorePanel()).toHaveAttribute('data-route-id', routeId ?? '');
    await chat.chip().click();
    await expect(chat.scorePanel()).toHaveAttribute('data-state', 'empty');
    await chat.chip().click();
    await expect(chat.chip()).toHaveAttribute('aria-pressed', 'true');
    await expect(chat.scorePanel()).toHaveAttribute('data-query', '$echo-note buy oat milk');
    await expect(page.getByTestId('plan-primary')).toHaveAttribute('data-skill-name', 'echo-note');
    await shots(page, testInfo, 'chat-script-answer');

    await page.reload();
    await chat.ready();
    await expect(chat.activeConversation()).toHaveAttribute('data-title', '$echo-note buy oat milk');
    await expect(chat.answerText()).toContainText('Noted: buy oat milk');
    await expect(chat.approval()).toHaveAttribute('data-status', 'allowed');

    // The run card leads to the run in the Runs view.
    await run.getByTestId('tool-run-link').click();
    await expect(page).toHaveURL(/#runs$/);
    await expect(page.getByTestId('run-detail')).toHaveAttribute('data-run-id', /.+/);
    await expect(page.getByTestId('run-task')).toContainText('buy oat milk');
    expect(problems).toEqual([]);
  });

  test('the inline approval card and the dialog ask the same question with the same answers', async ({
    page,
    workspace,
  }, testInfo) => {
    const problems = watchConsole(page);
    const chat = new ChatPage(page);
    await chat.open(workspace.url);
    await chat.say('$echo-note buy oat milk');
    const card = chat.approval();
    await expect(card).toHaveAttribute('data-status', 'waiting');
    await expect(chat.dialog()).toBeVisible();
    await shots(page, testInfo, 'approval-wording-dialog');

    const question = 'Allow echo-note to run this command?';
    await expect(chat.dialog().getByRole('heading', { level: 2 })).toHaveText(question);
    await expect(card.getByTestId('approval-question')).toHaveText(question);
    await expect(page.getByRole('group', { name: 'Approval needed for echo-note' })).toBeVisible();
    for (const name of ['Deny', 'Allow once', 'Always allow this skill']) {
      await expect(chat.dialog().getByRole('button', { name, exact: true })).toBeVisible();
      await expect(card.getByRole('button', { name, exact: true })).toBeVisible();
    }
    // The same headings over why it asks and what the skill declares.
    for (const heading of ['Why you are asked', 'What it declares it will do']) {
      await expect(chat.dialog().getByText(heading, { exact: true })).toBeVisible();
      await expect(card.getByText(heading, { exact: true })).toBeVisible();
    }

    await page.keyboard.press('Escape');
    await expect(chat.dialog()).toHaveCount(0);
    await shots(page, testInfo, 'approval-wording-card');
    await card.getByRole('button', { name: 'Allow once', exact: true }).click();
    await chat.finished('success');
    // Answered, the card says it with the button's verb.
    await expect(card).toHaveAttribute('data-status', 'allowed');
    await expect(card.getByTestId('approval-outcome')).toHaveText('Allowed');
    await shots(page, testInfo, 'approval-wording-answered');
    expect(problems).toEqual([]);
  });

  test('Esc stops a running turn; conversations are searched, renamed and deleted', async ({
    page,
    workspace,
  }, testInfo) => {
    const problems = watchConsole(page);
    const chat = new ChatPage(page);
    await chat.open(workspace.url);

    await chat.say('$slow-task please');
    await expect(chat.stop()).toBeVisible();
    // Process isolation only: even an `approval: auto` skill asks (DESIGN §4). Answered in the dialog.
    await page.getByTestId('approval-allow-once').click();
    await expect(chat.approval()).toHaveAttribute('data-status', 'allowed');
    const runCard = chat.lastTurn().locator('[data-testid="tool-card"][data-kind="run"]');
    await expect(runCard).toHaveAttribute('data-status', 'running');
    // What the script printed so far shows on its card while it runs.
    await expect(runCard.getByTestId('tool-output')).toContainText('started');
    await chat.composer().press('Escape');
    await chat.finished('cancelled');
    await expect(chat.lastTurn().getByTestId('turn-notice')).toContainText('Stopped');
    await expect(chat.send()).toBeVisible();

    // Edit and send again replaces the last turn.
    await chat.lastTurn().getByTestId('user-message').hover();
    await chat.lastTurn().getByTestId('edit-message').click();
    await chat.lastTurn().getByTestId('edit-input').fill('what is the weather like in Lisbon?');
    await chat.lastTurn().getByTestId('edit-input').press('Enter');
    await chat.finished('no_model');
    await expect(chat.turns()).toHaveCount(1);
    await expect(chat.lastTurn().getByTestId('user-message')).toContainText('weather like in Lisbon');

    await chat.newChat().click();
    await expect(chat.header()).toContainText('New conversation');
    await chat.say('hello again, second conversation');
    await chat.finished('no_model');
    await expect(chat.conversations()).toHaveCount(2);

    await chat.search().fill('lisbon');
    await expect(chat.conversations()).toHaveCount(1);
    await chat.search().fill('');
    await expect(chat.conversations()).toHaveCount(2);

    const second = chat.conversation('hello again, second conversation');
    await second.hover();
    await second.getByTestId('conversation-rename').click();
    await page.getByTestId('conversation-rename-input').fill('Greetings');
    await page.getByTestId('conversation-rename-input').press('Enter');
    await expect(chat.conversation('Greetings')).toBeVisible();
    await expect(chat.header()).toContainText('Greetings');
    await shots(page, testInfo, 'chat-conversations');

    await chat.conversation('Greetings').hover();
    await chat.conversation('Greetings').getByTestId('conversation-delete').click();
    await chat.conversation('Greetings').getByTestId('conversation-delete-confirm').click();
    await expect(chat.conversations()).toHaveCount(1);
    await expect(chat.header()).toContainText('New conversation');
    expect(problems).toEqual([]);
  });

  test('in a small window the conversation list, thread and score panel all fit side by side', async ({
    page,
    workspace,
  }, testInfo) => {
    await page.setViewportSize({ width: 900, height: 600 });
    const chat = new ChatPage(page);
    await chat.open(workspace.url);
    await chat.composer().fill('echo a note about oat milk');
    await expect(page.locator('[data-testid="candidate"][data-skill-name="echo-note"]')).toBeVisible();
    await fitsWindow(page, chat.scorePanel(), chat.send(), page.getByTestId('new-conversation'));
    await shots(page, testInfo, 'chat-small-window');

    // A sent message's route: its way back to the live preview stays one line, inside the panel.
    await chat.say('hello there, how are you today?');
    await chat.finished('no_model');
    const back = page.getByTestId('recorded-route-close');
    await fitsWindow(page, back);
    expect(await back.evaluate((button) => button.scrollHeight - button.clientHeight)).toBeLessThanOrEqual(0);
    await shots(page, testInfo, 'chat-small-window-recorded');
  });
});
