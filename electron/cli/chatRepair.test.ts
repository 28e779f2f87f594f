import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatTurn } from '../../shared/contract';
import { buildCliBundle, runCliWithModel } from '../testing/cliBundle';
import { tempDir, writeTree } from '../testing/fixtures';
import { requestText, startModelServer, type ModelServer } from '../testing/modelServer';

// DESIGN §7 `skilldeck chat` and `skilldeck repair` as real processes, the model a scripted
// OpenAI-compatible server on loopback reached through OPENAI_BASE_URL like any provider.
const root = tempDir('skilldeck-cli-chat-');
const cli = path.join(root, 'cli.cjs');
const skills = path.join(root, 'skills');
const data = path.join(root, 'data');
let server: ModelServer;

beforeAll(async () => {
  await buildCliBundle(cli);
  server = await startModelServer({ apiKey: 'k', models: ['m'] });
  writeTree(skills, {
    'tone-check/SKILL.md':
      '---\nname: tone-check\ndescription: Checks the tone of a paragraph against the house voice.\n---\n# Tone check\n\nRead references/voice.md, then judge the text.\n',
    'tone-check/references/voice.md': 'Warm, short sentences.\n',
    // An instruction skill whose reference was renamed (house-style.md → house_style.md).
    'house-style/SKILL.md':
      '---\nname: house-style\ndescription: Rewrites a paragraph in the house style.\n---\n# House style\n\nRead `references/house-style.md`, then rewrite the paragraph to follow it.\n',
    'house-style/references/house_style.md': 'Short sentences. No exclamation marks.\n',
    'expense-total/SKILL.md':
      '---\nname: expense-total\ndescription: Totals the expenses in a CSV export.\n---\n# Expense total\n\nRun scripts/total.py; INPUT_JSON holds `file`.\n',
    'expense-total/skill.yaml': `entrypoints: [scripts/total.py]\npermissions: { filesystem: { read: ['${data}/**'] } }\nexecution_policy: { approval: auto }\n`,
    // A declared entrypoint runs directly; it needs approval, and an argument it never gets.
    'sum-column/SKILL.md':
      '---\nname: sum-column\ndescription: Sums the numbers of one column in a spreadsheet file.\n---\n# Sum column\n\nRun scripts/sum.py FILE.\n',
    'sum-column/skill.yaml': 'entrypoints: [scripts/sum.py]\n',
    'sum-column/scripts/sum.py': 'import sys\nprint(open(sys.argv[1]).read())\n',
    // An instruction skill with a helper script its model may call (run_skill_script).
    'doc-convert/SKILL.md':
      '---\nname: doc-convert\ndescription: Converts a document between formats.\n---\n# Doc convert\n\nRun scripts/convert.sh with the file name.\n',
    'doc-convert/skill.yaml': 'spec: { type: instruction }\n',
    'doc-convert/scripts/convert.sh': 'echo "CONVERTED $1"\n',
    'greeting-line/SKILL.md':
      '---\nname: greeting-line\ndescription: Opens a message with a greeting line.\n---\nGreetings from the greeting line.\n',
    'greeting-line/skill.yaml': 'spec: { type: direct }\n',
    // An instruction skill that gives its model one second.
    'quick-haiku/SKILL.md':
      '---\nname: quick-haiku\ndescription: Writes a haiku on the spot.\n---\n# Quick haiku\n\nWrite a haiku.\n',
    'quick-haiku/skill.yaml': 'execution_policy: { timeout: 1 }\n',
    'expense-total/scripts/total.py': [
      'import csv, json, os',
      'data = json.loads(os.environ["INPUT_JSON"])',
      'rows = list(csv.DictReader(open(data["file"], newline="")))',
      'print(f"read {len(rows)} rows")',
      'total = 0.0',
      'for row in rows:',
      '    total += float(row["amount"])',
      'print(f"total spent: {total:.2f}")',
      '',
    ].join('\n'),
  });
  writeTree(data, { 'expenses.csv': 'Date,Amount\n2024-01-01,12.50\n2024-01-02,7.25\n' });
}, 60_000);

afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const cliRun = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCliWithModel(
    { cli, skills, home: path.join(root, 'home'), userHome: root, baseURL: server.baseURL, apiKey: 'k' },
    args,
    env,
  );

