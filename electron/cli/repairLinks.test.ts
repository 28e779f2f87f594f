import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCliBundle, runCliWithModel } from '../testing/cliBundle';
import { tempDir, writeTree } from '../testing/fixtures';
import { startModelServer, type ModelServer } from '../testing/modelServer';

// `skilldeck repair` on a skill whose references/ folder is a link to a folder outside it: a
// real process, a real failing script, the scripted server on loopback.
const root = tempDir('skilldeck-cli-repair-links-');
const cli = path.join(root, 'cli.cjs');
const outside = path.join(root, 'outside');
let server: ModelServer;
let count = 0;

beforeAll(async () => {
  await buildCliBundle(cli);
  server = await startModelServer({ apiKey: 'k', models: ['m'], fallback: { text: 'NO_FIX: nothing else' } });
}, 60_000);

afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const FIX = [
  '--- a/scripts/total.py',
  '+++ b/scripts/total.py',
  '@@ -3,2 +3,2 @@',
  ' print(f"read {len(rows)} rows")',
  '-print(sum(float(row["amount"]) for row in rows))',
  '+print(sum(float(row["Amount"]) for row in rows))',
].join('\n');

async function repairWith(answer: string, link: string | null, prepareHome?: (home: string) => void) {
  const skills = path.join(root, `skills${++count}`);
  const dir = path.join(skills, 'csv-total');
  fs.rmSync(outside, { recursive: true, force: true });
  writeTree(outside, { 'notes.md': 'outside notes\n' });
  writeTree(dir, {
    'SKILL.md':
      '---\nname: csv-total\ndescription: Totals the amount column of a CSV.\n---\nRun scripts/total.py.\n',
    'skill.yaml': 'entrypoints: [scripts/total.py]\nexecution_policy: { approval: auto }\n',
    'docs/sample.csv': 'Date,Amount\n2024-01-01,12.50\n',
    'scripts/total.py': [
      'import csv, os',
      'rows = list(csv.DictReader(open(os.path.join(os.environ["SKILL_PATH"], "docs/sample.csv"))))',
      'print(f"read {len(rows)} rows")',
      'print(sum(float(row["amount"]) for row in rows))',
      '',
    ].join('\n'),
  });
  if (link) fs.symlinkSync(link, path.join(dir, 'references'));
  const home = path.join(root, `home${count}`);
  prepareHome?.(home);
  server.enqueue({ text: answer });
  const { code, stdout } = await runCliWithModel(
    {
      cli,
      skills,
      home,
      userHome: root,
      baseURL: server.baseURL,
      apiKey: 'k',
    },
    ['repair', 'csv-total', 'total it', '--json', '--apply'],
  );
  return { code, stdout, dir };
}

describe('skilldeck repair: a patch into a folder that is a link out of the skill', () => {
  for (const [what, link] of [
    ['an absolute link', outside],
    ['a relative link', '../../outside'],
  ])
    it(`refuses to create a file through ${what}, writes nothing outside, and still answers in JSON`, async () => {
      const created = '--- /dev/null\n+++ b/references/new.md\n@@ -0,0 +1 @@\n+written outside\n';
      const { code, stdout } = await repairWith(`\`\`\`diff\n${FIX}\n${created}\`\`\``, link);
      expect(fs.readdirSync(outside)).toEqual(['notes.md']);
      const report = JSON.parse(stdout) as {
        eligible: boolean;
        reason: string;
        proposals: unknown[];
        applied: unknown;
      };
      expect(report).toMatchObject({ eligible: true, proposals: [], applied: null });
      expect(report.reason).toContain(
        'Stopped: Refused: references/new.md goes through references, a symbolic link; repairs never write through links.',
      );
      expect(code).toBe(1);
    }, 60_000);
});

describe('skilldeck repair --apply: a write that fails', () => {
  it('still answers in JSON, says why nothing was applied, and leaves the skill as it was', async () => {
    // A file where the revision's folder must go: the apply's mkdir fails after the replay passed.
    const { code, stdout, dir } = await repairWith(`\`\`\`diff\n${FIX}\n\`\`\``, null, (home) =>
      writeTree(home, { 'repairs/csv-total': 'not a folder\n' }),
    );
    const report = JSON.parse(stdout) as {
      eligible: boolean;
      proposals: { replay: { status: string } }[];
      applied: unknown;
      apply_error?: string;
    };
    expect(report.eligible).toBe(true);
    expect(report.proposals[0].replay.status).toBe('success');
    expect(report.applied).toBeNull();
    expect(report.apply_error).toMatch(/^Not applied: .*ENOTDIR/);
    expect(fs.readFileSync(path.join(dir, 'scripts/total.py'), 'utf8')).toContain('row["amount"]');
    expect(code).toBe(1);
  }, 60_000);
});
