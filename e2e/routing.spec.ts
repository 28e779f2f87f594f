import fs from 'node:fs';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { expect, repoRoot, test } from './fixtures';
import { watchConsole } from './support';
import { RoutingPage } from './pages/routing';

/** The same view in the dark scheme too, so both palettes get looked at. */
async function attachDarkShot(page: Page, testInfo: TestInfo, name: string) {
  await page.emulateMedia({ colorScheme: 'dark' });
  await attachShot(page, testInfo, `${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
}

async function attachShot(page: Page, testInfo: TestInfo, name: string, locator = page.locator('body')) {
  const file = testInfo.outputPath(`${name}.png`);
  await locator.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

test('typing a query shows the expected primary with its bars and the threshold line', async ({
  page,
  workspace,
}, testInfo) => {
  const problems = watchConsole(page);
  const routing = new RoutingPage(page);
  await routing.open(workspace.url);

  await routing.type('organize my invoices from last month');
  const row = routing.candidate('invoice-organizer');
  await expect(row).toHaveAttribute('data-status', 'selected');
  await expect(row).toHaveAttribute('data-primary', 'true');
  await expect(routing.primary()).toHaveAttribute('data-skill-name', 'invoice-organizer');
  await expect(row.getByTestId('score-segment').first()).toBeVisible();
  expect(await row.getByTestId('score-segment').count()).toBeGreaterThanOrEqual(4);
  await expect(row.getByTestId('threshold-tick')).toBeAttached();
  await expect(routing.thresholdLine()).toBeVisible();
  await expect(routing.thresholdLine()).toHaveAttribute('data-threshold', '0.65');

  // Hovering a segment explains it: value × weight = contribution.
  await row.locator('[data-factor="intent_match"]').hover();
  await expect(page.getByTestId('segment-tooltip')).toContainText('×');
  await expect(page.getByTestId('segment-tooltip')).toContainText('=');
  await attachShot(page, testInfo, 'score-panel', routing.panel());
  await attachShot(page, testInfo, 'chat-view');

  await routing.type('帮我整理发票');
  await expect(routing.primary()).toHaveAttribute('data-skill-name', 'invoice-organizer');
  await attachShot(page, testInfo, 'score-panel-zh', routing.panel());
  await attachDarkShot(page, testInfo, 'chat-view');

  const perf = await page.evaluate(() => window.__skilldeckPerf?.last ?? null);
  expect(perf).not.toBeNull();
  console.log(`keystroke → repaint (last sample): ${JSON.stringify(perf)}`);
  expect(problems).toEqual([]);
});

test('the score panel names what matched: trigger, translation, lexicon, similar word, spelling (issue 10)', async ({
  page,
  workspace,
}, testInfo) => {
  const problems = watchConsole(page);
  const routing = new RoutingPage(page);
  await routing.open(workspace.url);

  // 收据 is its declared trigger; 账单, a word the skill never says, reaches it through CC-CEDICT.
  await routing.type('帮我把这些收据和账单整理一下');
  const row = routing.candidate('invoice-organizer');
  await expect(row).toHaveAttribute('data-status', 'selected');
  const evidence = row.getByTestId('evidence-item');
  await expect(evidence.filter({ has: page.locator('text=trigger') }).first()).toBeVisible();
  // CC-CEDICT glosses it "bill", and WordNet knows a bill as an invoice: a synonym of a translation.
  await expect(
    row.locator('[data-testid="evidence-item"]:is([data-kind="translation"], [data-kind="synonym"])'),
  ).toContainText('账单');
  // The reason keeps its status line; the "matched …" tail is shown as chips, not twice.
  await expect(row.getByTestId('candidate-reason')).not.toContainText('matched');
  await attachShot(page, testInfo, 'score-panel-evidence-zh', routing.panel());

  // An English word WordNet does not link to the skill's: the domain lexicon does (tidy → organize).
  await routing.type('tidy up my receipts for the accountant');
  await expect(routing.primary()).toHaveAttribute('data-skill-name', 'invoice-organizer');
  await expect(
    routing.candidate('invoice-organizer').locator('[data-testid="evidence-item"][data-kind="lexicon"]'),
  ).toContainText('tidy');
  await attachShot(page, testInfo, 'score-panel-evidence', routing.panel());
  await attachDarkShot(page, testInfo, 'score-panel-evidence');

  // A word neither the skill nor WordNet links: a static word embedding does (forget ≈ remember).
  await routing.type('scribble this down before I forget: dentist friday 3pm');
  await expect(routing.primary()).toHaveAttribute('data-skill-name', 'save-note');
  const similar = routing
    .candidate('save-note')
    .locator('[data-testid="evidence-item"][data-kind="similar"]')
    .first();
  await expect(similar).toContainText('forget ≈');
  await attachShot(page, testInfo, 'score-panel-evidence-similar', routing.panel());

  // A word no skill uses and no dictionary knows, one letter from one a skill does: a typo.
  await routing.type('tidy up my reciepts for the accountant');
  await expect(routing.primary()).toHaveAttribute('data-skill-name', 'invoice-organizer');
  await expect(
    routing.candidate('invoice-organizer').locator('[data-testid="evidence-item"][data-kind="spelling"]'),
  ).toContainText('reciepts');
  await attachShot(page, testInfo, 'score-panel-evidence-spelling', routing.panel());
  expect(problems).toEqual([]);
});

/** A skill alone in the test's folder (beside the bundled ones) and the evidence its request shows. */
const EVIDENCE_CASES = [
  {
    title: 'an IP address reaches the IP skill, and the panel says it was recognized (issue 10)',
    skill: 'ip-lookup',
    description: 'Geolocate IP addresses: city, country and network owner of an IP.',
    query: 'where in the world is 203.0.113.9?',
    kind: 'entity',
    text: '203.0.113.9',
  },
  {
    title: 'a request with one clear leader a little under T is chosen, and the panel says so (issue 10)',
    skill: 'tts',
    description: 'Reads text aloud: text to speech with a natural voice, saved as an mp3 file.',
    query: 'make an mp3 of this text',
    kind: 'lead',
    text: 'ahead of every other candidate',
  },
];

for (const c of EVIDENCE_CASES)
  test.describe(c.skill, () => {
    test.use({
      seedFiles: {
        [`${c.skill}/SKILL.md`]: `---\nname: ${c.skill}\ndescription: ${c.description}\n---\n# ${c.skill}\n\nDo it.\n`,
      },
    });

    test(c.title, async ({ page, workspace }, testInfo) => {
      const problems = watchConsole(page);
      const routing = new RoutingPage(page);
      await routing.open(workspace.url);
      await routing.type(c.query);
      await expect(routing.primary()).toHaveAttribute('data-skill-name', c.skill);
      await expect(
        routing.candidate(c.skill).locator(`[data-testid="evidence-item"][data-kind="${c.kind}"]`),
      ).toContainText(c.text);
      await attachShot(page, testInfo, `score-panel-evidence-${c.kind}`, routing.panel());
      expect(problems).toEqual([]);
    });
  });