describe('skilldeck chat', () => {
  it('prints the answer in a terminal whether it streamed or was set whole', async () => {
    server.enqueue({ text: ['A lovely ', 'afternoon indeed.'] });
    const streamed = await cliRun(['chat', 'what a lovely afternoon it is']);
    expect(streamed.code).toBe(0);
    expect(streamed.stdout).toBe('A lovely afternoon indeed.\n');
    // No model: the turn's answer says what to configure, and is printed, not only its status.
    const none = await cliRun(['chat', 'what a lovely afternoon it is'], {
      OPENAI_BASE_URL: '',
      SKILLDECK_MODEL: '',
    });
    expect(none.code).toBe(1);
    expect(none.stdout).toContain('answering without a skill needs a model');
    expect(none.stderr).toContain('no_model');
  });

  it('says where a skill’s reply that broke off ends and the fallback’s answer starts', async () => {
    server.enqueue({ text: ['The first half of a ', 'reply that ', 'never ends'], dropAfter: 2 });
    server.enqueue({ text: 'A whole answer.' });
    const r = await cliRun(['chat', '$tone-check is this warm enough: hello there']);
    expect(r.code).toBe(0);
    // Each text once: the broken reply, the marker, the answer (it was printed twice, glued on).
    expect(r.stdout).toMatch(
      /^The first half of a [^\n]*\n\n\(The reply above stopped short; the fallback answers:\)\n\nA whole answer\.\n$/,
    );
  });
});

describe('skilldeck chat --json', () => {
  it('routes, runs the instruction skill with its tools, and prints the DESIGN §7 turn', async () => {
    server.enqueue(
      {
        toolCalls: [{ name: 'read_skill_file', arguments: { path: 'references/voice.md' } }],
        usage: { prompt_tokens: 300, completion_tokens: 20 },
      },
      { text: 'The tone is warm enough.', usage: { prompt_tokens: 340, completion_tokens: 7 } },
    );
    const { code, stdout } = await cliRun(['chat', '$tone-check is "Hi there, friend" on voice?', '--json']);
    const turn = ChatTurn.parse(JSON.parse(stdout));
    expect(code).toBe(0);
    expect(turn).toMatchObject({
      status: 'success',
      answer: 'The tone is warm enough.',
      usage: { input_tokens: 640, output_tokens: 27 },
    });
    expect(turn.route.plan.primary).toBe('tone-check');
    expect(turn.steps.map((s) => [s.kind, s.name, s.status])).toEqual(
      expect.arrayContaining([
        ['tool', 'read_skill_file', 'success'],
        ['run', 'tone-check', 'success'],
      ]),
    );
    expect(requestText(server.chatRequests().at(-2)!)).toContain('Read references/voice.md');
  });

  it('shows the skill’s failure and the approval given when plain chat answers instead', async () => {
    server.enqueue({ text: 'I could not run the skill, but a column sum adds each row.' });
    const { code, stdout } = await cliRun(['chat', '$sum-column sum the prices', '--approve', '--json']);
    const turn = ChatTurn.parse(JSON.parse(stdout));
    expect(code).toBe(0);
    expect(turn).toMatchObject({ status: 'success', skill: null });
    expect(turn.answer).toBe('I could not run the skill, but a column sum adds each row.');
    const run = turn.steps.find((s) => s.kind === 'run')!;
    expect(run).toMatchObject({ name: 'sum-column', status: 'failure' });
    expect(run.error).toMatch(/IndexError/);
    // --approve answers while the request is announced; the step still says it was allowed.
    expect(turn.steps.filter((s) => s.kind === 'approval').map((s) => s.status)).toEqual(['allowed']);
    // The record keeps the failure under the answer, so the run can still be repaired.
    const record = JSON.parse(
      fs.readFileSync(path.join(root, 'home', 'runs', run.run_id!, 'record.json'), 'utf8'),
    ) as {
      result: {
        status: string;
        fallback_used: boolean;
        primary_failure: { skill: string; status: string; stderr: string };
      };
    };
    expect(record.result).toMatchObject({ status: 'success', fallback_used: true });
    expect(record.result.primary_failure).toMatchObject({ skill: 'sum-column', status: 'failure' });
    expect(record.result.primary_failure.stderr).toMatch(/IndexError/);
  });
});

