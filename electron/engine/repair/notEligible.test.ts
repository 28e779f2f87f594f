import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { RepairTransition, RunResult } from '../../../shared/contract';
import { replayWith, runSkill } from '../../testing/scriptRunner';
import { assessEligibility } from './eligibility';
import { runRepairLoop } from './loop';
import { repairReport } from './report';
import { readSnapshot } from './snapshot';
import { keyErrorScript, makeSkill, noModel, skillDoc, snapshotBytes } from './testFixtures';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

const scriptSkill = (name: string, file: string, code: string, extra = '') => {
  const fx = makeSkill(name, {
    'SKILL.md': skillDoc(
      name,
      `Does ${name} things. Use when asked to.`,
      `# ${name}\n\nRun \`scripts/${file}\`.\n`,
      extra,
    ),
    [`scripts/${file}`]: code,
  });
  roots.push(fx.root);
  return fx;
};

/** Runs the loop on a failed run and checks it stopped at eligibility: no model, no proposal, nothing written. */
async function expectFallback(run: RunResult, dir: string, cwd: string, reason: RegExp) {
  const before = snapshotBytes(dir);
  const states: RepairTransition['state'][] = [];
  const outcome = await runRepairLoop(
    { run, skillDir: dir },
    { replay: replayWith({ task: 't', cwd }), complete: noModel, onTransition: (t) => states.push(t.state) },
  );
  expect(outcome.eligibility.eligible).toBe(false);
  expect(outcome.eligibility.reason).toMatch(reason);
  expect(outcome).toMatchObject({ proposals: [], final_state: 'fallback', attempts: 0 });
  expect(states).toEqual(['failure_detected', 'eligibility', 'fallback']);
  expect(snapshotBytes(dir)).toEqual(before);
  return outcome;
}

