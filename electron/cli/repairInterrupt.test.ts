import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { cliWithModel, startCliWithModel } from '../testing/cliBundle';

// Ctrl-C during `skilldeck repair --json`: before, the process died with 130 and printed nothing,
// so a caller piping the JSON had no record of what had been proposed or changed.
const SCRIPT = [
  'import csv, os',
  'rows = list(csv.DictReader(open(os.path.join(os.environ["SKILL_PATH"], "references/sample.csv"))))',
  'print(f"read {len(rows)} rows")',
  'print(sum(float(row["amount"]) for row in rows))',
  '',
].join('\n');
const cli = cliWithModel('skilldeck-cli-repair-interrupt-', {
  'csv-total/SKILL.md':
    '---\nname: csv-total\ndescription: Totals the amount column of a CSV.\n---\nRun scripts/total.py.\n',
  'csv-total/skill.yaml': 'entrypoints: [scripts/total.py]\nexecution_policy: { approval: auto }\n',
  'csv-total/references/sample.csv': 'Date,Amount\n2024-01-01,12.50\n',
  'csv-total/scripts/total.py': SCRIPT,
  'slow-sync/SKILL.md': '---\nname: slow-sync\ndescription: Syncs slowly.\n---\nRun scripts/sync.py.\n',
  'slow-sync/skill.yaml': 'entrypoints: [scripts/sync.py]\nexecution_policy: { approval: auto }\n',
  'slow-sync/scripts/sync.py': 'import time\nprint("syncing", flush=True)\ntime.sleep(60)\n',
});

afterEach(() => {
  // A stream held for the test goes on, so the server is not left waiting on it.
  for (let i = 0; i < 3; i++) cli.server.release();
});

async function until(what: string, ok: () => boolean): Promise<void> {
  for (const started = Date.now(); !ok(); await sleep(50))
    if (Date.now() - started > 30_000) throw new Error(`timed out waiting for ${what}`);
}

/** Starts `repair`, sends SIGINT once `ready` holds, and returns the exit code and parsed stdout. */
async function interruptedRepair(
  args: string[],
  ready: (home: string) => boolean,
  signal: NodeJS.Signals = 'SIGINT',
) {
  const where = {
    cli: path.join(cli.root, 'cli.cjs'),
    skills: cli.skills,
    home: path.join(cli.root, `home-int-${Date.now()}`),
    userHome: cli.root,
    baseURL: cli.server.baseURL,
    apiKey: 'k',
  };
  const { child, done } = startCliWithModel(where, ['repair', ...args, '--json']);
  await until('the moment to interrupt', () => ready(where.home));
  child.kill(signal);
  const { code, stdout } = await done;
  return { code, report: JSON.parse(stdout) as Record<string, unknown> };
}

const diff = (from: string, to: string) =>
  [
    '```diff',
    '--- a/scripts/total.py',
    '+++ b/scripts/total.py',
    '@@ -3,2 +3,2 @@',
    ' print(f"read {len(rows)} rows")',
    `-print(sum(float(row["${from}"]) for row in rows))`,
    `+print(sum(float(row["${to}"]) for row in rows))`,
    '```',
  ].join('\n');

describe('skilldeck repair --json stopped with Ctrl-C', () => {
  it('while the model writes its first proposal: one JSON report saying so, exit 130, the skill as it was', async () => {
    const before = cli.server.chatRequests().length;
    cli.server.enqueue({ text: diff('amount', 'Amount'), holdAfter: 0 });
    const { code, report } = await interruptedRepair(
      ['csv-total', 'total it', '--apply'],
      () => cli.server.chatRequests().length > before,
    );
    expect(code).toBe(130);
    expect(report).toMatchObject({ eligible: true, proposals: [], applied: null, interrupted: true });
    expect(report.reason).toMatch(/Stopped before the repair finished: the command was interrupted/);
    expect(fs.readFileSync(path.join(cli.skills, 'csv-total/scripts/total.py'), 'utf8')).toBe(SCRIPT);
  }, 60_000);

  it('during the second attempt: the first attempt’s replayed proposal is in the report, nothing applied', async () => {
    const before = cli.server.chatRequests().length;
    // Attempt 1 gets further (another KeyError); attempt 2's answer never comes.
    cli.server.enqueue({ text: diff('amount', 'AMOUNT') }, { text: diff('AMOUNT', 'Amount'), holdAfter: 0 });
    const { code, report } = await interruptedRepair(
      ['csv-total', 'total it', '--apply'],
      () => cli.server.chatRequests().length > before + 1,
    );
    expect(code).toBe(130);
    expect(report).toMatchObject({ eligible: true, applied: null, interrupted: true });
    const proposals = report.proposals as { diff: string; replay: { status: string } }[];
    expect(proposals).toHaveLength(1);
    expect(proposals[0].diff).toContain('+print(sum(float(row["AMOUNT"]) for row in rows))');
    expect(proposals[0].replay.status).toBe('failure');
    expect(fs.readFileSync(path.join(cli.skills, 'csv-total/scripts/total.py'), 'utf8')).toBe(SCRIPT);
  }, 60_000);

  it('during the run itself: the stopped run is reported, no model is asked', async () => {
    const before = cli.server.chatRequests().length;
    const { code, report } = await interruptedRepair(['slow-sync', 'sync it'], runsStarted);
    expect(code).toBe(130);
    expect(report).toMatchObject({ eligible: false, interrupted: true, run: { status: 'cancelled' } });
    expect(report.reason).toMatch(/Stopped during the run/);
    expect(cli.server.chatRequests().length).toBe(before);
  }, 60_000);

  it('SIGTERM (as `timeout` sends) during the model call: the same report, exit 143', async () => {
    const before = cli.server.chatRequests().length;
    cli.server.enqueue({ text: diff('amount', 'Amount'), holdAfter: 0 });
    const { code, report } = await interruptedRepair(
      ['csv-total', 'total it'],
      () => cli.server.chatRequests().length > before,
      'SIGTERM',
    );
    expect(code).toBe(143);
    expect(report).toMatchObject({ eligible: true, proposals: [], applied: null, interrupted: true });
  }, 60_000);
});

/** A run is under way in `home`: its record says so. */
function runsStarted(home: string): boolean {
  const runs = path.join(home, 'runs');
  if (!fs.existsSync(runs)) return false;
  return fs
    .readdirSync(runs, { recursive: true, encoding: 'utf8' })
    .some((f) => f.endsWith('.json') && fs.readFileSync(path.join(runs, f), 'utf8').includes('"running"'));
}