describe('skilldeck chat: an instruction skill’s script asks like any command (DESIGN §4)', () => {
  const convert = {
    toolCalls: [{ name: 'run_skill_script', arguments: { script: 'scripts/convert.sh', args: ['a.docx'] } }],
  };
  const toolStep = (turn: ChatTurn) =>
    turn.steps.find((s) => s.kind === 'tool' && s.name === 'run_skill_script');

  it('denies it with --deny, and with no terminal to ask, and the model hears why', async () => {
    for (const flags of [['--deny'], []]) {
      server.enqueue(convert, { text: 'I was not allowed to convert it.' });
      const { stdout } = await cliRun(['chat', '$doc-convert turn a.docx into a PDF', ...flags, '--json']);
      const turn = ChatTurn.parse(JSON.parse(stdout));
      expect(toolStep(turn), flags.join(' ')).toMatchObject({ status: 'denied' });
      expect(turn.steps.filter((s) => s.kind === 'approval').map((s) => s.status)).toEqual(['denied']);
      expect(JSON.stringify(turn)).not.toContain('CONVERTED');
      // The tool result the model got says it was denied, not that it ran.
      expect(requestText(server.chatRequests().at(-1)!)).toMatch(/denied/);
    }
  });

  it('runs it in the sandbox once approved', async () => {
    server.enqueue(convert, { text: 'Converted.' });
    const { stdout } = await cliRun(['chat', '$doc-convert turn a.docx into a PDF', '--approve', '--json']);
    const turn = ChatTurn.parse(JSON.parse(stdout));
    expect(toolStep(turn)).toMatchObject({ status: 'success' });
    expect(toolStep(turn)!.output).toContain('CONVERTED a.docx');
    expect(turn.steps.filter((s) => s.kind === 'approval').map((s) => s.status)).toEqual(['allowed']);
  });
});

describe('skilldeck chat: a denied skill and the answer that follows', () => {
  it('tells the fallback model the skill was chosen and denied, with the reason', async () => {
    server.enqueue({ text: 'I could not run the column sum; add the prices by hand.' });
    const { code, stdout } = await cliRun(['chat', '$sum-column sum the prices', '--deny', '--json']);
    const turn = ChatTurn.parse(JSON.parse(stdout));
    expect(code).toBe(0);
    expect(turn.steps.filter((s) => s.kind === 'approval').map((s) => s.status)).toEqual(['denied']);
    const system = requestText(server.chatRequests().at(-1)!);
    expect(system).toContain(
      'The skill sum-column was chosen for this message, but the user denied running it',
    );
    expect(system).toContain('--deny');
    expect(system).not.toContain('No skill was chosen');
  });
});

describe('skilldeck chat: two skills named in one message', () => {
  it('runs both, shows a run step for each, and the answer holds what each produced', async () => {
    server.enqueue({ text: 'The tone is warm enough.' });
    const { code, stdout } = await cliRun([
      'chat',
      '$greeting-line and $tone-check: is "hi there" warm?',
      '--json',
    ]);
    const turn = ChatTurn.parse(JSON.parse(stdout));
    expect(code).toBe(0);
    expect(turn.route.plan.skills).toEqual(expect.arrayContaining(['greeting-line', 'tone-check']));
    expect(turn.steps.filter((s) => s.kind === 'run').map((s) => [s.name, s.status])).toEqual(
      expect.arrayContaining([
        ['greeting-line', 'success'],
        ['tone-check', 'success'],
      ]),
    );
    expect(turn.answer).toContain('Greetings from the greeting line.');
    expect(turn.answer).toContain('The tone is warm enough.');
    // Each once.
    expect(turn.answer.split('The tone is warm enough.').length).toBe(2);
    // Both cards stand before the text they produced, though the second is added when the run ends.
    expect(turn.steps.filter((s) => s.kind === 'run').map((s) => s.answer_offset)).toEqual([0, 0]);
  });
});

