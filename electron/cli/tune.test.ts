import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DescriptionTuning, EvalReport } from '../../shared/contract';
import { buildCliBundle, runCliWithModel } from '../testing/cliBundle';
import { tempDir, writeTree } from '../testing/fixtures';
import { startModelServer, type ModelServer } from '../testing/modelServer';

// `skilldeck eval SKILL --improve`: description tuning as a real process, the model scripted.
const KEY = 'sk-tune-0123456789abcdef';
const root = tempDir('skilldeck-cli-tune-');
const cli = path.join(root, 'cli.cjs');
const skills = path.join(root, 'skills');
const file = path.join(skills, 'paperwork', 'SKILL.md');
const SKILL_MD = '---\nname: paperwork\ndescription: Handles documents.\n---\nRun scripts/run.py.\n';
const GOOD =
  'Extracts totals and VAT from invoices and receipts and files them by vendor. Use when the user asks to extract, total, file or organize invoices or receipts. Not for weather or CSV statistics.';
let server: ModelServer;

beforeAll(async () => {
  await buildCliBundle(cli);
  server = await startModelServer({ apiKey: KEY, models: ['m'] });
  writeTree(skills, {
    'paperwork/SKILL.md': SKILL_MD,
    'paperwork/evals/trigger_evals.json': JSON.stringify([
      { query: 'extract the totals from these invoices', should_trigger: true },
      { query: 'organize my invoices by vendor', should_trigger: true },
      { query: 'pull the VAT amount out of this invoice', should_trigger: true },
      { query: 'file these receipts by vendor', should_trigger: true },
      { query: 'what is the weather in Lyon tomorrow', should_trigger: false },
      { query: 'give me stats on this csv table', should_trigger: false },
    ]),
    'weather/SKILL.md':
      '---\nname: weather\ndescription: Current weather and forecasts for a city.\n---\nx\n',
  });
}, 60_000);

afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const tune = (...args: string[]) =>
  runCliWithModel(
    { cli, skills, home: path.join(root, 'home'), userHome: root, baseURL: server.baseURL, apiKey: KEY },
    ['eval', 'paperwork', '--improve', ...args],
  );

describe('skilldeck eval SKILL --improve', () => {
  it('shows each description’s train and held-out score, and writes nothing without --apply', async () => {
    server.enqueue({ text: GOOD });
    const { code, stdout } = await tune('--rounds', '1');
    expect(code).toBe(0);
    expect(stdout).toMatch(/3 cases to learn from, 3 held out/);
    expect(stdout).toMatch(/current {3}train \d\/3 {2}held-out \d\/3 {2}Handles documents\./);
    expect(stdout).toContain(`round 1   train 3/3`);
    expect(stdout).toContain('Nothing was written; --apply writes it into SKILL.md.');
    expect(fs.readFileSync(file, 'utf8')).toBe(SKILL_MD);
  });

  it('--apply --json writes the best into SKILL.md and runs the evals on it', async () => {
    server.enqueue({ text: GOOD });
    const { code, stdout } = await tune('--rounds', '1', '--apply', '--json');
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as DescriptionTuning & { applied: boolean; report: EvalReport };
    expect(DescriptionTuning.parse(out).best).toBe(0);
    expect(out.applied).toBe(true);
    expect(EvalReport.parse(out.report).failed).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(SKILL_MD.replace('Handles documents.', GOOD));
  });

  it('a model that fails: the current description stays, and the reason is given', async () => {
    fs.writeFileSync(file, SKILL_MD);
    server.enqueue({ error: { status: 500, message: 'upstream exploded' } });
    const { code, stdout } = await tune('--rounds', '1', '--apply');
    expect(code).toBe(1);
    expect(stdout).toMatch(/\(round 1: .*500/);
    expect(stdout).toContain('it stays');
    expect(fs.readFileSync(file, 'utf8')).toBe(SKILL_MD);
  });
});
