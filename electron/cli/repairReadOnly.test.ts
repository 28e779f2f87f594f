import { execa } from 'execa';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureProbeUser, PROBE_USER } from '../engine/execution/sandbox/testing/harness';
import { buildCliBundle } from '../testing/cliBundle';
import { envWithoutModel, tempDir, writeTree } from '../testing/fixtures';
import { startModelServer, type ModelServer } from '../testing/modelServer';

// `repair --apply` on a skill in a folder its user cannot write (a shared or root-owned checkout,
// given with --skills or found in the workspace). A read-only skill is repaired into a copy under
// $SKILLDECK_HOME/skills, but a --skills or workspace skill of the same name takes precedence over
// that copy: the fix was written where nothing would ever run it, the re-run ran the unrepaired
// skill and failed, and so would every later run. Root ignores modes, so the CLI runs as a
// throwaway user.
const root = tempDir('skilldeck-repair-readonly-');
const asRoot = process.getuid?.() === 0;
const SCRIPT = [
  'import csv, os',
  'rows = list(csv.DictReader(open(os.path.join(os.environ["SKILL_PATH"], "references/sample.csv"))))',
  'print(f"read {len(rows)} rows")',
  'print(sum(float(row["amount"]) for row in rows))',
  '',
].join('\n');
const DIFF = [
  '```diff',
  '--- a/scripts/total.py',
  '+++ b/scripts/total.py',
  '@@ -3,2 +3,2 @@',
  ' print(f"read {len(rows)} rows")',
  '-print(sum(float(row["amount"]) for row in rows))',
  '+print(sum(float(row["Amount"]) for row in rows))',
  '```',
].join('\n');
let server: ModelServer;

beforeAll(async () => {
  server = await startModelServer({ apiKey: 'k', models: ['m'] });
  if (!asRoot) return;
  await ensureProbeUser();
  fs.chmodSync(root, 0o755);
  await buildCliBundle(path.join(root, 'cli.cjs'));
  // Owned by root, readable by all: the throwaway user can run it, not change it.
  writeTree(path.join(root, 'shared-skills', 'csv-total'), {
    'SKILL.md':
      '---\nname: csv-total\ndescription: Totals the amount column of a CSV.\n---\nRun scripts/total.py.\n',
    'skill.yaml': 'entrypoints: [scripts/total.py]\nexecution_policy: { approval: auto }\n',
    'references/sample.csv': 'Date,Amount\n2024-01-01,12.50\n',
    'scripts/total.py': SCRIPT,
  });
  await execa('chmod', ['-R', 'a+rX,go-w', path.join(root, 'shared-skills')]);
  for (const dir of ['home', 'sd-home']) fs.mkdirSync(path.join(root, dir));
  await execa('chown', ['-R', `${PROBE_USER}:`, path.join(root, 'home'), path.join(root, 'sd-home')]);
}, 120_000);

afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const asProbe = (args: string[]) =>
  execa(
    'runuser',
    [
      '-u',
      PROBE_USER,
      '--',
      '/usr/bin/env',
      `HOME=${path.join(root, 'home')}`,
      `SKILLDECK_HOME=${path.join(root, 'sd-home')}`,
      `PATH=${envWithoutModel().PATH ?? '/usr/bin:/bin'}`,
      `OPENAI_BASE_URL=${server.baseURL}`,
      'OPENAI_API_KEY=k',
      'SKILLDECK_MODEL=m',
      process.execPath,
      path.join(root, 'cli.cjs'),
      ...args,
    ],
    { reject: false, timeout: 60_000, cwd: root },
  );

describe('skilldeck repair --apply on a skill in a folder its user cannot write', () => {
  it('does not write a copy that the read-only skill would shadow: it says why, and the diff stays for review', async (ctx) => {
    if (!asRoot) return ctx.skip('needs root to run the CLI as a throwaway user');
    server.enqueue({ text: DIFF });
    const skills = path.join(root, 'shared-skills');
    const r = await asProbe(['repair', 'csv-total', 'total it', '--apply', '--json', '--skills', skills]);
    const report = JSON.parse(r.stdout) as {
      eligible: boolean;
      proposals: { diff: string; replay: { status: string } }[];
      applied: unknown;
      apply_error?: string;
    };
    expect(report.eligible).toBe(true);
    expect(report.proposals).toHaveLength(1);
    expect(report.proposals[0].replay.status).toBe('success');
    expect(report.applied).toBeNull();
    expect(report.apply_error).toMatch(/cannot write/);
    expect(report.apply_error).toMatch(/would not be used/);
    expect(r.exitCode).toBe(1);
    expect(fs.existsSync(path.join(root, 'sd-home', 'skills', 'csv-total'))).toBe(false);
    expect(fs.readFileSync(path.join(skills, 'csv-total', 'scripts', 'total.py'), 'utf8')).toBe(SCRIPT);
  }, 90_000);
});
