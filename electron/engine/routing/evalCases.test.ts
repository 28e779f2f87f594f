import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import { EngineError } from '../errors';
import { createEngine, type Engine } from '../index';
import { MAX_EVAL_CASES } from './evalCases';

// what-users-ask §15: store should / should-not-trigger queries per skill, from the app and
// the CLI, and run them against the router at once. Real files in a temp folder.
const md = (fields: string) => `---\n${fields.trim()}\n---\n# Skill\n\nDo the thing.\n`;

let home: string;
let skillsDir: string;
let weather: string;
let engine: Engine;

beforeEach(async () => {
  home = tempDir('skilldeck-evalcases-home-');
  skillsDir = tempDir('skilldeck-evalcases-skills-');
  writeTree(skillsDir, {
    'weather-now/SKILL.md': md(`
name: weather-now
description: Reports the current weather forecast for a city, temperature and rain.
triggers: [weather]
cost_hint: low
`),
  });
  weather = path.join(skillsDir, 'weather-now');
  engine = await createEngine({
    home,
    userHome: home,
    workspace: home,
    skillDirs: [skillsDir],
    noDefaultPaths: true,
  });
});

afterEach(async () => {
  await engine.close();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(skillsDir, { recursive: true, force: true });
});

const evalsFile = () => path.join(weather, 'evals', 'trigger_evals.json');
const onDisk = () => JSON.parse(fs.readFileSync(evalsFile(), 'utf8')) as unknown[];
const failure = (fn: () => unknown): EngineError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof EngineError) return error;
    throw error;
  }
  throw new Error('expected an EngineError');
};

describe('saving trigger evals', () => {
  it('creates evals/trigger_evals.json for a skill without one and runs it at once', () => {
    const first = engine.routing.saveEval(weather, 'weather in Paris tomorrow', true);
    expect(first.change).toBe('added');
    expect(first.report.file).toBe(evalsFile());
    expect(first.report.cases).toMatchObject([
      { query: 'weather in Paris tomorrow', should_trigger: true, triggered: true, pass: true },
    ]);
    const second = engine.routing.saveEval(weather, '  tell me a joke ', true);
    // The router leaves a joke alone, so a case that says it should trigger fails, visibly.
    expect(second.report).toMatchObject({ passed: 1, failed: 1 });
    expect(onDisk()).toEqual([
      { query: 'weather in Paris tomorrow', should_trigger: true },
      { query: 'tell me a joke', should_trigger: true },
    ]);
    // A file others can read, like the rest of a skill they may share or commit.
    expect(fs.statSync(evalsFile()).mode & 0o777).toBe(0o644);
    expect(fs.readFileSync(evalsFile(), 'utf8').endsWith(']\n')).toBe(true);
  });

  it('keeps one case per query: the same words again change nothing, the other answer updates it', () => {
    writeTree(weather, {
      'evals/trigger_evals.json': JSON.stringify([
        { query: 'Weather in  Rome', should_trigger: true, note: 'from a user report' },
        { query: 'tell me a joke', should_trigger: false },
      ]),
    });
    fs.chmodSync(evalsFile(), 0o640);
    expect(engine.routing.saveEval(weather, 'weather in rome', true).change).toBe('unchanged');
    const updated = engine.routing.saveEval(weather, 'WEATHER IN ROME', false);
    expect(updated.change).toBe('updated');
    expect(updated.report.cases.map((c) => [c.query, c.should_trigger, c.pass])).toEqual([
      ['Weather in  Rome', false, false],
      ['tell me a joke', false, true],
    ]);
    // The case keeps its own words, place and extra fields; the file keeps its mode.
    expect(onDisk()).toEqual([
      { query: 'Weather in  Rome', should_trigger: false, note: 'from a user report' },
      { query: 'tell me a joke', should_trigger: false },
    ]);
    expect(fs.statSync(evalsFile()).mode & 0o777).toBe(0o640);
  });

  it('removes a case by its query, and says so when there is none', () => {
    engine.routing.saveEval(weather, 'weather in Oslo', true);
    engine.routing.saveEval(weather, 'tell me a joke', false);
    const removed = engine.routing.removeEval(weather, ' Weather in oslo');
    expect(removed.change).toBe('removed');
    expect(removed.report.cases.map((c) => c.query)).toEqual(['tell me a joke']);
    const before = fs.readFileSync(evalsFile(), 'utf8');
    const missing = failure(() => engine.routing.removeEval(weather, 'weather in Oslo'));
    expect(missing.code).toBe('not_found');
    expect(missing.message).toContain('weather in Oslo');
    expect(fs.readFileSync(evalsFile(), 'utf8')).toBe(before);
  });

  it('never overwrites a malformed evals file, and refuses blank queries and unknown skills', () => {
    writeTree(weather, { 'evals/trigger_evals.json': '[{ "query": "weather", "should_trigger": tru' });
    const bad = failure(() => engine.routing.saveEval(weather, 'weather in Lima', true));
    expect(bad.code).toBe('invalid_params');
    expect(bad.message).toMatch(/not valid JSON/);
    expect(fs.readFileSync(evalsFile(), 'utf8')).toBe('[{ "query": "weather", "should_trigger": tru');
    fs.rmSync(evalsFile());
    expect(failure(() => engine.routing.saveEval(weather, ' \n\t', true)).code).toBe('invalid_params');
    expect(fs.existsSync(evalsFile())).toBe(false);
    expect(failure(() => engine.routing.saveEval(path.join(skillsDir, 'nope'), 'x', true)).code).toBe(
      'not_found',
    );
  });

  it('writes only inside the skill: an evals folder or file that is a link is refused', () => {
    const outside = tempDir('skilldeck-evalcases-outside-');
    try {
      fs.symlinkSync(outside, path.join(weather, 'evals'));
      const linked = failure(() => engine.routing.saveEval(weather, 'weather in Quito', true));
      expect(linked.code).toBe('forbidden');
      expect(linked.message).toMatch(/link/);
      expect(fs.readdirSync(outside)).toEqual([]);

      fs.rmSync(path.join(weather, 'evals'));
      fs.mkdirSync(path.join(weather, 'evals'));
      fs.writeFileSync(path.join(outside, 'cases.json'), '[]');
      fs.symlinkSync(path.join(outside, 'cases.json'), evalsFile());
      expect(failure(() => engine.routing.saveEval(weather, 'weather in Quito', true)).code).toBe(
        'forbidden',
      );
      expect(fs.readFileSync(path.join(outside, 'cases.json'), 'utf8')).toBe('[]');
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it(`holds a skill to ${MAX_EVAL_CASES} cases`, () => {
    const full = Array.from({ length: MAX_EVAL_CASES }, (_, i) => ({
      query: `q ${i}`,
      should_trigger: false,
    }));
    writeTree(weather, { 'evals/trigger_evals.json': JSON.stringify(full) });
    const refused = failure(() => engine.routing.saveEval(weather, 'weather in Bern', true));
    expect(refused.code).toBe('invalid_params');
    expect(refused.message).toContain(`${MAX_EVAL_CASES} cases`);
    // Changing the answer of a case it already holds is still allowed.
    expect(engine.routing.saveEval(weather, 'q 7', true).change).toBe('updated');
  });
});
