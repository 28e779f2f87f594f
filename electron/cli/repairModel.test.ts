import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCliBundle, runCliWithModel } from '../testing/cliBundle';
import { tempDir, writeTree } from '../testing/fixtures';
import { requestText, startModelServer, type ModelServer } from '../testing/modelServer';

// `skilldeck repair` when the model endpoint fails: a real process, the scripted server on loopback.
const KEY = 'sk-repair-0123456789abcdef';
const root = tempDir('skilldeck-cli-repair-model-');
const cli = path.join(root, 'cli.cjs');
const skills = path.join(root, 'skills');
const home = path.join(root, 'home');
let server: ModelServer;

beforeAll(async () => {
  await buildCliBundle(cli);
  server = await startModelServer({ apiKey: KEY, models: ['m'] });
  writeTree(skills, {
    'csv-total/SKILL.md':
      '---\nname: csv-total\ndescription: Totals the amount column of a CSV.\n---\nRun scripts/total.py.\n',
    'csv-total/skill.yaml': 'entrypoints: [scripts/total.py]\nexecution_policy: { approval: auto }\n',
    'csv-total/references/sample.csv': 'Date,Amount\n2024-01-01,12.50\n',
    'csv-total/scripts/total.py': [
      'import csv, os',
      'rows = list(csv.DictReader(open(os.path.join(os.environ["SKILL_PATH"], "references/sample.csv"))))',
      'print(f"read {len(rows)} rows")',
      'print(sum(float(row["amount"]) for row in rows))',
      '',
    ].join('\n'),
  });
}, 60_000);

afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const repair = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCliWithModel(
    { cli, skills, home, userHome: root, baseURL: server.baseURL, apiKey: KEY },
    ['repair', ...args],
    env,
  );

const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));

