import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import { createEngine, type Engine } from '../index';

const md = (fields: string) => `---\n${fields.trim()}\n---\n# Skill\n\nDo the thing.\n`;

let home: string;
let skillsDir: string;
let engine: Engine;

beforeEach(async () => {
  home = tempDir('skilldeck-routing-home-');
  skillsDir = tempDir('skilldeck-routing-skills-');
  writeTree(skillsDir, {
    'weather-now/SKILL.md': md(`
name: weather-now
description: Reports the current weather forecast for a city, temperature and rain.
triggers: [weather, 天气]
anti_triggers: [weather api key]
cost_hint: low
`),
    'weather-now/evals/trigger_evals.json': JSON.stringify([
      { query: 'weather in Paris tomorrow', should_trigger: true },
      { query: '明天北京天气', should_trigger: true },
      { query: 'how do I get a weather api key', should_trigger: false },
      { query: 'tell me a joke', should_trigger: false },
    ]),
    'news-brief/SKILL.md': md(`
name: news-brief
description: Summarizes today's news headlines for a topic.
triggers: [news, headlines]
`),
    'news-brief/evals/trigger_evals.json': '[{ "query": 42 }]',
  });
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
});

describe('RoutingService', () => {
  it('builds the index once per catalog version, not per query', async () => {
    const first = engine.routing.index();
    engine.routing.preview('weather');
    expect(engine.routing.index()).toBe(first);
    writeTree(skillsDir, { 'extra/SKILL.md': md('name: extra\ndescription: Extra skill.') });
    await engine.reloadSkills();
    expect(engine.routing.index()).not.toBe(first);
    expect(engine.routing.index().byName.has('extra')).toBe(true);
  });

  it('says why a skill the user names cannot be routed, instead of "no routable skill"', async () => {
    writeTree(skillsDir, {
      'notes-digest/SKILL.md': '---\nname: notes-digest\ndescription: Digests notes.\n\n# Notes\n',
      'mac-notes/SKILL.md': md('name: mac-notes\ndescription: Apple Notes.\nos: [darwin]'),
    });
    await engine.reloadSkills();
    const reason = (query: string) => engine.routing.preview(query).plan.routing_reason;
    expect(reason('$notes-digest for this week')).toMatch(
      /“notes-digest” is listed but never routed: its SKILL\.md has an error \(The frontmatter is not closed.*\)\.( |$)/,
    );
    if (process.platform !== 'darwin')
      expect(reason('use the Mac-Notes skill to list my notes')).toMatch(
        /“Mac-Notes” is listed but not routable here: .*darwin/,
      );
    engine.updateSettings({ skills: { disabled: ['weather-now'] } });
    expect(reason('$weather-now Paris')).toMatch(
      /“weather-now” is turned off \(settings\.json skills\.disabled\)/,
    );
    expect(reason('$weather-now Paris')).not.toMatch(/No routable skill named/);
    expect(reason('$no-such-skill Paris')).toMatch(/No routable skill named “no-such-skill”/);
  });

  it('follows settings live: T, weights and disabled skills', () => {
    expect(engine.routing.preview('weather in Paris').plan.primary).toBe('weather-now');
    engine.updateSettings({ routing: { threshold: 0.99 } });
    expect(engine.routing.preview('weather in Paris').plan.primary).toBeNull();
    engine.updateSettings({ routing: { threshold: 0.65 }, skills: { disabled: ['weather-now'] } });
    expect(engine.routing.preview('weather in Paris').candidates.map((c) => c.name)).not.toContain(
      'weather-now',
    );
  });

  it('preview records nothing; commit appends a JSONL event and announces it', () => {
    const seen: string[] = [];
    engine.events.subscribe((name) => seen.push(name));
    engine.routing.preview('weather in Paris');
    expect(fs.existsSync(path.join(home, 'events', 'routes.jsonl'))).toBe(false);
    const event = engine.routing.commit('weather in Paris', 'chat');
    expect(seen).toEqual(['route.recorded']);
    const lines = fs
      .readFileSync(path.join(home, 'events', 'routes.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ kind: 'route', route_id: event.route_id, origin: 'chat' });
    expect(event.candidates[0].factors.intent_match.weight).toBe(0.4);
  });

  it('records outcomes into stats.json, which moves success_rate; metrics over the log', () => {
    const ids = ['weather in Paris', 'weather in Rome', 'news headlines', 'tell me a joke'].map(
      (q) => engine.routing.commit(q, 'api').route_id,
    );
    engine.routing.recordResult(ids[0], {
      status: 'success',
      fallback_used: false,
      tokens_in: 100,
      tokens_out: 50,
    });
    engine.routing.recordResult(ids[1], { status: 'failure', fallback_used: true });
    expect(() => engine.routing.recordResult(ids[0], { status: 'success', fallback_used: false })).toThrow(
      /already/,
    );
    expect(() => engine.routing.recordResult('nope', { status: 'success', fallback_used: false })).toThrow(
      /No recorded/,
    );
    const stats = JSON.parse(fs.readFileSync(path.join(home, 'stats.json'), 'utf8'));
    expect(stats.skills['weather-now']).toEqual({ runs: 2, successes: 1 });
    const candidate = engine.routing.preview('weather in Oslo').candidates[0];
    expect(candidate.runs).toBe(2);
    expect(candidate.factors.success_rate.value).toBeCloseTo(0.5, 3);
    const metrics = engine.routing.metrics();
    expect(metrics).toMatchObject({
      total: 4,
      trigger_rate: 0.75,
      success_rate: 0.5,
      fallback_rate: 0.5,
      avg_tokens: 150,
    });
    expect(metrics.latency_p95).toBeGreaterThanOrEqual(metrics.latency_p50 ?? 0);
    expect(engine.routing.activityGet(ids[0]).result?.status).toBe('success');
  });

  it('a turn that plain chat answered after the skill failed counts as the skill’s failure', () => {
    const routeId = engine.routing.commit('weather in Paris', 'chat').route_id;
    engine.routing.recordResult(routeId, { status: 'success', fallback_used: true });
    const stats = JSON.parse(fs.readFileSync(path.join(home, 'stats.json'), 'utf8'));
    expect(stats.skills['weather-now']).toEqual({ runs: 1, successes: 0 });
  });

  it('pages activity newest first and skips corrupt log lines', () => {
    const ids = ['a weather', 'b weather', 'c weather'].map((q) => engine.routing.commit(q, 'api').route_id);
    fs.appendFileSync(path.join(home, 'events', 'routes.jsonl'), '{not json\n{"kind":"route"}\n');
    const first = engine.routing.activity(2);
    expect(first.events.map((e) => e.route_id)).toEqual([ids[2], ids[1]]);
    expect(first.has_more).toBe(true);
    const second = engine.routing.activity(2, ids[1]);
    expect(second).toMatchObject({ events: [{ route_id: ids[0] }], has_more: false });
    expect(engine.routing.log.skipped).toBe(2);
  });

  it('runs trigger evals with pass/fail, precision and recall; rejects a malformed evals file', () => {
    const report = engine.routing.runEvals(path.join(skillsDir, 'weather-now'));
    expect(report.cases.map((c) => c.pass)).toEqual([true, true, true, true]);
    expect(report).toMatchObject({ passed: 4, failed: 0, precision: 1, recall: 1 });
    expect(() => engine.routing.runEvals(path.join(skillsDir, 'news-brief'))).toThrow(/query/);
    expect(() => engine.routing.runEvals('/nope')).toThrow(/No skill/);
  });
});