test('typing $name forces that skill', async ({ page, workspace }, testInfo) => {
  const problems = watchConsole(page);
  const routing = new RoutingPage(page);
  await routing.open(workspace.url);

  // Half typed, the name forces nothing yet, and the composer does not claim it does.
  await routing.type('$json');
  await expect(page.getByTestId('composer-unknown-skill')).toHaveText('No skill named json');
  await expect(page.getByTestId('composer-forced')).not.toContainText('Forcing');
  await routing.composer().press('Escape');

  await routing.type('$json-format {"b": 1, "a": [2, 3]}');
  await expect(page.getByTestId('composer-unknown-skill')).toHaveCount(0);
  const row = routing.candidate('json-format');
  await expect(row).toHaveAttribute('data-source', 'forced');
  await expect(row).toHaveAttribute('data-status', 'selected');
  await expect(routing.primary()).toHaveAttribute('data-skill-name', 'json-format');
  await expect(page.getByTestId('composer-forced')).toContainText('json-format');
  await attachShot(page, testInfo, 'score-panel-forced', routing.panel());
  await attachShot(page, testInfo, 'chat-view-forced');
  expect(problems).toEqual([]);
});

/** A request, then a message that takes its skill away, and what the plan says of it. */
const SET_ASIDE = [
  {
    title: 'what the message says not to do counts for no skill, and the plan says so',
    request: ['convert 5 miles to km', 'unit-converter'],
    then: 'do not convert anything, just tell me a joke',
    reason: 'Set aside what the message rules out: “do not convert anything”.',
    shot: 'score-panel-ruled-out',
  },
  {
    title: 'chat no rule names is read by its wording, and the plan says so',
    request: ['pretty-print this JSON for me', 'json-format'],
    then: 'honestly is JSON just XML for people who hate angle brackets? lol',
    reason: 'worded like chat, not like a request',
    shot: 'score-panel-chat-form',
  },
];