describe('skilldeck repair: a model endpoint that refuses the key', () => {
  it('says so in the endpoint’s words, never echoes the key, and does not ask twice', async () => {
    // OpenAI's 401 repeats the key it got; a key from the environment is never shown or stored.
    server.enqueue({ error: { status: 401, message: `Incorrect API key provided: ${KEY}.` } });
    const { code, stdout } = await repair(['csv-total', 'total it', '--json']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { eligible: boolean; reason: string; proposals: unknown[] };
    expect(report).toMatchObject({ eligible: true, proposals: [] });
    expect(report.reason).toContain(`401: the key was refused by ${server.baseURL}`);
    expect(stdout).not.toContain(KEY.slice(0, 12));
    for (const file of filesUnder(home)) expect(fs.readFileSync(file, 'utf8'), file).not.toContain(KEY);
    expect(server.chatRequests()).toHaveLength(1);
  });
});

describe('skilldeck repair: a model endpoint that goes silent', () => {
  it('stops at the stall limit, says so, and does not ask twice', async () => {
    const before = server.chatRequests().length;
    // The first byte of the answer would come after a minute.
    server.enqueue({ text: 'NO_FIX: never sent', delayMs: 60_000 });
    const started = Date.now();
    const { code, stdout } = await repair(['csv-total', 'total it', '--json'], {
      SKILLDECK_MODEL_STALL_SECONDS: '1',
    });
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { eligible: boolean; reason: string; proposals: unknown[] };
    expect(report).toMatchObject({ eligible: true, proposals: [] });
    expect(report.reason).toContain('The model did not answer: it sent nothing for 1 s.');
    expect(server.chatRequests().length - before).toBe(1);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 40_000);
});

describe('skilldeck repair: an overloaded model endpoint', () => {
  it('says it is overloaded and does not ask again at once for a second attempt', async () => {
    const before = server.chatRequests().length;
    // A handler, so the second answer (never asked for) is not left queued for the next test.
    const left = [
      { error: { status: 529, message: 'Overloaded', type: 'overloaded_error' } },
      { text: 'NO_FIX: the second attempt should not have been asked for' },
    ];
    server.setHandler(() => left.shift() ?? { text: 'NO_FIX: nothing scripted' });
    const { code, stdout } = await repair(['csv-total', 'total it', '--json']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { eligible: boolean; reason: string; proposals: unknown[] };
    expect(report).toMatchObject({ eligible: true, proposals: [] });
    expect(report.reason).toContain(
      `529: the server at ${server.baseURL} is overloaded; wait a little and retry.`,
    );
    expect(server.chatRequests().length - before).toBe(1);
    server.setHandler(null);
  }, 40_000);
});

describe('skilldeck repair: an answer the model’s output limit cut off', () => {
  const DIFF = [
    '```diff',
    '--- a/scripts/total.py',
    '+++ b/scripts/total.py',
    '@@ -4 +4 @@',
    '-print(sum(float(row["amount"]) for row in rows))',
    '+print(sum(float(row["Amount"]) for row in rows))',
    '```',
  ].join('\n');

  it('inside its diff is called cut off, to the user and to the next attempt, not a patch that does not apply', async () => {
    const before = server.chatRequests().length;
    const cut = `ROOT_CAUSE: the column is Amount\n${DIFF.slice(0, DIFF.indexOf('-print') + 20)}`;
    server.enqueue({ text: cut, finishReason: 'length' }, { text: cut, finishReason: 'length' });
    const { code, stdout } = await repair(['csv-total', 'total it', '--json']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { reason: string; proposals: unknown[] };
    expect(report.proposals).toEqual([]);
    expect(report.reason).toContain("cut off at the model's output limit before its diff ended");
    expect(report.reason).not.toContain('does not apply');
    const second = server.chatRequests()[before + 1];
    expect(requestText(second)).toContain("cut off at the model's output limit before its diff ended");
  }, 40_000);

  it('after its diff keeps the diff, without the cut-off note in it', async () => {
    server.enqueue({
      text: `ROOT_CAUSE: the column is Amount\n${DIFF}\nEXPECTED_EFFECT: the total prints, and then a long`,
      finishReason: 'length',
    });
    const { code, stdout } = await repair(['csv-total', 'total it', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { proposals: { diff: string; replay: { status: string } }[] };
    expect(report.proposals).toHaveLength(1);
    expect(report.proposals[0].replay.status).toBe('success');
    expect(report.proposals[0].diff).not.toContain('output limit');
  }, 40_000);
});

// `repair --apply --json` when no proposal passed its replay: the text output said "Nothing
// applied: no proposal passed its replay", the JSON only `applied: null`, which a script cannot
// tell from a run without --apply; and a replay's status alone did not say how it was judged.
describe('skilldeck repair --apply: no proposal passed its replay', () => {
  it('the JSON says nothing was applied and why, with each replay’s verdict; the skill is unchanged', async () => {
    const script = path.join(skills, 'csv-total', 'scripts', 'total.py');
    const original = fs.readFileSync(script);
    const wrong = [
      'ROOT_CAUSE: the column name is misspelt',
      'EXPECTED_EFFECT: the total prints',
      '```diff',
      '--- a/scripts/total.py',
      '+++ b/scripts/total.py',
      '@@ -4 +4 @@',
      '-print(sum(float(row["amount"]) for row in rows))',
      '+print(sum(float(row["AMOUNT"]) for row in rows))',
      '```',
    ].join('\n');
    server.enqueue({ text: wrong }, { text: wrong.replace('AMOUNT', 'amt') });
    const { code, stdout } = await repair(['csv-total', 'total it', '--apply', '--json']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as {
      applied: unknown;
      apply_error?: string;
      proposals: { replay: { status: string; verdict?: string; summary?: string } }[];
    };
    expect(report.applied).toBeNull();
    expect(report.apply_error).toBe('Not applied: no proposal passed its replay.');
    expect(report.proposals.length).toBeGreaterThan(0);
    for (const { replay } of report.proposals) {
      expect(replay.status).toBe('failure');
      expect(replay.verdict).toMatch(/^(?:same_failure|fails_differently)$/);
      expect(replay.summary).toMatch(/KeyError/);
    }
    expect(fs.readFileSync(script).equals(original)).toBe(true);
  }, 60_000);
});
