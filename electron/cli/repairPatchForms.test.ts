import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCliBundle, runCliWithModel } from '../testing/cliBundle';
import { tempDir, writeTree } from '../testing/fixtures';
import { startModelServer, type ModelServer } from '../testing/modelServer';

// `skilldeck repair` against answers the way real models write them: a real process, a real
// failing script, the scripted server on loopback. Each test gets its own copy of the skill.
const root = tempDir('skilldeck-cli-repair-forms-');
const cli = path.join(root, 'cli.cjs');
let server: ModelServer;
let count = 0;

const SCRIPT = [
  'import csv, os',
  'rows = list(csv.DictReader(open(os.path.join(os.environ["SKILL_PATH"], "references/sample.csv"))))',
  'print(f"read {len(rows)} rows")',
  'print(sum(float(row["amount"]) for row in rows))',
  '',
].join('\n');

beforeAll(async () => {
  await buildCliBundle(cli);
  server = await startModelServer({ apiKey: 'k', models: ['m'], fallback: { text: 'NO_FIX: nothing else' } });
}, 60_000);

afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

/** A fresh copy of the KeyError skill (the CSV header says `Amount`), in its own discovery folder. */
function freshSkill(files: Record<string, string> = {}) {
  const skills = path.join(root, `skills${++count}`);
  writeTree(path.join(skills, 'csv-total'), {
    'SKILL.md':
      '---\nname: csv-total\ndescription: Totals the amount column of a CSV.\n---\nRun scripts/total.py.\n',
    'skill.yaml': 'entrypoints: [scripts/total.py]\nexecution_policy: { approval: auto }\n',
    'references/sample.csv': 'Date,Amount\n2024-01-01,12.50\n2024-01-02,7.50\n',
    'scripts/total.py': SCRIPT,
    ...files,
  });
  return skills;
}

const hashes = (dir: string) =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const file = path.join(e.parentPath, e.name);
      return `${path.relative(dir, file)} ${createHash('sha256').update(fs.readFileSync(file)).digest('hex')}`;
    })
    .sort();

interface Report {
  eligible: boolean;
  reason: string;
  proposals: { patched_files: string[]; root_cause: string; diff: string; replay: { status: string } }[];
  applied: unknown;
}

/** Runs `repair csv-total` with these model answers queued; the skill's bytes never change. */
async function repairWith(answers: string[], files?: Record<string, string>) {
  const skills = freshSkill(files);
  const before = hashes(skills);
  const asked = server.chatRequests().length;
  server.enqueue(...answers.map((text) => ({ text })));
  const { code, stdout, stderr } = await runCliWithModel(
    {
      cli,
      skills,
      home: path.join(root, `home${count}`),
      userHome: root,
      baseURL: server.baseURL,
      apiKey: 'k',
    },
    ['repair', 'csv-total', 'total it', '--json'],
  );
  expect(stderr).toBe('');
  expect(hashes(skills)).toEqual(before);
  const requests = server.chatRequests().slice(asked);
  return { code, report: JSON.parse(stdout) as Report, requests };
}

