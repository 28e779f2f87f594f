import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvalReport } from '../../shared/contract';
import { tempDir, writeTree } from '../testing/fixtures';
import { buildCliBundle } from '../testing/cliBundle';

// what-users-ask §15: `skilldeck eval SKILL --should-trigger Q --should-not-trigger Q --remove Q`
// stores cases in the skill's evals/trigger_evals.json and runs them, as a real process.
const root = tempDir('skilldeck-cli-evaledit-');
const cli = path.join(root, 'cli.cjs');
const home = path.join(root, 'home');
const skills = path.join(root, 'skills');
const file = path.join(skills, 'weather-now', 'evals', 'trigger_evals.json');

beforeAll(async () => {
  await buildCliBundle(cli);
  writeTree(skills, {
    'weather-now/SKILL.md':
      '---\nname: weather-now\ndescription: Reports the current weather forecast for a city.\ntriggers: [weather]\ncost_hint: low\n---\nbody\n',
  });
}, 60_000);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const run = (...args: string[]) =>
  spawnSync(process.execPath, [cli, ...args, '--no-default-paths', '--skills', skills], {
    env: { ...process.env, SKILLDECK_HOME: home, HOME: root },
    encoding: 'utf8',
  });
const onDisk = () => JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;

describe('skilldeck eval SKILL with cases to store', () => {
  it('adds cases in order, prints what changed, then the report', () => {
    const result = run(
      'eval',
      'weather-now',
      '--should-trigger',
      'weather in Paris',
      '--should-not-trigger',
      'tell me a joke',
      '--should-trigger',
      'what should I cook tonight',
    );
    expect(onDisk()).toEqual([
      { query: 'weather in Paris', should_trigger: true },
      { query: 'tell me a joke', should_trigger: false },
      { query: 'what should I cook tonight', should_trigger: true },
    ]);
    expect(result.stdout).toContain(`added to ${file}: should trigger "weather in Paris"`);
    expect(result.stdout).toContain('added to');
    expect(result.stdout).toContain('2/3 passed');
    // The cooking case fails the router, so the command still exits 1, as eval does.
    expect(result.status).toBe(1);
  });

  it('--json prints the report with the changes; the same query again updates or keeps it', () => {
    const result = run(
      'eval',
      'weather-now',
      '--should-not-trigger',
      'What should I cook  tonight',
      '--should-trigger',
      'WEATHER in paris',
      '--json',
    );
    expect(result.status).toBe(0);
    const out = JSON.parse(result.stdout) as EvalReport & { changes: unknown };
    expect(EvalReport.parse(out)).toMatchObject({ passed: 3, failed: 0 });
    expect(out.changes).toEqual([
      { query: 'What should I cook  tonight', should_trigger: false, change: 'updated' },
      { query: 'WEATHER in paris', should_trigger: true, change: 'unchanged' },
    ]);
  });

  it('--remove takes a case out; one that is not there fails without touching the file', () => {
    const removed = run('eval', 'weather-now', '--remove', 'tell me a joke');
    expect(removed.stdout).toContain('removed from');
    expect((onDisk() as unknown[]).length).toBe(2);
    const before = fs.readFileSync(file, 'utf8');
    const missing = run('eval', 'weather-now', '--remove', 'tell me a joke', '--json');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('has no case "tell me a joke"');
    expect(JSON.parse(missing.stdout)).toEqual({ error: expect.stringContaining('has no case') });
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });

  it('with --json, a usage error or an unknown skill still prints one { error } (exit 2)', () => {
    for (const args of [['eval', 'no-such-skill'], ['eval']]) {
      const refused = run(...args, '--should-trigger', 'weather in Paris', '--json');
      expect(refused.status, args.join(' ')).toBe(2);
      expect(JSON.parse(refused.stdout), args.join(' ')).toEqual({ error: expect.any(String) });
    }
    expect(JSON.parse(run('eval', 'no-such-skill', '--json').stdout).error).toContain('no-such-skill');
  });

  it('refuses a blank query as a usage error, and a malformed file without rewriting it', () => {
    const blank = run('eval', 'weather-now', '--should-trigger', '  ');
    expect(blank.status).toBe(2);
    expect(blank.stderr).toContain('empty');
    fs.writeFileSync(file, '[{"query": "weather"');
    const broken = run('eval', 'weather-now', '--should-trigger', 'weather in Rome');
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain('not valid JSON');
    expect(fs.readFileSync(file, 'utf8')).toBe('[{"query": "weather"');
  });
});