describe('commands that cannot start, with --json', () => {
  it('say why on stdout too: repair in its not-eligible shape, chat as { error }', async () => {
    const repair = await cliRun(['repair', 'no-such-skill', 'go', '--json']);
    expect(repair.code).toBe(2);
    expect(JSON.parse(repair.stdout)).toMatchObject({
      eligible: false,
      reason: expect.stringMatching(/No skill named "no-such-skill"/),
      run: { status: 'failure', sandbox: 'none' },
    });
    const chat = await cliRun(['chat', 'hello', '--conversation', 'does-not-exist', '--json']);
    expect(chat.code).toBe(2);
    expect(JSON.parse(chat.stdout)).toEqual({ error: expect.stringContaining('does-not-exist') });
    expect(chat.stderr).toContain('does-not-exist');
    // An empty id (an unset variable) is refused too: before, it started a new conversation.
    const empty = await cliRun(['chat', 'hello', '--conversation', '', '--json']);
    expect(empty.code).toBe(2);
    expect(JSON.parse(empty.stdout)).toEqual({ error: '--conversation needs a conversation id.' });
  });
});

describe('skilldeck run: an instruction skill’s declared timeout (DESIGN §4 policy)', () => {
  it('stops the model at the timeout and says so, keeping what it wrote', async () => {
    server.enqueue({ text: ['old ', 'pond ', 'frog ', 'jumps ', 'in ', 'splash'], delayMs: 300 });
    const { code, stdout } = await cliRun(['run', 'quick-haiku', 'write a haiku', '--json']);
    const run = JSON.parse(stdout) as { status: string; output: string; error: string; duration_ms: number };
    expect(code).toBe(1);
    expect(run.status).toBe('timeout');
    expect(run.error).toMatch(/^Timed out after 1 s/);
    expect(run.output).toMatch(/^old /);
    expect(run.output).not.toContain('splash');
    expect(run.duration_ms).toBeLessThan(3000);
  });
});

