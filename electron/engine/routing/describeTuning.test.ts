import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../testing/modelServer';
import { tempDir, writeTree } from '../../testing/fixtures';
import { readDescription, skillMdHash, splitCases } from './describeTuning';
import { modelRouting } from './testHelpers';

// Description tuning (agentskills.io "Optimizing descriptions", users' ask #15): the model sees
// the train half of a skill's trigger evals, this router judges each description on both halves.
let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer({ models: ['m'] });
});
afterAll(() => server.close());

const SKILL_MD = `---
# the author's comment stays
name: paperwork
description: Handles documents.
metadata: { "openclaw": { "emoji": "🧾" } }
---
# Tool

Run scripts/run.py on the file the user gives.
`;

const CASES = [
  { query: 'extract the totals from these invoices', should_trigger: true },
  { query: 'organize my invoices by vendor', should_trigger: true },
  { query: 'pull the VAT amount out of this invoice', should_trigger: true },
  { query: 'file these receipts by vendor and date', should_trigger: true },
  { query: 'what is the weather in Lyon tomorrow', should_trigger: false },
  { query: 'give me stats on this csv table', should_trigger: false },
  { query: 'write me a poem about autumn', should_trigger: false },
];

const GOOD =
  'Extracts vendor, date, totals and VAT from invoices and receipts, and files invoices and receipts by vendor and date. Use when the user asks to extract, total, file or organize invoices or receipts. Not for weather, CSV statistics or poems.';

function catalogDir(cases: object[] = CASES): string {
  const dir = tempDir('skilldeck-tune-');
  writeTree(dir, {
    'paperwork/SKILL.md': SKILL_MD,
    'paperwork/evals/trigger_evals.json': JSON.stringify(cases),
    'weather/SKILL.md':
      '---\nname: weather\ndescription: Current weather and forecasts for a city.\n---\nx\n',
    'csv-summary/SKILL.md':
      '---\nname: csv-summary\ndescription: Profiles a CSV table: column types, stats, missing values.\n---\nx\n',
  });
  return dir;
}

const env = () => ({ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'k', SKILLDECK_MODEL: 'm' });

describe('tuning a skill’s description against its trigger evals', () => {
  it('proposes the model’s description when it does better on train, judged on held-out cases it never saw', async () => {
    const dir = catalogDir();
    const { svc } = await modelRouting(env(), [dir]);
    const id = path.join(dir, 'paperwork');
    const seen = server.chatRequests().length;
    server.enqueue({ text: `<think>they want keywords</think>\n\`\`\`\nDescription: "${GOOD}"\n\`\`\`` });

    const tuning = await svc.improveDescription(id, 1);
    expect(tuning.train.length + tuning.test.length).toBe(CASES.length);
    expect(tuning.test).toHaveLength(3);
    expect(tuning.baseline).toMatchObject({ round: 0, description: 'Handles documents.' });
    expect(tuning.baseline.train.passed).toBeLessThan(tuning.baseline.train.total);
    expect(tuning.candidates).toHaveLength(1);
    const [candidate] = tuning.candidates;
    expect(candidate).toMatchObject({ round: 1, description: GOOD });
    expect(candidate.train.passed).toBe(candidate.train.total);
    expect(candidate.test.passed).toBeGreaterThan(tuning.baseline.test.passed);
    expect(tuning.best).toBe(0);
    expect(tuning).toMatchObject({ model: 'm', content_hash: skillMdHash(SKILL_MD) });

    // The held-out queries never reach the model: they judge, they do not teach.
    const asked = JSON.stringify(server.chatRequests().slice(seen));
    for (const query of tuning.train) expect(asked).toContain(query);
    for (const query of tuning.test) expect(asked).not.toContain(query);
    // It hears what the router did with each case that fails now.
    expect(asked).toMatch(/FAILS now \((?:went to [\w-]+|this skill: [a-z ]+)\)/);
    // Nothing is written by tuning.
    expect(fs.readFileSync(path.join(id, 'SKILL.md'), 'utf8')).toBe(SKILL_MD);
  });

  it('writes the chosen description into the frontmatter, keeping the rest, and only over the version tuned', async () => {
    const dir = catalogDir();
    const { svc, catalog } = await modelRouting(env(), [dir]);
    const id = path.join(dir, 'paperwork');
    const file = path.join(id, 'SKILL.md');
    expect(() => svc.writeDescription(id, GOOD, skillMdHash('another version'))).toThrow(/changed since/);

    svc.writeDescription(id, GOOD, skillMdHash(SKILL_MD));
    const written = fs.readFileSync(file, 'utf8');
    expect(written).toContain("# the author's comment stays");
    expect(written).toContain(`description: ${GOOD}`);
    expect(written).toContain('"emoji": "🧾"');
    expect(written.endsWith('---\n# Tool\n\nRun scripts/run.py on the file the user gives.\n')).toBe(true);
    await catalog.reload();
    expect(catalog.metadata(id)?.description).toBe(GOOD);
    expect(catalog.metadata(id)?.name).toBe('paperwork');
    expect(svc.runEvals(id).failed).toBeLessThan(CASES.length - 3);
  });

  it('says what it needs: enough cases of both answers, and a model', async () => {
    const few = catalogDir(CASES.slice(0, 3));
    const fewSvc = (await modelRouting(env(), [few])).svc;
    await expect(fewSvc.improveDescription(path.join(few, 'paperwork'))).rejects.toMatchObject({
      code: 'invalid_params',
      message: expect.stringContaining('needs at least 4 trigger-eval cases'),
    });
    const dir = catalogDir();
    const noModel = (await modelRouting({}, [dir])).svc;
    await expect(noModel.improveDescription(path.join(dir, 'paperwork'))).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining('needs a model'),
    });
  });

  it('keeps the current description when the model does no better, and says why a round gave nothing', async () => {
    const dir = catalogDir();
    const { svc } = await modelRouting(env(), [dir]);
    server.enqueue({ text: 'Handles documents.' }, { text: 'Writes poems.' });
    const tuning = await svc.improveDescription(path.join(dir, 'paperwork'), 2);
    expect(tuning.notes).toEqual(['round 1: the model gave a description already tried']);
    expect(tuning.candidates.map((c) => c.description)).toEqual(['Writes poems.']);
    expect(tuning.best).toBeNull();
  });
});

describe('the parts', () => {
  it('splits each answer 60/40, the same way every time', () => {
    const a = splitCases(CASES);
    expect(splitCases([...CASES].reverse())).toEqual(a);
    expect(a.test.filter((c) => c.should_trigger)).toHaveLength(2);
    expect(a.test.filter((c) => !c.should_trigger)).toHaveLength(1);
  });

  it('reads a description out of what a model answers', () => {
    expect(readDescription('<think>hmm</think>\n"Sorts <b>invoices</b>."')).toBe('Sorts invoices.');
    expect(readDescription('```text\nNew description: Sorts invoices.\n```')).toBe('Sorts invoices.');
    expect(readDescription('   ')).toBeNull();
    expect(readDescription('word '.repeat(400))?.length).toBeLessThanOrEqual(1024);
  });
});