for (const { title, request, then, reason, shot } of SET_ASIDE)
  test(title, async ({ page, workspace }, testInfo) => {
    const problems = watchConsole(page);
    const routing = new RoutingPage(page);
    await routing.open(workspace.url);
    await routing.type(request[0]);
    await expect(routing.primary()).toHaveAttribute('data-skill-name', request[1]);
    await routing.type(then);
    await expect(page.getByTestId('plan-reason')).toContainText(reason);
    await expect(routing.primary()).toHaveAttribute('data-skill-name', '');
    await attachShot(page, testInfo, shot, routing.panel());
    expect(problems).toEqual([]);
  });

test('moving T in Settings changes the selection, and the bars follow the weights', async ({
  page,
  workspace,
}, testInfo) => {
  const problems = watchConsole(page);
  const routing = new RoutingPage(page);
  await routing.open(workspace.url);
  const query = 'organize my invoices from last month';
  await routing.type(query);
  await expect(routing.primary()).toHaveAttribute('data-skill-name', 'invoice-organizer');

  await routing.nav('settings').click();
  await expect(routing.weightsSum()).toContainText('1.00');
  await routing.threshold().fill('0.99');
  // The Settings view scores the same draft beside the knobs: the selection goes at once.
  await expect(routing.primary()).toHaveAttribute('data-skill-name', '');
  await expect(routing.candidate('invoice-organizer')).toHaveAttribute('data-status', 'below_threshold');
  await expect(routing.thresholdLine()).toHaveAttribute('data-threshold', '0.99');
  await attachShot(page, testInfo, 'settings-high-threshold');
  await attachDarkShot(page, testInfo, 'settings-high-threshold');

  await routing.nav('chat').click();
  await routing.settled(query);
  await expect(routing.primary()).toHaveAttribute('data-skill-name', '');
  await expect(routing.candidate('invoice-organizer')).toHaveAttribute('data-status', 'below_threshold');
  await attachShot(page, testInfo, 'score-panel-high-threshold', routing.panel());

  // A weight moves the bars: with intent at 0 its segment disappears.
  await routing.nav('settings').click();
  await routing.weight('intent_match').fill('0');
  await expect(routing.weightsSum()).toContainText('0.60');
  await expect(routing.candidate('invoice-organizer').locator('[data-factor="intent_match"]')).toHaveCount(0);

  await routing.reset().click();
  await expect(routing.weightsSum()).toContainText('1.00');
  await expect(routing.threshold()).toHaveValue('0.65');
  await expect(routing.primary()).toHaveAttribute('data-skill-name', 'invoice-organizer');
  expect(problems).toEqual([]);
});

test('Settings scores its own message live, even while chat shows a sent message’s route', async ({
  page,
  workspace,
}, testInfo) => {
  const problems = watchConsole(page);
  const routing = new RoutingPage(page);
  await routing.open(workspace.url);
  // Plain chat (no model here): nothing to approve, and the sent route shows in the panel.
  await routing.composer().fill('hello there, how are you today?');
  await routing.composer().press('Enter');
  await expect(routing.panel()).toHaveAttribute('data-state', 'recorded');

  // A recorded route is frozen: beside the knobs it would not move, so Settings shows the live preview.
  await routing.nav('settings').click();
  await expect(routing.panel()).toHaveAttribute('data-state', 'empty');
  await page.getByTestId('settings-preview-query').fill('convert 5 miles to km');
  await expect(routing.primary()).toHaveAttribute('data-skill-name', 'unit-converter');
  await routing.threshold().fill('0.99');
  await expect(routing.primary()).toHaveAttribute('data-skill-name', '');
  await attachShot(page, testInfo, 'settings-live-preview');
  await routing.reset().click();
  expect(problems).toEqual([]);
});

test('"why not" explains a skill that was not chosen', async ({ page, workspace }, testInfo) => {
  const routing = new RoutingPage(page);
  await routing.open(workspace.url);
  await routing.type('organize my invoices from last month');
  await routing.whyNotSearch().fill('json');
  await routing.whyNotOption('json-format').click();
  const result = routing.whyNotResult();
  await expect(result).toHaveAttribute('data-skill-name', 'json-format');
  await expect(result).not.toHaveAttribute('data-status', 'selected');
  await expect(page.getByTestId('why-not-explanation')).not.toBeEmpty();
  await expect(result.getByTestId('factor-table')).toBeVisible();
  await attachShot(page, testInfo, 'why-not', page.getByTestId('why-not'));
  await attachDarkShot(page, testInfo, 'why-not');
});

