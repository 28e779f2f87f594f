import { startModelServer, type ModelServer, type ModelServerOptions } from '../electron/testing/modelServer';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat';
import { shots, watchConsole } from './support';

// Chat against a scripted OpenAI-compatible model server (the no-model flows are in chat.spec.ts).

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
printf 'feat: chat pane\\nfix: copy buttons\\n' > out/changes.txt
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
      // After the script's result came back: the answer's first piece, then nothing until the
      // test has seen the turn running (model.release()), however slow the machine.
      { when: { lastRole: 'tool' }, reply: { text: ANSWER, holdAfter: 1 } },
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
    model.release();
    await chat.finished('success');

    await expect(tool).toHaveAttribute('data-status', 'success');
    // How long the call took, beside how it ended.
    await expect(tool.getByTestId('tool-duration')).toHaveText(/^\d+(\.\d)? (ms|s)$/);
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
    expect(problems).toEqual([]);
  },
);

modelTest(
  'with a scripted model, a message no skill matches gets a plain chat answer',
  async ({ page, workspace }) => {
    const problems = watchConsole(page);
    const chat = new ChatPage(page);
    await chat.open(workspace.url);
    await chat.say('what is a good name for a cat?');
    await chat.finished('success');
    await expect(chat.chip()).toContainText('plain chat');
    await expect(chat.answerText()).toContainText('A plain answer.');
    expect(problems).toEqual([]);
  },
);

modelTest(
  'text the model wrote before a tool call stays above that call’s cards, live and when reopened',
  async ({ page, workspace, model }, testInfo) => {
    const problems = watchConsole(page);
    const chat = new ChatPage(page);
    await chat.open(workspace.url);
    await chat.say('please draft the release notes for 1.2');
    await expect(chat.approval()).toHaveAttribute('data-status', 'waiting');
    // Put the dialog aside to see the thread as it streams.
    await page.keyboard.press('Escape');
    await expect(chat.dialog()).toHaveCount(0);
    await shots(page, testInfo, 'chat-order-live');
    await expect
      .poll(() => chat.flow())
      .toEqual([
        'run: release-notes',
        'text: Let me collect the changes.',
        'tool: run_skill_script',
        'approval: waiting',
      ]);

    await chat.approval().getByTestId('chat-approval-allow').click();
    // The answer is held after its first piece (modelTest's rules) until released.
    model.release();
    await chat.finished('success');
    const streamed = [
      'run: release-notes',
      'text: Let me collect the changes.',
      'tool: run_skill_script',
      'approval: allowed',
      'text: Here are the release notes for 1.2:',
    ];
    await shots(page, testInfo, 'chat-order-finished');
    expect(await chat.flow()).toEqual(streamed);

    await page.reload();
    await chat.ready();
    await expect(chat.answer()).toHaveAttribute('data-status', 'success');
    await shots(page, testInfo, 'chat-order-reopened');
    expect(await chat.flow()).toEqual(streamed);
    expect(problems).toEqual([]);
  },
);

modelTest(
  'the Runs view names the script an instruction skill ran through its tools',
  async ({ page, workspace, model }, testInfo) => {
    const problems = watchConsole(page);
    const chat = new ChatPage(page);
    await chat.open(workspace.url);
    await chat.say('please draft the release notes for 1.2');
    await page.getByTestId('approval-allow-once').click();
    model.release();
    await chat.finished('success');

    await chat
      .lastTurn()
      .locator('[data-testid="tool-card"][data-kind="run"]')
      .getByTestId('tool-run-link')
      .click();
    const detail = page.getByTestId('runs-page').getByTestId('run-detail');
    await expect(detail).toHaveAttribute('data-status', 'success');
    await shots(page, testInfo, 'runs-instruction-scripts');
    // A script ran, in a sandbox: the header says which, not "nothing ran".
    await expect(detail.locator('.run-header').getByTestId('run-sandbox')).toHaveText(
      /bubblewrap|sandbox-exec|process only/,
    );
    const scripts = detail.getByTestId('run-script');
    await expect(scripts).toHaveCount(1);
    await expect(scripts.first()).toContainText('scripts/draft.sh');
    await expect(scripts.first()).toHaveAttribute('data-status', 'success');
    await expect(scripts.first().getByTestId('run-script-exit')).toHaveText('exit 0');
    // What the script wrote: under it, and with its path on disk in Files produced.
    await expect(scripts.first().getByTestId('run-script-file')).toHaveText(['out/changes.txt']);
    await expect(detail.getByTestId('run-file')).toHaveCount(1);
    await expect(detail.getByTestId('run-file')).toHaveAttribute('data-path', 'out/changes.txt');
    // The timeline says which script started.
    await expect(detail.getByTestId('timeline-script')).toHaveText(['scripts/draft.sh']);
    await scripts.first().scrollIntoViewIfNeeded();
    await shots(page, testInfo, 'runs-instruction-scripts-list');
    // Its row in the list says the same.
    const row = page.locator(`[data-testid="run-row"][data-skill="release-notes"]`);
    await expect(row.getByTestId('run-sandbox')).toHaveText(/bubblewrap|sandbox-exec|process only/);
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

/** Two skills one message can name: a direct one and an instruction one. */
const TWO_SKILLS = {
  'greeting-line/SKILL.md': `---
name: greeting-line
description: Opens a message with a greeting line.
---
Greetings from the greeting line.
`,
  'greeting-line/skill.yaml': 'spec: { type: direct }\n',
  'tone-check/SKILL.md': `---
name: tone-check
description: Checks the tone of a paragraph against the house voice.
---

# Tone check

Judge whether the text is warm.
`,
};

const twoSkillsTest = withScriptedModel({ fallback: { text: 'The tone is warm enough.' } }, TWO_SKILLS);

twoSkillsTest(
  'a message that names two skills shows a run card for each and an answer with what each produced',
  async ({ page, workspace }, testInfo) => {
    const problems = watchConsole(page);
    const chat = new ChatPage(page);
    await chat.open(workspace.url);
    await chat.say('$greeting-line and $tone-check: is "hi there" warm?');
    await chat.finished('success');
    await expect(chat.toolCard('greeting-line')).toHaveAttribute('data-status', 'success');
    await expect(chat.toolCard('tone-check')).toHaveAttribute('data-status', 'success');
    await expect(chat.answerText()).toContainText('Greetings from the greeting line.');
    await expect(chat.answerText()).toContainText('The tone is warm enough.');
    await shots(page, testInfo, 'chat-two-skills');
    expect(problems).toEqual([]);
  },
);
