import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCliBundle, runCliWithModel } from '../testing/cliBundle';
import { tempDir, writeTree } from '../testing/fixtures';
import { startModelServer, type ModelServer } from '../testing/modelServer';

// An instruction skill whose model runs the skill's script, sees it fail inside the skill's own
// code, and answers around it: the run "succeeds", but the skill is broken, as much as when its
// SKILL.md names a file it lacks (DESIGN §5: a small script bug is a near miss).
const root = tempDir('skilldeck-cli-repair-script-');
const cli = path.join(root, 'cli.cjs');
const skills = path.join(root, 'skills');
const script = path.join(skills, 'csv-sum/scripts/total.py');
let server: ModelServer;

const BUGGY = [
  'import csv, os',
  'rows = list(csv.DictReader(open(os.path.join(os.environ["SKILL_PATH"], "references/sample.csv"))))',
  'print(f"read {len(rows)} rows")',
  'print(sum(float(row["amount"]) for row in rows))',
  '',
].join('\n');

const FIX = [
  '```diff',
  '--- a/scripts/total.py',
  '+++ b/scripts/total.py',
  '@@ -3,2 +3,2 @@',
  ' print(f"read {len(rows)} rows")',
  '-print(sum(float(row["amount"]) for row in rows))',
  '+print(sum(float(row["Amount"]) for row in rows))',
  '```',
].join('\n');

beforeAll(async () => {
  await buildCliBundle(cli);
  server = await startModelServer({ apiKey: 'k', models: ['m'] });
  writeTree(skills, {
    'csv-sum/SKILL.md':
      '---\nname: csv-sum\ndescription: Totals the amount column of the sample CSV.\n---\n# CSV sum\n\nRun scripts/total.py and report the total it prints.\n',
    'csv-sum/skill.yaml': 'spec: { type: instruction }\nexecution_policy: { approval: auto }\n',
    'csv-sum/references/sample.csv': 'Date,Amount\n2024-01-01,12.50\n2024-01-02,7.25\n',
    'csv-sum/scripts/total.py': BUGGY,
  });
}, 60_000);

afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const repair = (args: string[]) =>
  runCliWithModel(
    { cli, skills, home: path.join(root, 'home'), userHome: root, baseURL: server.baseURL, apiKey: 'k' },
    ['repair', ...args],
  );

describe('skilldeck repair of an instruction skill whose script failed under its model', () => {
  it('proposes the fix to the script, proves it by replay, and changes nothing without --apply', async () => {
    const run = { toolCalls: [{ name: 'run_skill_script', arguments: { script: 'scripts/total.py' } }] };
    server.enqueue(
      run,
      { text: 'The script stopped with a KeyError, so I could not total the column.' },
      // The repair's model, asked with the failing run's stderr and the skill's files.
      { text: `The column is named Amount.\n\n${FIX}` },
      // The replay, against the patched copy: the same calls, and the script now prints the total.
      run,
      { text: 'The total is 19.75.' },
    );
    const { code, stdout } = await repair(['csv-sum', 'what is the total?', '--json']);
    const report = JSON.parse(stdout) as {
      eligible: boolean;
      reason: string;
      proposals: { error_signature: string; patched_files: string[]; replay: { status: string } }[];
    };
    expect(report.eligible).toBe(true);
    expect(report.reason).toMatch(/scripts\/total\.py stopped at line 4 with KeyError/);
    expect(report.proposals).toHaveLength(1);
    expect(report.proposals[0]).toMatchObject({
      patched_files: ['scripts/total.py'],
      replay: { status: 'success' },
    });
    expect(report.proposals[0].error_signature).toMatch(/^script_bug:KeyError/);
    expect(code).toBe(0);
    expect(fs.readFileSync(script, 'utf8')).toBe(BUGGY);
    // The replay's script ran patched: its tool result holds the total.
    const tool = server
      .chatRequests()
      .at(-1)!
      .messages.find((m) => m.role === 'tool');
    expect(JSON.stringify(tool)).toContain('19.75');
  }, 60_000);

  it('says there is nothing to repair when the script ran fine', async () => {
    fs.writeFileSync(script, BUGGY.replace('row["amount"]', 'row["Amount"]'));
    try {
      server.enqueue(
        { toolCalls: [{ name: 'run_skill_script', arguments: { script: 'scripts/total.py' } }] },
        { text: 'The total is 19.75.' },
      );
      const { code, stdout } = await repair(['csv-sum', 'what is the total?', '--json']);
      expect(JSON.parse(stdout)).toMatchObject({ eligible: false, run: { status: 'success' } });
      expect(code).toBe(0);
    } finally {
      fs.writeFileSync(script, BUGGY);
    }
  }, 60_000);
});
