import fs from 'node:fs';
import path from 'node:path';
import { startModelServer, type ModelServer } from '../electron/testing/modelServer';
import { expect, test as base } from './fixtures';
import { SkillsPage } from './pages/skills';
import { shots, watchConsole } from './support';

// Description tuning from the Evals tab (agentskills.io "Optimizing descriptions"): the scripted
// model proposes a description; the router scores it on the cases the model saw and on held-out ones.
const SKILL_MD = `---
name: greenhouse
description: Handles things.
---
# Greenhouse

Run scripts/run.py on the file the user gives.
`;
const CASES = [
  { query: 'remind me to water the tomatoes every morning', should_trigger: true },
  { query: 'log that I fertilized the roses today', should_trigger: true },
  { query: 'when should I repot the fern', should_trigger: true },
  { query: 'track watering for my basil plants', should_trigger: true },
  { query: 'what is the weather in Lyon tomorrow', should_trigger: false },
  { query: 'give me stats on this csv table', should_trigger: false },
];
const GOOD =
  'Tracks a home garden: watering and fertilizing reminders, a log of what was done for each plant (tomatoes, roses, ferns, basil), and when to repot. Use when the user asks to water, fertilize, repot or log plants. Not for weather forecasts or CSV statistics.';

const test = base.extend<{ model: ModelServer }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern.
  model: async ({}, use) => {
    const server = await startModelServer({ rules: [{ when: {}, reply: { text: GOOD } }] });
    await use(server);
    await server.close();
  },
  serverEnv: async ({ model }, use) =>
    use({ OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'sk-e2e-tune', SKILLDECK_MODEL: 'scripted-model' }),
  seedFiles: {
    'greenhouse/SKILL.md': SKILL_MD,
    'greenhouse/evals/trigger_evals.json': JSON.stringify(CASES),
    'weather/SKILL.md':
      '---\nname: weather\ndescription: Current weather and forecasts for a city.\n---\nx\n',
  },
});

test('the Evals tab tunes the description and writes the best one into SKILL.md', async ({
  page,
  workspace,
}, testInfo) => {
  const problems = watchConsole(page);
  const skills = new SkillsPage(page);
  await skills.openSkill(workspace.url, 'greenhouse', 'evals');
  await expect(page.getByTestId('evals-verdict')).toContainText('fail');

  await page.getByTestId('tuner-start').click();
  await expect(page.getByTestId('tuner')).toHaveAttribute('data-state', 'ready');
  const rows = page.getByTestId('tuner-row');
  await expect(rows.first()).toContainText('Handles things.');
  await expect(rows.nth(1)).toContainText('best');
  await expect(rows.nth(1)).toContainText('3/3');
  await page.getByTestId('tuner').scrollIntoViewIfNeeded();
  await shots(page, testInfo, 'tuner-proposal');

  await page.getByTestId('tuner-apply').click();
  await expect(page.getByTestId('tuner-verdict')).toContainText('Written into SKILL.md');
  await expect(page.getByTestId('evals-verdict')).toContainText('All 6 cases pass');
  expect(fs.readFileSync(path.join(workspace.skillsDir, 'greenhouse', 'SKILL.md'), 'utf8')).toBe(
    // Quoted: the description holds ': ', which plain YAML would read as a mapping.
    SKILL_MD.replace('Handles things.', JSON.stringify(GOOD)),
  );
  // The skill's header shows the new description once the engine read the changed skill.
  await expect(page.getByTestId('skill-detail')).toContainText('Tracks a home garden');
  await shots(page, testInfo, 'tuner-applied');
  expect(problems).toEqual([]);
});
