import type { Page, TestInfo } from '@playwright/test';
import { startModelServer, type ModelServer, type ModelServerOptions } from '../electron/testing/modelServer';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat';
import { SkillsPage } from './pages/skills';

/** Console errors and page errors fail the test: the chat must never cause them. */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

/** The same screen in light and dark, attached to the report to be looked at. */
async function shots(page: Page, testInfo: TestInfo, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const file = testInfo.outputPath(`${name}-${scheme}.png`);
    await page.screenshot({ path: file });
    await testInfo.attach(`${name}-${scheme}`, { path: file, contentType: 'image/png' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

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
});

/** An instruction skill whose script needs approval: the model reads the body, runs the script, answers. */
const RELEASE_NOTES = {
  'release-notes/SKILL.md': `---
name: release-notes
description: Drafts release notes from the project's changes. Use when the user asks for release notes.
---

# Release notes

Run \`scripts/draft.sh\` to collect the changes, then write short release notes in Markdown.
`,
  'release-notes/skill.yaml': `spec:
  type: instruction
triggers:
  - release notes
cost_hint: low
permissions:
  filesystem: { read: [], write: [] }
  network: { outbound: false }
  environment: { allow: [] }
execution_policy:
  sandbox: os
  approval: ask
  timeout: 30
entrypoints:
  - name: draft
    path: scripts/draft.sh
    description: Lists the changes since the last release.
`,
  'release-notes/scripts/draft.sh': `#!/bin/bash
echo "feat: chat pane"
echo "fix: copy buttons"
`,
};

const ANSWER = [
  'Here are the **release notes** for 1.2:\n\n',
  '- A chat pane with streaming answers\n',
  '- Copy buttons on code\n\n',
  'To try it:\n\n',
  '```bash\nnpm ci && echo "ready"\n```\n',
];

/** The e2e test with a scripted model server as its provider and these skills in the workspace. */
function withScriptedModel(script: ModelServerOptions, seedFiles: Record<string, string>) {
  return test.extend<{ model: ModelServer }>({
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern.
    model: async ({}, use) => {
      const server = await startModelServer(script);
      await use(server);
      await server.close();
    },
    serverEnv: async ({ model }, use) =>
      use({
        OPENAI_BASE_URL: model.baseURL,
        OPENAI_API_KEY: 'sk-e2e-chat',
        SKILLDECK_MODEL: 'scripted-model',
      }),
    seedFiles,
  });
}

const modelTest = withScriptedModel(
  {
    rules: [
      // After the script's result came back: the answer, slowly enough to watch it stream
      // (2.4 s after its first piece, so a loaded CI machine still sees the turn running).
      { when: { lastRole: 'tool' }, reply: { text: ANSWER, delayMs: 600 } },
      {
        when: { contains: 'release notes' },
        reply: {
          text: 'Let me collect the changes.',
          toolCalls: [{ name: 'run_skill_script', arguments: { script: 'scripts/draft.sh' } }],
        },
      },
    ],
    fallback: { text: 'A plain answer.' },
  },
  RELEASE_NOTES,
);

modelTest(
  'with a scripted model: routing chip, tool card, approval, streamed answer, and it all survives a reload',
  async ({ page, workspace, model, context }, testInfo) => {
    const problems = watchConsole(page);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const chat = new ChatPage(page);
    await chat.open(workspace.url);

    await chat.say('please draft the release notes for 1.2');
    await expect(chat.chip()).toHaveAttribute('data-skill-name', 'release-notes');
    const tool = chat.toolCard('run_skill_script');
    await expect(tool).toHaveAttribute('data-status', 'running');
    await expect(tool).toContainText('scripts/draft.sh');
    const approval = chat.approval();
    await expect(approval).toHaveAttribute('data-status', 'waiting');
    await expect(approval.getByTestId('chat-approval-command')).toContainText('draft.sh');
    await expect(chat.dialog()).toBeVisible();
    await shots(page, testInfo, 'chat-model-approval');
    // Answered in the dialog this time: the inline card follows.
    await page.getByTestId('approval-allow-once').click();
    await expect(chat.dialog()).toHaveCount(0);

    // The answer streams in while the turn is still running.
    await expect(chat.answerText()).toContainText('release notes for 1.2');
    await expect(chat.answer()).toHaveAttribute('data-status', 'running');
    await expect(chat.answer()).toHaveAttribute('aria-busy', 'true');
    await shots(page, testInfo, 'chat-model-streaming');
    await chat.finished('success');

    await expect(tool).toHaveAttribute('data-status', 'success');
    // Output is collapsed until asked for.
    const output = tool.getByTestId('tool-output');
    await expect(output).not.toHaveAttribute('open');
    await output.locator('summary').click();
    await expect(output).toContainText('feat: chat pane');
    await expect(chat.approval()).toHaveAttribute('data-status', 'allowed');
    const code = chat.answerText().getByTestId('code-block');
    await expect(code).toHaveAttribute('data-language', 'bash');
    await expect(code.locator('[class*="hljs-"]').first()).toBeAttached();
    await code.getByTestId('copy-code').click();
    await expect(code.getByTestId('copy-code')).toHaveAttribute('data-state', 'copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('npm ci && echo "ready"');
    await chat.lastTurn().getByTestId('copy-answer').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('**release notes**');
    await expect(chat.lastTurn().locator('.answer__usage')).toContainText('tokens in');
    await shots(page, testInfo, 'chat-model-answer');

    // The model got the skill's body, and its tool result came back to it.
    const requests = model.chatRequests();
    expect(requests.length).toBe(2);
    expect(JSON.stringify(requests[0].messages)).toContain('Run `scripts/draft.sh` to collect the changes');
    expect(requests[1].messages.at(-1)?.role).toBe('tool');

    await page.reload();
    await chat.ready();
    await expect(chat.activeConversation()).toHaveAttribute(
      'data-title',
      'please draft the release notes for 1.2',
    );
    await expect(chat.answerText()).toContainText('release notes for 1.2');
    await expect(chat.toolCard('run_skill_script')).toHaveAttribute('data-status', 'success');
    await expect(chat.chip()).toHaveAttribute('data-skill-name', 'release-notes');
    await chat.chip().click();
    await expect(chat.scorePanel()).toHaveAttribute('data-state', 'recorded');
    await expect(page.getByTestId('plan-primary')).toHaveAttribute('data-skill-name', 'release-notes');
    await shots(page, testInfo, 'chat-model-reloaded');

    // Plain chat through the same model streams an answer too.
    await chat.newChat().click();
    await chat.say('what is a good name for a cat?');
    await chat.finished('success');
    await expect(chat.chip()).toContainText('plain chat');
    await expect(chat.answerText()).toContainText('A plain answer.');
    expect(problems).toEqual([]);
  },
);

/** A script skill that prints part of its work, then stops on a KeyError: a near miss. */
const BROKEN_SUM = {
  'broken-sum/SKILL.md': `---
name: broken-sum
description: Sums the amounts of an expenses list.
---

# Broken sum

Prints the total of the amounts.
`,
  'broken-sum/skill.yaml': `entrypoints: [scripts/sum.py]
execution_policy: { approval: auto }
`,
  'broken-sum/scripts/sum.py': `rows = [{"Amount": "12.50"}, {"Amount": "7.25"}]
print(f"read {len(rows)} rows")
print(sum(float(r["amount"]) for r in rows))
`,
};

const rescuedTest = withScriptedModel(
  { fallback: { text: 'Without the skill: add each amount.' } },
  BROKEN_SUM,
);

rescuedTest(
  'when plain chat answers for a failed skill, the run card still shows the failure and offers its repair',
  async ({ page, workspace }, testInfo) => {
    const problems = watchConsole(page);
    const chat = new ChatPage(page);
    await chat.open(workspace.url);
    await chat.say('$broken-sum add them up');
    await chat.finished('success');
    // The failed script's partial output stays on its card; it is not part of the answer.
    await expect(chat.answerText()).toHaveText('Without the skill: add each amount.');
    const card = chat.toolCard('broken-sum');
    await expect(card.getByTestId('tool-output')).toContainText('read 2 rows', { useInnerText: false });
    await expect(card).toHaveAttribute('data-status', 'failure');
    await expect(card.getByTestId('tool-error')).toContainText("KeyError: 'amount'");
    const offer = card.getByTestId('repair-offer');
    await expect(offer).toHaveAttribute('data-eligible', 'true');
    await expect(offer.getByTestId('repair-reason')).toContainText('It nearly worked');
    await shots(page, testInfo, 'chat-rescued-failure');
    // The run itself says the skill failed first and plain chat answered, and offers the repair.
    await card.getByTestId('tool-run-link').click();
    await expect(page.getByTestId('run-primary-failure')).toContainText('broken-sum failed first');
    await expect(page.getByTestId('run-primary-failure')).toContainText("KeyError: 'amount'");
    await expect(page.getByTestId('repair-offer')).toHaveAttribute('data-eligible', 'true');
    await expect(page.locator('.run-header__note')).toHaveText('answered without a skill');
    await shots(page, testInfo, 'run-rescued-failure');
    expect(problems).toEqual([]);
  },
);

/** An instruction skill whose reference was renamed: the model answers around the gap. */
const HOUSE_STYLE = {
  'house-style/SKILL.md': `---
name: house-style
description: Rewrites a paragraph in the house style.
---

# House style

Read \`references/house-style.md\`, then rewrite the paragraph to follow it.
`,
  'house-style/references/house_style.md': 'Short sentences. No exclamation marks.\n',
};

const brokenRefTest = withScriptedModel(
  {
    rules: [
      { when: { lastRole: 'tool' }, reply: { text: 'I could not find the house style guide.' } },
      {
        when: { lastRole: 'user' },
        reply: {
          toolCalls: [{ name: 'read_skill_file', arguments: { path: 'references/house-style.md' } }],
        },
      },
    ],
  },
  HOUSE_STYLE,
);

brokenRefTest(
  'a skill the model followed around a missing file it names offers its repair on the run card',
  async ({ page, workspace }, testInfo) => {
    const problems = watchConsole(page);
    const chat = new ChatPage(page);
    await chat.open(workspace.url);
    await chat.say('$house-style Hello!!! This is great!');
    await chat.finished('success');
    await expect(chat.toolCard('read_skill_file')).toHaveAttribute('data-status', 'error');
    const card = chat.lastTurn().locator('[data-testid="tool-card"][data-kind="run"]');
    await expect(card).toHaveAttribute('data-status', 'success');
    const offer = card.getByTestId('repair-offer');
    await expect(offer).toHaveAttribute('data-eligible', 'true');
    await expect(offer.getByTestId('repair-reason')).toContainText('references/house-style.md');
    await shots(page, testInfo, 'chat-broken-reference');
    expect(problems).toEqual([]);
  },
);

/** A weather skill with a declared script: the router keeps "sunny" requests under T. */
const WEATHER = {
  'weather-lookup/SKILL.md': `---
name: weather-lookup
description: Look up the current weather for a city. Use when the user asks about weather, temperature or rain.
---

# Weather lookup

Runs scripts/weather.sh with the city.
`,
  'weather-lookup/skill.yaml': `entrypoints: [scripts/weather.sh]
execution_policy: { approval: auto }
`,
  'weather-lookup/scripts/weather.sh': 'echo "Rome: 24C, sunny"\n',
};

const offeredTest = withScriptedModel(
  {
    replies: [
      { toolCalls: [{ name: 'run_skill', arguments: { skill: 'weather-lookup', task: 'Weather in Rome' } }] },
      { text: 'Yes: 24 °C and sunny in Rome.' },
    ],
  },
  WEATHER,
);

offeredTest(
  'plain chat lets the model run a skill the router kept under T, and shows its run',
  async ({ page, workspace, model }, testInfo) => {
    const problems = watchConsole(page);
    const chat = new ChatPage(page);
    await chat.open(workspace.url);
    await chat.say('is it going to be sunny in Rome?');
    await chat.finished('success');
    // The router chose none; the chip names the skill the model ran, and says so.
    await expect(chat.chip()).toHaveAttribute('data-skill-name', 'weather-lookup');
    await expect(chat.chip()).toContainText('chosen by the model');
    await expect(chat.toolCard('run_skill')).toHaveAttribute('data-status', 'success');
    const run = chat.lastTurn().locator('[data-testid="tool-card"][data-kind="run"]');
    await expect(run).toHaveAttribute('data-name', 'weather-lookup');
    await expect(run).toHaveAttribute('data-status', 'success');
    await expect(chat.answerText()).toHaveText('Yes: 24 °C and sunny in Rome.');
    // The sent message's route (open since the send) says the router chose none and the model
    // ran weather-lookup, and marks that candidate.
    await expect(chat.scorePanel()).toHaveAttribute('data-state', 'recorded');
    await expect(page.getByTestId('plan-primary')).toHaveAttribute('data-model-choice', 'weather-lookup');
    await expect(page.getByTestId('plan-primary')).toHaveText('weather-lookup');
    await expect(page.getByTestId('plan')).toContainText('Model’s pick');
    await expect(page.getByTestId('plan-reason')).toContainText('it ran weather-lookup');
    await expect(
      chat.scorePanel().locator('[data-testid="candidate"][data-chosen-by-model="true"]'),
    ).toHaveAttribute('data-skill-name', 'weather-lookup');
    await shots(page, testInfo, 'chat-offered-skill');
    // Activity lists the route with the model's pick, and its detail says the same.
    await page.goto(`${workspace.url}#activity`);
    const row = page.locator('[data-testid="route-row"][data-model-choice="weather-lookup"]');
    await expect(row).toHaveAttribute('data-primary', '');
    await row.click();
    await expect(page.getByTestId('route-detail').getByTestId('plan-primary')).toHaveAttribute(
      'data-model-choice',
      'weather-lookup',
    );
    await shots(page, testInfo, 'activity-model-pick');
    // The model saw the skill it could run; the script's output came back to it.
    const [offer, answer] = model.chatRequests();
    expect(offer.tools?.map((t) => t.function.name)).toEqual(['run_skill']);
    expect(JSON.stringify(answer.messages.at(-1))).toContain('Rome: 24C, sunny');
    expect(problems).toEqual([]);
  },
);