const lastUserMessage = (request: { messages: { role: string; content?: unknown }[] }) =>
  String(request.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');

const FIXED_LINE = '+print(sum(float(row["Amount"]) for row in rows))';
const FIX = [
  'ROOT_CAUSE: the header says Amount.',
  'EXPECTED_EFFECT: the total prints.',
  '```diff',
  '--- a/scripts/total.py',
  '+++ b/scripts/total.py',
  '@@ -3,2 +3,2 @@',
  ' print(f"read {len(rows)} rows")',
  '-print(sum(float(row["amount"]) for row in rows))',
  FIXED_LINE,
  '```',
].join('\n');

describe('skilldeck repair: a patch for a file the skill does not have', () => {
  it('says the file does not exist and lets the model try again, rather than stopping as if it added a script', async () => {
    // Models guess file names; a hunk that edits scripts/main.py adds nothing, it just misses.
    const guessed = FIX.replaceAll('scripts/total.py', 'scripts/main.py');
    const { code, report, requests } = await repairWith([guessed, FIX]);
    expect(requests).toHaveLength(2);
    expect(lastUserMessage(requests[1])).toContain(
      'It was refused: Refused: scripts/main.py does not exist in the skill, so the patch does not apply.',
    );
    expect(code).toBe(0);
    expect(report.proposals).toHaveLength(1);
    expect(report.proposals[0]).toMatchObject({
      patched_files: ['scripts/total.py'],
      replay: { status: 'success' },
    });
  }, 60_000);
});

describe('skilldeck repair: patches in Codex’s and Aider’s forms', () => {
  // Both tools apply these forms themselves, and models tuned on them write them unasked.
  it('applies a Codex apply_patch envelope, replays it and proposes it as a unified diff', async () => {
    const codex = [
      'The header says Amount.',
      '*** Begin Patch',
      '*** Update File: scripts/total.py',
      '@@',
      ' print(f"read {len(rows)} rows")',
      '-print(sum(float(row["amount"]) for row in rows))',
      FIXED_LINE,
      '*** End Patch',
    ].join('\n');
    const { code, report, requests } = await repairWith([codex]);
    expect(requests).toHaveLength(1);
    expect(code).toBe(0);
    expect(report.proposals).toHaveLength(1);
    expect(report.proposals[0]).toMatchObject({
      patched_files: ['scripts/total.py'],
      root_cause: 'The header says Amount.',
      replay: { status: 'success' },
    });
    expect(report.proposals[0].diff).toContain(`--- a/scripts/total.py\n+++ b/scripts/total.py\n`);
    expect(report.proposals[0].diff).toContain(FIXED_LINE);
  }, 60_000);

  it('applies Aider SEARCH/REPLACE blocks, the path on the line above the fence', async () => {
    const aider = [
      'ROOT_CAUSE: the header says Amount.',
      '',
      'scripts/total.py',
      '```python',
      '<<<<<<< SEARCH',
      'print(sum(float(row["amount"]) for row in rows))',
      '=======',
      FIXED_LINE.slice(1),
      '>>>>>>> REPLACE',
      '```',
    ].join('\n');
    const { code, report } = await repairWith([aider]);
    expect(code).toBe(0);
    expect(report.proposals[0]).toMatchObject({
      patched_files: ['scripts/total.py'],
      replay: { status: 'success' },
    });
    expect(report.proposals[0].diff).toContain(FIXED_LINE);
  }, 60_000);

  it('holds them to the same rules: a Codex Delete File is refused and ends the repair', async () => {
    const codex = '*** Begin Patch\n*** Delete File: references/sample.csv\n*** End Patch\n';
    const { code, report, requests } = await repairWith([codex]);
    expect(requests).toHaveLength(1);
    expect(code).toBe(1);
    expect(report.proposals).toEqual([]);
    expect(report.reason).toContain(
      'Stopped: Refused: it deletes references/sample.csv; a repair only edits files.',
    );
  }, 60_000);
});

describe('skilldeck repair: a hunk quoting a tab-indented script with spaces', () => {
  it('places it with whitespace ignored and writes the added line with the file’s tab, so Python runs it', async () => {
    const tabbed = [
      'import csv, os',
      'def main():',
      '\trows = list(csv.DictReader(open(os.path.join(os.environ["SKILL_PATH"], "references/sample.csv"))))',
      '\tprint(f"read {len(rows)} rows")',
      '\tprint(sum(float(row["amount"]) for row in rows))',
      'main()',
      '',
    ].join('\n');
    const spaced = [
      'ROOT_CAUSE: the header says Amount.',
      '```diff',
      '--- a/scripts/total.py',
      '+++ b/scripts/total.py',
      '@@ -4,2 +4,2 @@',
      '     print(f"read {len(rows)} rows")',
      '-    print(sum(float(row["amount"]) for row in rows))',
      '+    print(sum(float(row["Amount"]) for row in rows))',
      '```',
    ].join('\n');
    const { code, report, requests } = await repairWith([spaced], { 'scripts/total.py': tabbed });
    expect(requests).toHaveLength(1);
    expect(code).toBe(0);
    expect(report.proposals[0]).toMatchObject({ replay: { status: 'success' } });
    expect(report.proposals[0].diff).toContain(
      '-\tprint(sum(float(row["amount"]) for row in rows))\n+\tprint(sum(float(row["Amount"]) for row in rows))\n',
    );
  }, 60_000);
});

describe('skilldeck repair: paths written from the folder above the skill', () => {
  it('reads csv-total/scripts/total.py as the skill’s own scripts/total.py', async () => {
    // The model sees the skill's name and the run's paths (…/skills/csv-total/scripts/total.py).
    const prefixed = FIX.replaceAll('/scripts/total.py', '/skills/csv-total/scripts/total.py');
    const { code, report, requests } = await repairWith([prefixed]);
    expect(requests).toHaveLength(1);
    expect(code).toBe(0);
    expect(report.proposals[0]).toMatchObject({
      patched_files: ['scripts/total.py'],
      replay: { status: 'success' },
    });
  }, 60_000);
});

describe('skilldeck repair: a patch that applies but does not fix', () => {
  it('says which error the replay still ends in, not the traceback lines above it', async () => {
    const noop = FIX.replace(FIXED_LINE, '+print(sum(float(row["amount"]) for row in list(rows)))');
    const { code, report } = await repairWith([noop]);
    expect(code).toBe(1);
    expect(report.proposals).toEqual([]);
    expect(report.reason).toMatch(
      /\. No improvement, stopping early: Same failure: exit 1: KeyError: 'amount'$/,
    );
  }, 60_000);

  it('does the same for a Node stack, whose last lines are frames in node:internal', async () => {
    const script = [
      "const fs = require('fs');",
      "const rows = JSON.parse(fs.readFileSync(process.env.SKILL_PATH + '/references/data.json', 'utf8'));",
      'console.log(`read ${rows.length} rows`);',
      'console.log(rows.reduce((s, r) => s + r.amount.value, 0));',
      '',
    ].join('\n');
    const noop = [
      '```diff',
      '--- a/scripts/total.js',
      '+++ b/scripts/total.js',
      '@@ -4 +4 @@',
      '-console.log(rows.reduce((s, r) => s + r.amount.value, 0));',
      '+console.log(rows.reduce((sum, r) => sum + r.amount.value, 0));',
      '```',
    ].join('\n');
    const { report } = await repairWith([noop], {
      'skill.yaml': 'entrypoints: [scripts/total.js]\nexecution_policy: { approval: auto }\n',
      'references/data.json': '[{"Amount": 2}]\n',
      'scripts/total.js': script,
    });
    expect(report.reason).toMatch(
      /Same failure: exit 1: TypeError: Cannot read properties of undefined \(reading 'value'\)$/,
    );
  }, 60_000);
});

describe('skilldeck repair: two diffs for the same file in one answer', () => {
  const block = (line: string) =>
    [
      '```diff',
      '--- a/scripts/total.py',
      '+++ b/scripts/total.py',
      '@@ -3,2 +3,2 @@',
      ' print(f"read {len(rows)} rows")',
      '-print(sum(float(row["amount"]) for row in rows))',
      line,
      '```',
    ].join('\n');

  it('takes the same diff written twice once', async () => {
    const twice = `Here is the fix:\n${block(FIXED_LINE)}\nThe final patch, to apply as is:\n${block(FIXED_LINE)}\n`;
    const { code, report, requests } = await repairWith([twice]);
    expect(requests).toHaveLength(1);
    expect(code).toBe(0);
    expect(report.proposals[0]).toMatchObject({ replay: { status: 'success' } });
  }, 60_000);

  it('takes the last one when the model revised its first ("Actually, better: …")', async () => {
    const revised = `First try:\n${block('+print(sum(float(row["AMOUNT"]) for row in rows))')}\nActually, better:\n${block(FIXED_LINE)}\n`;
    const { code, report } = await repairWith([revised]);
    expect(code).toBe(0);
    expect(report.proposals[0].diff).toContain(FIXED_LINE);
    expect(report.proposals[0]).toMatchObject({ replay: { status: 'success' } });
  }, 60_000);

  it('drops no file unseen: a first block for another file that does not apply is refused', async () => {
    const doc = '```diff\n--- a/SKILL.md\n+++ b/SKILL.md\n@@ -5 +5 @@\n-Run nothing.\n+Run it.\n```';
    const { report, requests } = await repairWith([`${doc}\n${block(FIXED_LINE)}\n`]);
    expect(requests).toHaveLength(2);
    expect(report.reason).toContain('attempt 1: Refused: the patch for SKILL.md does not apply cleanly');
  }, 60_000);
});

describe('skilldeck repair of a shell script that stops on its own bug', () => {
  it('reads bash’s "file: line N: message" as the place it failed, and proposes the fix', async () => {
    const count = [
      'set -euo pipefail',
      'echo "counting"',
      'n=$(wc -l < "$SKILL_PATH/references/sample.csv")',
      'echo "lines: $N"',
      '',
    ].join('\n');
    const fix = [
      'ROOT_CAUSE: the count is in $n, not $N.',
      '```diff',
      '--- a/scripts/count.sh',
      '+++ b/scripts/count.sh',
      '@@ -3,2 +3,2 @@',
      ' n=$(wc -l < "$SKILL_PATH/references/sample.csv")',
      '-echo "lines: $N"',
      '+echo "lines: $n"',
      '```',
    ].join('\n');
    const { code, report } = await repairWith([fix], {
      'skill.yaml': 'entrypoints: [scripts/count.sh]\nexecution_policy: { approval: auto }\n',
      'scripts/count.sh': count,
    });
    expect(report.eligible).toBe(true);
    expect(report.reason).toContain('scripts/count.sh stopped at line 4');
    expect(report.reason).toContain('N: unbound variable');
    expect(code).toBe(0);
    expect(report.proposals[0]).toMatchObject({
      patched_files: ['scripts/count.sh'],
      replay: { status: 'success' },
    });
  }, 60_000);
});

describe('skilldeck repair: an answer that thinks aloud in <think> first', () => {
  it('proposes only the diff after its thinking, not a draft it rejected there', async () => {
    // DeepSeek-R1, QwQ and Qwen3 behind servers without a reasoning parser send this as text.
    const draft = [
      '<think>Maybe the doc is wrong:',
      '```diff',
      '--- a/SKILL.md',
      '+++ b/SKILL.md',
      '@@ -4 +4 @@',
      '-Run scripts/total.py.',
      '+Run nothing.',
      '```',
      'No: the script reads the wrong column.</think>',
      FIX,
    ].join('\n');
    const { code, report } = await repairWith([draft]);
    expect(code).toBe(0);
    expect(report.proposals).toHaveLength(1);
    expect(report.proposals[0]).toMatchObject({
      patched_files: ['scripts/total.py'],
      replay: { status: 'success' },
    });
    expect(report.proposals[0].diff).not.toContain('Run nothing.');
  }, 60_000);
});

describe('skilldeck repair: the corrected file whole instead of a diff', () => {
  const fixedFile = SCRIPT.replace('row["amount"]', 'row["Amount"]');

  it('reads a fenced file named on the line above as the diff to it, and replays it', async () => {
    const whole = [
      'The CSV header is Amount, not amount.',
      '',
      'scripts/total.py',
      '```python',
      fixedFile,
      '```',
    ].join('\n');
    const { code, report, requests } = await repairWith([whole]);
    expect(requests).toHaveLength(1);
    expect(code).toBe(0);
    expect(report.proposals).toHaveLength(1);
    expect(report.proposals[0]).toMatchObject({
      patched_files: ['scripts/total.py'],
      root_cause: 'The CSV header is Amount, not amount.',
      replay: { status: 'success' },
    });
    expect(report.proposals[0].diff).toContain(
      `-print(sum(float(row["amount"]) for row in rows))\n${FIXED_LINE}\n`,
    );
  }, 60_000);

  it('refuses an excerpt that would delete the rest of the file, and the next attempt hears why', async () => {
    const excerpt = ['Fix in scripts/total.py:', '```python', FIXED_LINE.slice(1), '```'].join('\n');
    const { code, report, requests } = await repairWith([excerpt, FIX]);
    expect(requests).toHaveLength(2);
    expect(lastUserMessage(requests[1])).toContain(
      'its block for scripts/total.py looks like an excerpt, not the whole file',
    );
    expect(code).toBe(0);
    expect(report.proposals).toHaveLength(1);
    expect(report.proposals[0].replay.status).toBe('success');
  }, 60_000);
});

describe('skilldeck repair: bare @@ hunks on the second attempt', () => {
  it('finds their file as it was before the first attempt, and replays them on their own', async () => {
    // A script of answers written against the skill's files: the second does not know the first.
    const wrong = FIX.replace(FIXED_LINE, '+print(sum(float(row["AMOUNT"]) for row in rows))');
    const bare = [
      'The header is Amount.',
      '```diff',
      '@@ -4 +4 @@',
      '-print(sum(float(row["amount"]) for row in rows))',
      FIXED_LINE,
      '```',
    ].join('\n');
    const { code, report, requests } = await repairWith([wrong, bare]);
    expect(requests).toHaveLength(2);
    expect(code).toBe(0);
    expect(report.proposals.map((p) => p.replay.status)).toContain('success');
    const passed = report.proposals.find((p) => p.replay.status === 'success');
    expect(passed?.diff).toContain(FIXED_LINE);
  }, 60_000);
});
