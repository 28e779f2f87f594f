import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCliBundle, runCliWithModel, type CliWithModel } from '../testing/cliBundle';
import { tempDir, writeTree } from '../testing/fixtures';
import { startModelServer, type ModelServer } from '../testing/modelServer';

// DESIGN §5: "any repair can be undone byte for byte". `repair --apply` changes the skill from the
// command line, so the command line can take it back: `repair SKILL --undo [REVISION]`. A real
// process, a real failing script in bwrap, the scripted server on loopback; one $SKILLDECK_HOME per
// test, kept across its commands.
const root = tempDir('skilldeck-cli-repair-undo-');
const cli = path.join(root, 'cli.cjs');
let server: ModelServer;
let count = 0;

// CRLF and no final newline: "byte for byte" is checked on bytes an editor would not write back.
const SCRIPT =
  'import csv, os\r\nrows = list(csv.DictReader(open(os.path.join(os.environ["SKILL_PATH"], "references/sample.csv"))))\r\nprint(f"read {len(rows)} rows")\r\nprint(sum(float(row["amount"]) for row in rows))';

const FIX = [
  'ROOT_CAUSE: the header says Amount.',
  'EXPECTED_EFFECT: the total prints.',
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
  server = await startModelServer({ apiKey: 'k', models: ['m'], fallback: { text: 'NO_FIX: nothing else' } });
}, 60_000);

afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

function setup(): CliWithModel & { script: string } {
  const n = ++count;
  const skills = path.join(root, `skills${n}`);
  writeTree(path.join(skills, 'csv-total'), {
    'SKILL.md':
      '---\nname: csv-total\ndescription: Totals the amount column of a CSV.\n---\nRun scripts/total.py.\n',
    'skill.yaml': 'entrypoints: [scripts/total.py]\nexecution_policy: { approval: auto }\n',
    'references/sample.csv': 'Date,Amount\n2024-01-01,12.50\n2024-01-02,7.50\n',
    'scripts/total.py': SCRIPT,
  });
  const where = {
    cli,
    skills,
    home: path.join(root, `home${n}`),
    userHome: root,
    baseURL: server.baseURL,
    apiKey: 'k',
  };
  return { ...where, script: path.join(skills, 'csv-total', 'scripts', 'total.py') };
}

interface Revision {
  revision: string;
  skill: string;
  files: { path: string }[];
  undone_at: string | null;
}

async function applyFix(where: CliWithModel): Promise<Revision> {
  server.enqueue({ text: FIX });
  const { code, stdout } = await runCliWithModel(where, [
    'repair',
    'csv-total',
    'total it',
    '--apply',
    '--json',
  ]);
  expect(code).toBe(0);
  const report = JSON.parse(stdout) as { applied: Revision; retry: { status: string } };
  expect(report.retry.status).toBe('success');
  return report.applied;
}

describe('skilldeck repair SKILL --undo', () => {
  it('puts the applied repair back byte for byte, and the task fails again as before', async () => {
    const where = setup();
    const applied = await applyFix(where);
    expect(fs.readFileSync(where.script, 'utf8')).toContain('row["Amount"]');

    const undo = await runCliWithModel(where, ['repair', 'csv-total', '--undo', '--json']);
    expect(undo.stderr).toBe('');
    expect(undo.code).toBe(0);
    const undone = JSON.parse(undo.stdout) as { undone: Revision };
    expect(undone.undone).toMatchObject({
      revision: applied.revision,
      skill: 'csv-total',
      files: [{ path: 'scripts/total.py' }],
      undone_at: expect.any(String),
    });
    expect(fs.readFileSync(where.script, 'utf8')).toBe(SCRIPT);

    const run = await runCliWithModel(where, ['run', 'csv-total', 'total it', '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      status: 'failure',
      error: expect.stringContaining('KeyError'),
    });

    // Nothing left to undo: said, exit 1, nothing touched.
    const again = await runCliWithModel(where, ['repair', 'csv-total', '--undo', '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toEqual({
      error: 'csv-total has no applied repair to undo.',
    });
    expect(fs.readFileSync(where.script, 'utf8')).toBe(SCRIPT);
  }, 90_000);

  it('refuses when the file changed after the repair, and names a revision it does not know', async () => {
    const where = setup();
    const applied = await applyFix(where);
    const edited = `${fs.readFileSync(where.script, 'utf8')}\r\nprint("mine")\r\n`;
    fs.writeFileSync(where.script, edited);

    const undo = await runCliWithModel(where, ['repair', 'csv-total', '--undo']);
    expect(undo.code).toBe(1);
    expect(undo.stderr).toContain(`Cannot undo ${applied.revision}: scripts/total.py changed after it`);
    expect(fs.readFileSync(where.script, 'utf8')).toBe(edited);

    const unknown = await runCliWithModel(where, ['repair', 'csv-total', '--undo', 'r-nope', '--json']);
    expect(unknown.code).toBe(1);
    expect((JSON.parse(unknown.stdout) as { error: string }).error).toBe(
      `csv-total has no revision r-nope; its revisions: ${applied.revision}.`,
    );
    expect(fs.readFileSync(where.script, 'utf8')).toBe(edited);
  }, 90_000);
});