describe('skilldeck repair --json', () => {
  const task = [
    'repair',
    'expense-total',
    'how much did I spend?',
    '--input',
    JSON.stringify({ file: path.join(data, 'expenses.csv') }),
  ];

  it('proposes the model’s fix, proves it by replay, and changes nothing without --apply', async () => {
    const before = fs.readFileSync(path.join(skills, 'expense-total/scripts/total.py'), 'utf8');
    server.enqueue({
      text: [
        'ROOT_CAUSE: The header is now "Amount" but the script reads "amount".\n',
        'EXPECTED_EFFECT: The script finds the column and prints the total.\n',
        '```diff\n--- a/scripts/total.py\n+++ b/scripts/total.py\n@@ -5,4 +5,4 @@\n print(f"read {len(rows)} rows")\n total = 0.0\n for row in rows:\n-    total += float(row["amount"])\n+    total += float(row["Amount"])\n```\n',
      ],
    });
    const { code, stdout } = await cliRun([...task, '--json']);
    const report = JSON.parse(stdout) as {
      eligible: boolean;
      reason: string;
      proposals: { patched_files: string[]; replay: { status: string; output: string } }[];
      applied: unknown;
    };
    expect(report.eligible).toBe(true);
    expect(report.proposals).toHaveLength(1);
    expect(report.proposals[0].patched_files).toEqual(['scripts/total.py']);
    expect(report.proposals[0].replay).toMatchObject({ status: 'success' });
    expect(report.proposals[0].replay.output).toContain('total spent: 19.75');
    expect(report.applied).toBeNull();
    expect(code).toBe(0);
    expect(fs.readFileSync(path.join(skills, 'expense-total/scripts/total.py'), 'utf8')).toBe(before);
  });

  it('repairs an instruction skill whose model answered around the missing file its SKILL.md names', async () => {
    const before = fs.readFileSync(path.join(skills, 'house-style/SKILL.md'), 'utf8');
    server.enqueue(
      { toolCalls: [{ name: 'read_skill_file', arguments: { path: 'references/house-style.md' } }] },
      { text: 'I could not find the house style, so I left the text as it was.' },
      // The replay, against the patched copy: the model reads the path the fix names.
      { toolCalls: [{ name: 'read_skill_file', arguments: { path: 'references/house_style.md' } }] },
      { text: 'Hello. This is great.' },
    );
    const { code, stdout } = await cliRun(['repair', 'house-style', 'Hello!!! This is great!', '--json']);
    const report = JSON.parse(stdout) as {
      eligible: boolean;
      reason: string;
      proposals: {
        error_signature: string;
        patched_files: string[];
        diff: string;
        replay: { status: string; output: string };
      }[];
    };
    expect(report.eligible).toBe(true);
    expect(report.reason).toMatch(/references\/house-style\.md, which does not exist/);
    expect(report.proposals).toHaveLength(1);
    expect(report.proposals[0]).toMatchObject({
      error_signature: 'reference_path:references/house-style.md',
      patched_files: ['SKILL.md'],
      replay: { status: 'success', output: 'Hello. This is great.' },
    });
    expect(report.proposals[0].diff).toContain('+Read `references/house_style.md`');
    expect(code).toBe(0);
    expect(fs.readFileSync(path.join(skills, 'house-style/SKILL.md'), 'utf8')).toBe(before);
    // The replay's model read the file the fix names, and got its text.
    const tool = server
      .chatRequests()
      .at(-1)!
      .messages.find((m) => m.role === 'tool');
    expect(JSON.stringify(tool)).toContain('Short sentences.');
  });

  it('exits 1 when the failure is repairable but no answer gave a usable patch, and changes nothing', async () => {
    const before = fs.readFileSync(path.join(skills, 'expense-total/scripts/total.py'), 'utf8');
    server.enqueue(
      { text: 'ROOT_CAUSE: the column was renamed.\nJust rename the column in the script.' },
      // A diff that reaches outside the skill: refused, and a safety refusal ends the repair.
      {
        text: '```diff\n--- a/../house-style/SKILL.md\n+++ b/../house-style/SKILL.md\n@@ -1 +1 @@\n----\n+---x\n```\n',
      },
    );
    const { code, stdout } = await cliRun([...task, '--json']);
    const report = JSON.parse(stdout) as { eligible: boolean; reason: string; proposals: unknown[] };
    expect(report).toMatchObject({ eligible: true, proposals: [], applied: null });
    expect(report.reason).toMatch(/leaves the skill folder/);
    expect(code).toBe(1);
    expect(fs.readFileSync(path.join(skills, 'expense-total/scripts/total.py'), 'utf8')).toBe(before);
  });

  it('refuses a proposal that adds a file the skill’s tools would run, outside scripts/ too', async () => {
    // run_skill_script runs any file of the skill by its extension or shebang, references/ too.
    const created = (file: string, lines: string[]) =>
      `--- /dev/null\n+++ b/${file}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}\n`).join('')}`;
    const fix =
      '--- a/scripts/total.py\n+++ b/scripts/total.py\n@@ -7 +7 @@\n-    total += float(row["amount"])\n+    total += float(row["Amount"])\n';
    for (const added of [
      created('references/helper.py', ["print('total spent: 19.75')"]),
      created('references/notes.md', ['#!/usr/bin/env python3', "print('hi')"]),
    ]) {
      server.enqueue({ text: `ROOT_CAUSE: the column.\n\`\`\`diff\n${added}${fix}\`\`\`\n` });
      const { code, stdout } = await cliRun([...task, '--json']);
      const report = JSON.parse(stdout) as { eligible: boolean; reason: string; proposals: unknown[] };
      expect(report).toMatchObject({ eligible: true, proposals: [] });
      expect(report.reason).toMatch(/a repair never adds executables/);
      expect(code).toBe(1);
    }
    expect(fs.existsSync(path.join(skills, 'expense-total/references'))).toBe(false);
  });

  it('says why a failure is not repairable (a missing input file is not the skill’s fault)', async () => {
    const { stdout } = await cliRun([
      'repair',
      'expense-total',
      'total',
      '--input',
      '{"file": "/nowhere.csv"}',
      '--json',
    ]);
    const report = JSON.parse(stdout) as { eligible: boolean; reason: string; run: { status: string } };
    expect(report.eligible).toBe(false);
    expect(report.run.status).toBe('failure');
    expect(report.reason).toMatch(/^The input names \/nowhere\.csv, which could not be found/);
  });
});