describe('failures that are not repairable get no proposal, and the reason says why', () => {
  it('a sandbox denial (blocked, with violations)', async () => {
    const fx = keyErrorScript();
    roots.push(fx.root);
    const ran = await runSkill(fx.dir, { task: 't', input: { file: 'expenses.csv' }, cwd: fx.cwd });
    const blocked: RunResult = {
      ...ran,
      status: 'blocked',
      error: 'blocked: tried to write /etc/passwd',
      violations: [
        {
          kind: 'write',
          target: '/etc/passwd',
          message: 'tried to write /etc/passwd, outside its write paths ./out/**',
        },
      ],
    };
    const out = await expectFallback(
      blocked,
      fx.dir,
      fx.cwd,
      /sandbox stopped it: tried to write \/etc\/passwd.*never widens permissions/,
    );
    expect(out.eligibility.category).toBe('sandbox_denial');
  });

  it('a missing binary (exit 127)', async () => {
    const fx = scriptSkill(
      'feed-fetch',
      'fetch.sh',
      '#!/usr/bin/env bash\necho "fetching feed"\nskilldeck-no-such-tool --json\n',
    );
    const run = await runSkill(fx.dir, { task: 'fetch', cwd: fx.cwd });
    expect(run.exit_code).toBe(127);
    const out = await expectFallback(
      run,
      fx.dir,
      fx.cwd,
      /needs the program `skilldeck-no-such-tool`, which is not installed here \(exit 127\)/,
    );
    expect(out.eligibility.category).toBe('missing_dependency');
    expect(out.eligibility.reason).toContain(
      'does not list `skilldeck-no-such-tool` among its prerequisites',
    );
  });

  it('a timeout', async () => {
    // 3 s: Python must start and print within it on a loaded 2-core machine; it then sleeps 30.
    const fx = scriptSkill(
      'slow-job',
      'slow.py',
      'import time\nprint("started", flush=True)\ntime.sleep(30)\n',
    );
    const run = await runSkill(fx.dir, { task: 'go', cwd: fx.cwd, timeoutMs: 3000 });
    expect(run.status).toBe('timeout');
    const out = await expectFallback(run, fx.dir, fx.cwd, /ran out of time/);
    expect(out.eligibility.category).toBe('timeout');
    expect(repairReport(out, run, null)).toEqual({
      eligible: false,
      reason: out.eligibility.reason,
      run: {
        status: 'timeout',
        output: 'started',
        error: run.error,
        sandbox: 'none',
        duration_ms: run.duration_ms,
      },
    });
  });

  it('a task the skill cannot do (a PDF given to a CSV-only skill)', async () => {
    const fx = scriptSkill(
      'csv-stats',
      'stats.py',
      'import json, os, sys\nf = json.loads(os.environ["INPUT_JSON"])["file"]\nif not f.endswith(".csv"):\n    sys.exit(f"csv-stats: {f} is not a CSV file; this skill only reads CSV")\n',
    );
    const run = await runSkill(fx.dir, {
      task: 'stats of report.pdf',
      input: { file: 'report.pdf' },
      cwd: fx.cwd,
    });
    const out = await expectFallback(
      run,
      fx.dir,
      fx.cwd,
      /cannot do .*only reads CSV.*another skill, not a patch/,
    );
    expect(out.eligibility.category).toBe('capability_mismatch');
  });

  it('an external service that refuses the connection', async () => {
    const fx = scriptSkill(
      'status-check',
      'check.py',
      'import urllib.request\nprint("checking")\nurllib.request.urlopen("http://127.0.0.1:9/health", timeout=5)\n',
    );
    const run = await runSkill(fx.dir, { task: 'check', cwd: fx.cwd });
    const out = await expectFallback(
      run,
      fx.dir,
      fx.cwd,
      /could not reach an external service \(.*Connection refused/i,
    );
    expect(out.eligibility.category).toBe('external_service');
  });

  it('an operation the OS refuses (Permission denied) outside any sandbox report', async () => {
    const fx = scriptSkill(
      'log-writer',
      'write.py',
      'print("writing")\nopen("/sys/skilldeck-test", "w").write("x")\n',
    );
    const run = await runSkill(fx.dir, { task: 'log', cwd: fx.cwd });
    const out = await expectFallback(
      run,
      fx.dir,
      fx.cwd,
      /not allowed to do something it tried \(.*Permission denied/,
    );
    expect(out.eligibility.category).toBe('permission_denied');
  });

  it('a declared environment variable that is simply not set', async () => {
    const fx = scriptSkill(
      'weather-now',
      'weather.py',
      'import os\nkey = os.environ["WEATHER_API_KEY"]\n',
      'metadata:\n  openclaw:\n    requires:\n      env:\n        - WEATHER_API_KEY\n',
    );
    // The executor would refuse up front; a run that got this far still must not be "repaired".
    const run: RunResult = {
      ...(await runSkill(fx.dir, { task: 'x', cwd: fx.cwd })),
      status: 'failure',
      stderr:
        'Traceback (most recent call last):\n  File "/s/scripts/weather.py", line 2, in <module>\n    key = os.environ["WEATHER_API_KEY"]\nKeyError: \'WEATHER_API_KEY\'\n',
    };
    const out = await expectFallback(run, fx.dir, fx.cwd, /declares but is not set here/);
    expect(out.eligibility.category).toBe('missing_dependency');
  });
});

describe('"nearly succeeded" (routing spec §11.3)', () => {
  it('a traceback deep in the skill with partial output scores high; the same bug without output at line 1 scores lower', async () => {
    const fx = keyErrorScript();
    roots.push(fx.root);
    const run = await runSkill(fx.dir, { task: 't', input: { file: 'expenses.csv' }, cwd: fx.cwd });
    const skill = await readSnapshot(fx.dir);
    const deep = assessEligibility(run, skill);
    expect(deep).toMatchObject({ eligible: true, category: 'script_bug', root_causes: 1 });
    expect(deep.criteria).toEqual({
      progress: true,
      root_causes: true,
      within_skill: true,
      single_fix: true,
      partial_output: true,
    });
    expect(deep.progress).toBeGreaterThan(0.9);
    expect(deep.error_signature).toBe("script_bug:KeyError:'amount'@scripts/total.py");
    const shallow = assessEligibility(
      { ...run, output: '', stderr: run.stderr.replace('line 12', 'line 1') },
      skill,
    );
    expect(shallow.progress).toBeLessThan(deep.progress);
  });

  it('three separate errors and no output is not a near miss, even inside the skill', async () => {
    const fx = keyErrorScript();
    roots.push(fx.root);
    const run = await runSkill(fx.dir, { task: 't', input: { file: 'expenses.csv' }, cwd: fx.cwd });
    const messy = {
      ...run,
      output: '',
      stderr: `${run.stderr}\nValueError: bad date\nTypeError: unsupported operand\nerror: could not write summary\n`,
    };
    const verdict = assessEligibility(messy, await readSnapshot(fx.dir));
    expect(verdict.eligible).toBe(false);
    expect(verdict.reason).toMatch(/did not nearly succeed \(.*separate errors, no partial output\)/);
  });

  it('a run that failed twice without any intermediate result is a persistent failure', async () => {
    const fx = keyErrorScript();
    roots.push(fx.root);
    const run = await runSkill(fx.dir, { task: 't', input: { file: 'expenses.csv' }, cwd: fx.cwd });
    const verdict = assessEligibility({ ...run, output: '' }, await readSnapshot(fx.dir), undefined, {
      priorFailures: 2,
    });
    expect(verdict).toMatchObject({ eligible: false, category: 'persistent_failure' });
  });
});

describe('a file the user named that does not exist', () => {
  it('is bad input, not a skill bug; a missing file the skill itself names stays repairable', async () => {
    const fx = scriptSkill(
      'reader',
      'read.py',
      'import json, os\nprint("starting")\nopen(json.loads(os.environ["INPUT_JSON"])["file"]).read()\n',
    );
    const input = { file: '/nowhere/expenses.csv' };
    const run = await runSkill(fx.dir, { task: 'read it', input, cwd: fx.cwd });
    expect(run.status).toBe('failure');
    const skill = await readSnapshot(fx.dir);
    const judged = assessEligibility(run, skill, undefined, { task: 'read it', input });
    expect(judged).toMatchObject({ eligible: false, category: 'bad_input' });
    expect(judged.reason).toMatch(/^The input names \/nowhere\/expenses\.csv, which could not be found/);
    // Without the input that named it, the same traceback is judged as the skill's own bug.
    expect(assessEligibility(run, skill).category).toBe('script_bug');
  });
});