test('Activity lists recorded routes live, with metrics and the breakdown', async ({
  page,
  workspace,
}, testInfo) => {
  const problems = watchConsole(page);
  const routing = new RoutingPage(page);
  await routing.open(workspace.url, 'activity');
  await expect(page.getByTestId('activity-empty')).toBeVisible();

  await routing.commitRoute('organize my invoices from last month');
  const caption = page.getByTestId('latency-chart').locator('figcaption > span').first();
  await expect(caption).toHaveText('Routing latency, last 1 route');
  await routing.commitRoute('what is the weather like today');
  await routing.commitRoute('$json-format {"a":1}');
  await expect(page.getByTestId('route-row')).toHaveCount(3);
  await expect(page.getByTestId('metric-total')).toContainText('3');
  await expect(page.getByTestId('latency-chart')).toBeVisible();

  await page.locator('[data-testid="route-row"][data-primary="invoice-organizer"]').click();
  await expect(page.getByTestId('route-detail')).toContainText('organize my invoices');
  await expect(routing.primary()).toHaveAttribute('data-skill-name', 'invoice-organizer');
  await expect(routing.candidate('invoice-organizer').getByTestId('score-segment').first()).toBeVisible();
  await attachShot(page, testInfo, 'activity');
  await attachDarkShot(page, testInfo, 'activity');
  expect(problems).toEqual([]);
});

test('the skill detail runs its trigger evals', async ({ page, workspace }, testInfo) => {
  await page.goto(workspace.url);
  await expect(page.locator('html[data-app-state="ready"]')).toBeAttached();
  await page.locator('[data-testid="skill-row"][data-skill-name="invoice-organizer"]').click();
  await page.getByTestId('detail-tab-evals').click();
  await expect(page.getByTestId('evals-tab')).toHaveAttribute('data-state', 'ready');
  expect(await page.getByTestId('eval-case').count()).toBeGreaterThan(0);
  await expect(page.getByTestId('evals-precision')).toContainText('%');
  await expect(page.getByTestId('evals-recall')).toContainText('%');
  await attachShot(page, testInfo, 'evals');
});

const corpusDir = path.join(repoRoot, '..', 'shared', 'corpus', 'skills');

test.describe('with the third-party corpus loaded', () => {
  test.skip(!fs.existsSync(corpusDir), `no corpus at ${corpusDir}`);
  test.use({ extraSkillDirs: [corpusDir] });

  test('keystroke → repainted panel, measured with performance marks', async ({
    page,
    workspace,
  }, testInfo) => {
    test.setTimeout(120_000);
    const problems = watchConsole(page);
    const routing = new RoutingPage(page);
    await routing.open(workspace.url);
    // Warm the router's index first: the first route after start builds it.
    await routing.type('warm up');
    await page.evaluate(() => window.__skilldeckPerf?.samples.splice(0));

    const query = 'organize my invoices from last month';
    await routing.composer().fill('');
    // About a fast typist's pace: each key gets its own preview.
    await routing.composer().pressSequentially(query, { delay: 80 });
    await routing.settled(query);
    await expect(routing.primary()).toHaveAttribute('data-skill-name', /.+/);
    await page.waitForFunction((q) => window.__skilldeckPerf?.last?.query === q, query);
    const samples = await page.evaluate(() => window.__skilldeckPerf?.samples ?? []);
    expect(samples.length).toBeGreaterThan(query.length / 2);
    const pick = (key: 'paintMs' | 'commitMs' | 'roundTripMs' | 'engineMs', q: number) => {
      const sorted = samples.map((s) => s[key]).sort((a, b) => a - b);
      return Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(2));
    };
    const summary = {
      samples: samples.length,
      paint_p50: pick('paintMs', 0.5),
      paint_p95: pick('paintMs', 0.95),
      commit_p50: pick('commitMs', 0.5),
      round_trip_p50: pick('roundTripMs', 0.5),
      engine_p50: pick('engineMs', 0.5),
      engine_p95: pick('engineMs', 0.95),
    };
    // Printed, not asserted: timing depends on the machine (the bench judges it).
    console.log(`keystroke → repaint with the corpus: ${JSON.stringify(summary)}`);
    await testInfo.attach('keystroke-to-repaint', {
      body: JSON.stringify({ summary, samples }, null, 2),
      contentType: 'application/json',
    });
    await attachShot(page, testInfo, 'score-panel-corpus', routing.panel());
    expect(problems).toEqual([]);
  });
});
