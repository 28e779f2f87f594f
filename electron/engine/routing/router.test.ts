import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RouteCandidate, RouteResult } from '../../../shared/contract';
import { tempDir, writeTree } from '../../testing/fixtures';
import type { RoutingIndex } from './lexicon';
import { route, whyNot, type RouterConfig } from './router';
import type { ScoreContext } from './score';
import { catalogOf, defaultConfig, indexOf, readyContext } from './testHelpers';

const md = (fields: string) => `---\n${fields.trim()}\n---\n# Skill\n\nDo the thing.\n`;

/** Real skill folders in a temp dir: the router reads them through the real loader. */
const SKILLS: Record<string, string> = {
  'invoice-organizer/SKILL.md': md(`
name: invoice-organizer
description: Extracts vendor, date and total from invoices and receipts into an expense spreadsheet. Use to organize invoices or tally receipts for reimbursement.
triggers: [invoice, invoices, receipt, 发票, 报销]
anti_triggers: [开发票, invoice template]
cost_hint: medium
`),
  'page-fetch/SKILL.md': md(`
name: page-fetch
description: Fetches web pages and summarizes their content. Not for downloading files or installers.
cost_hint: low
`),
  'file-download/SKILL.md': md(`
name: file-download
description: Downloads files and installers from a URL into the downloads folder.
cost_hint: low
`),
  'pdf-extract/SKILL.md': md(`
name: pdf-extract
description: Extracts the text of PDF documents.
triggers: [pdf text, extract pdf]
cost_hint: low
prerequisites:
  bins: [no-such-binary-skilldeck-test]
  env: [HOME_IS_SET]
`),
  'deploy-prod/SKILL.md': md(`
name: deploy-prod
description: Deploys the current project to production servers.
triggers: [deploy]
disable-model-invocation: true
`),
  'weather-now/SKILL.md': md(`
name: weather-now
description: Reports the current weather forecast for a city, temperature and rain.
triggers: [weather, 天气]
cost_hint: low
parallel_safe: true
`),
  'news-brief/SKILL.md': md(`
name: news-brief
description: Summarizes today's news headlines for a topic.
triggers: [news, headlines, 新闻]
cost_hint: low
parallel_safe: true
`),
  'news-digest/SKILL.md': md(`
name: news-digest
description: Summarizes today's news headlines for a topic in a long digest.
triggers: [news, headlines]
cost_hint: high
parallel_safe: true
`),
  'calendar-sync/SKILL.md': md(`
name: calendar-sync
description: Syncs calendar events and meetings with a remote calendar.
triggers: [calendar]
cost_hint: low
parallel_safe: true
`),
  'broken/SKILL.md': '---\nname: broken\n---\nno description\n',
};

let dir: string;
let index: RoutingIndex;
beforeAll(async () => {
  dir = tempDir('skilldeck-router-');
  writeTree(dir, SKILLS);
  index = indexOf(await catalogOf(dir));
});

const run = (
  query: string,
  config: Partial<RouterConfig> = {},
  ctx: Partial<ScoreContext> = {},
): RouteResult => route(index, query, defaultConfig(config), readyContext(ctx));
const find = (result: RouteResult, name: string): RouteCandidate | undefined =>
  result.candidates.find((c) => c.name === name);
const id = (name: string) => path.join(dir, name);

describe('recall (routing spec §6.1)', () => {
  it('forces $name, /name, "use X skill" and "使用 X skill", several per message', () => {
    expect(find(run('$calendar-sync please'), 'calendar-sync')?.source).toBe('forced');
    expect(find(run('/calendar-sync'), 'calendar-sync')?.source).toBe('forced');
    expect(find(run('use the calendar-sync skill for this'), 'calendar-sync')?.source).toBe('forced');
    expect(find(run('使用 calendar-sync skill 同步一下'), 'calendar-sync')?.source).toBe('forced');
    const both = run('$calendar-sync and $weather-now');
    expect(both.plan.skills).toEqual(['calendar-sync', 'weather-now']);
  });

  it('takes /name for a skill, but a path like /tmp is plain text: not forced, not reported', () => {
    const tmp = run('list /tmp files');
    expect(tmp.candidates.every((c) => c.source !== 'forced')).toBe(true);
    expect(tmp.plan.routing_reason).not.toContain('tmp');
    for (const path of ['open /home/me/calendar-sync', 'run ./calendar-sync now', 'ls ~/calendar-sync'])
      expect(find(run(path), 'calendar-sync')?.source, path).not.toBe('forced');
    expect(find(run('please /calendar-sync.'), 'calendar-sync')?.source).toBe('forced');
  });

  it('reports a $name or "use X skill" that names no routable skill', () => {
    expect(run('$nope do it').plan.routing_reason).toContain('“nope”');
    expect(run('use the nope skill here').plan.routing_reason).toContain('“nope”');
    expect(run('使用 nope 技能').plan.routing_reason).toContain('“nope”');
  });

  it('recalls by trigger phrase, case-insensitive, in English and Chinese', () => {
    expect(find(run('Organize my INVOICES please'), 'invoice-organizer')?.source).toBe('rule');
    const zh = run('帮我整理一下这个月的发票，做个报销汇总');
    expect(zh.plan.primary).toBe('invoice-organizer');
    expect(find(zh, 'invoice-organizer')?.matched_triggers).toEqual(['发票', '报销']);
  });

  it('recalls lexically (top-k) without a trigger', () => {
    const result = run('summarize these web pages for me');
    expect(find(result, 'page-fetch')?.source).toBe('semantic');
    expect(result.plan.primary).toBe('page-fetch');
  });

  it('merges an extra semantic source (the embeddings seam) after the lexical top-k', () => {
    const semanticRecall = () => [index.byName.get('calendar-sync')!];
    const result = run('something about my schedule', { semanticRecall });
    expect(find(result, 'calendar-sync')?.source).toBe('semantic');
  });

  it('respects k: the lexical top-k keeps k of the many skills sharing words with the query', () => {
    const query = 'summarizes the files, events and pages of today from a remote url';
    const semantic = (k: number) =>
      run(query, { topK: k })
        .candidates.filter((c) => c.source === 'semantic')
        .map((c) => c.name);
    const all = semantic(50);
    expect(all.length).toBeGreaterThanOrEqual(5);
    for (const k of [1, 2, 4]) {
      expect(semantic(k)).toHaveLength(k);
      expect(all).toEqual(expect.arrayContaining(semantic(k)));
    }
  });
});

describe('factors (DESIGN §3)', () => {
  it('trigger_match: forced 1.0, rule 0.9, semantic from 0.6', () => {
    expect(find(run('$weather-now'), 'weather-now')?.factors.trigger_match.value).toBe(1);
    expect(find(run('weather in Paris'), 'weather-now')?.factors.trigger_match.value).toBe(0.9);
    const semantic = find(run('summarize these web pages'), 'page-fetch')!;
    expect(semantic.factors.trigger_match.value).toBeGreaterThanOrEqual(0.6);
    expect(semantic.factors.trigger_match.value).toBeLessThan(0.9);
  });

  it('intent_match is a normalized similarity: closer queries score higher', () => {
    const close = find(run('extract vendor and total from these invoices'), 'invoice-organizer')!;
    // Issue 10: words no skill knows ("my cat adoption party") are the user's payload and
    // no longer count against a skill; words other skills answer to ("weather", "news") do.
    const far = find(run('invoices and the weather forecast and news headlines'), 'invoice-organizer')!;
    expect(close.factors.intent_match.value).toBeGreaterThan(far.factors.intent_match.value);
    expect(close.factors.intent_match.value).toBeLessThanOrEqual(1);
    expect(far.factors.intent_match.value).toBeGreaterThanOrEqual(0);
  });

  it('intent_match drops when the description excludes the intent ("not for downloading")', () => {
    const result = run('download the installer files');
    const excluded = find(result, 'page-fetch');
    const fits = find(result, 'file-download')!;
    expect(excluded?.factors.intent_match.value ?? 0).toBeLessThan(0.2);
    expect(fits.factors.intent_match.value).toBeGreaterThan(0.5);
    expect(result.plan.primary).toBe('file-download');
  });

  it('success_rate is smoothed with a 0.5 prior', () => {
    const none = find(run('weather today'), 'weather-now')!;
    expect(none.factors.success_rate.value).toBe(0.5);
    const good = find(
      run('weather today', {}, { stats: () => ({ runs: 10, successes: 10 }) }),
      'weather-now',
    )!;
    expect(good.factors.success_rate.value).toBeCloseTo(11 / 12, 3);
    expect(good.score).toBeGreaterThan(none.score);
  });

  it('context_readiness is the share of prerequisites met, and unmet means unavailable with what is missing', () => {
    const ctx = { hasBin: () => false, env: { HOME_IS_SET: '1' } };
    const pdf = find(run('extract pdf text from report', {}, ctx), 'pdf-extract')!;
    expect(pdf.factors.context_readiness.value).toBe(0.5);
    expect(pdf.status).toBe('unavailable');
    expect(pdf.missing).toEqual(['bin:no-such-binary-skilldeck-test']);
  });

  it('cost: low 1.0, medium 0.5, high 0.0', () => {
    expect(find(run('weather'), 'weather-now')?.factors.cost.value).toBe(1);
    expect(find(run('invoice'), 'invoice-organizer')?.factors.cost.value).toBe(0.5);
    expect(find(run('news headlines'), 'news-digest')?.factors.cost.value).toBe(0);
  });

  it('weights are live settings and contributions add up to the score', () => {
    const base = find(run('weather in Paris'), 'weather-now')!;
    const sum = Object.values(base.factors).reduce((acc, f) => acc + f.contribution, 0);
    expect(sum).toBeCloseTo(base.score, 3);
    const weights = { ...defaultConfig().weights, cost: 0, trigger_match: 0.3 };
    const moved = find(run('weather in Paris', { weights }), 'weather-now')!;
    expect(moved.factors.cost.contribution).toBe(0);
    expect(moved.score).not.toBe(base.score);
  });
});

describe('rules (routing spec §6.2)', () => {
  it('an anti-trigger vetoes a recalled candidate (Chinese and English)', () => {
    const zh = run('我要给客户开发票');
    expect(find(zh, 'invoice-organizer')).toMatchObject({
      status: 'vetoed',
      matched_anti_triggers: ['开发票'],
    });
    expect(find(zh, 'invoice-organizer')?.factors.conflict.value).toBe(0);
    expect(zh.plan.primary).toBeNull();
    expect(find(run('make me an invoice template'), 'invoice-organizer')?.status).toBe('vetoed');
  });

  it('forced skips T but not the safety checks', () => {
    const low = run('$calendar-sync', { threshold: 0.99 });
    expect(low.plan.primary).toBe('calendar-sync');
    expect(find(low, 'calendar-sync')!.score).toBeLessThan(0.99);
    const vetoIgnored = run('$invoice-organizer 开发票');
    expect(find(vetoIgnored, 'invoice-organizer')?.status).toBe('selected');
    const unsafe = run('$pdf-extract report.pdf', {}, { hasBin: () => false });
    expect(find(unsafe, 'pdf-extract')?.status).toBe('unavailable');
    expect(unsafe.plan.primary).toBeNull();
  });

  it('an unavailable skill is never selected, however well it matches', () => {
    const result = run('extract pdf text from the pdf', {}, { hasBin: () => false, env: {} });
    expect(find(result, 'pdf-extract')).toMatchObject({ status: 'unavailable' });
    expect(find(result, 'pdf-extract')?.missing).toContain('env:HOME_IS_SET');
    expect(result.plan.skills).not.toContain('pdf-extract');
  });

  it('a plan with no skill does not call a lower score the best: a skill scored above it is named with why', () => {
    // It said "No skill reached T (best: X at 0.42)" beside an unavailable candidate at 0.58.
    const unready = run(
      'extract pdf text from the invoice report',
      { threshold: 0.9 },
      { hasBin: () => false },
    );
    const pdf = find(unready, 'pdf-extract')!;
    const below = unready.candidates.find((c) => c.status === 'below_threshold')!;
    expect(pdf).toMatchObject({ status: 'unavailable' });
    expect(pdf.score).toBeGreaterThan(below.score);
    expect(unready.plan.routing_reason).toBe(
      `pdf-extract (score ${pdf.score.toFixed(2)}) unavailable: ${pdf.reason}. ` +
        `No skill reached T = 0.90 (best of the rest: ${below.name} at ${below.score.toFixed(2)}); plain chat.`,
    );
    // One vetoed over T: the others did not reach it.
    const query = "don't use the weather-now skill, what's the weather forecast for Paris on my calendar";
    const vetoed = run(query, { threshold: 0.8 });
    const weather = find(vetoed, 'weather-now')!;
    const calendar = find(vetoed, 'calendar-sync')!;
    expect(weather).toMatchObject({ status: 'vetoed' });
    expect(weather.score).toBeGreaterThanOrEqual(0.8);
    expect(calendar).toMatchObject({ status: 'below_threshold' });
    expect(vetoed.plan.routing_reason).toBe(
      `weather-now (score ${weather.score.toFixed(2)}) vetoed: the message says not to use it. ` +
        `No other skill reached T = 0.80 (best of the rest: calendar-sync at ${calendar.score.toFixed(2)}); plain chat.`,
    );
  });

  it('a score just below T is shown with the digits that tell it from T', () => {
    // "score 0.65 is below T = 0.65" (0.649) read as false.
    const base = find(run('weather in Paris'), 'weather-now')!;
    const threshold = Math.round((base.score + 0.003) * 100) / 100;
    expect(base.score.toFixed(2)).toBe(threshold.toFixed(2));
    const result = run('weather in Paris', { threshold });
    const weather = find(result, 'weather-now')!;
    expect(weather.status).toBe('below_threshold');
    expect(weather.reason).toMatch(
      new RegExp(`^score ${weather.score.toFixed(3)} is below T = ${threshold.toFixed(2)}`),
    );
    expect(result.plan.routing_reason).toContain(`(best: weather-now at ${weather.score.toFixed(3)})`);
    // So is an unavailable one named before the best of the rest.
    const query = 'extract pdf text from the invoice report';
    const pdf = find(run(query, {}, { hasBin: () => false }), 'pdf-extract')!;
    const near = Math.round((pdf.score + 0.003) * 100) / 100;
    expect(pdf.score.toFixed(2)).toBe(near.toFixed(2));
    expect(run(query, { threshold: near }, { hasBin: () => false }).plan.routing_reason).toMatch(
      new RegExp(`^pdf-extract \\(score ${pdf.score.toFixed(3)}\\) unavailable`),
    );
  });

  it('T is a live setting: nothing over T goes to plain chat', () => {
    expect(run('weather in Paris').plan.primary).toBe('weather-now');
    const strict = run('weather in Paris', { threshold: 0.99 });
    expect(strict.plan.primary).toBeNull();
    expect(find(strict, 'weather-now')?.status).toBe('below_threshold');
    expect(strict.plan.routing_reason).toContain('plain chat');
  });

  it('disabled skills are never candidates, not even forced', () => {
    const result = run('$weather-now weather', { disabled: new Set(['weather-now']) });
    expect(find(result, 'weather-now')).toBeUndefined();
  });

  it('never-auto-select and disable-model-invocation skills run only when forced', () => {
    expect(find(run('deploy the app'), 'deploy-prod')).toBeUndefined();
    expect(run('$deploy-prod now').plan.primary).toBe('deploy-prod');
    expect(
      find(run('weather in Paris', { neverAutoSelect: new Set(['weather-now']) }), 'weather-now'),
    ).toBeUndefined();
  });

  it('cold start: under 20 runs cannot beat an established candidate within 0.05', () => {
    const stats = (runs: number) => (name: string) =>
      name === 'news-digest' ? { runs, successes: Math.round(runs * 0.5) } : { runs: 0, successes: 0 };
    const cost = { ...defaultConfig().weights, cost: 0.02 };
    const cold = run('news headlines today', { weights: cost }, { stats: stats(0) });
    const brief = find(cold, 'news-brief')!;
    const digest = find(cold, 'news-digest')!;
    expect(Math.abs(brief.score - digest.score)).toBeLessThanOrEqual(0.05);
    const established = run('news headlines today', { weights: cost }, { stats: stats(40) });
    expect(established.plan.primary).toBe('news-digest');
    expect(established.plan.routing_reason).toContain('cold start');
  });
});

describe('ActivationPlan (routing spec §7, §10)', () => {
  it('minimal cover drops an overlapping candidate; among near-equal ones the cheaper wins', () => {
    const result = run('news headlines today');
    expect(result.plan.primary).toBe('news-brief');
    expect(find(result, 'news-digest')?.status).toBe('dropped_overlap');
  });

  it('selects complementary skills and groups parallel_safe ones, at most 2 together', () => {
    const result = run('weather forecast and news headlines and calendar events');
    expect(result.plan.skills).toEqual(
      expect.arrayContaining(['weather-now', 'news-brief', 'calendar-sync']),
    );
    expect(result.plan.parallel_groups.every((g) => g.length <= 2)).toBe(true);
    expect(result.plan.parallel_groups.flat().sort()).toEqual([...result.plan.skills].sort());
    expect(result.plan.parallel_groups[0]).toHaveLength(2);
    const serial = run('weather forecast and news headlines and calendar events', { maxParallel: 1 });
    expect(serial.plan.parallel_groups.every((g) => g.length === 1)).toBe(true);
  });

  it('a non-parallel-safe skill runs in its own group', () => {
    const result = run('$invoice-organizer $weather-now');
    expect(result.plan.parallel_groups).toEqual([['invoice-organizer'], ['weather-now']]);
    expect(result.plan.estimated_cost).toBe('medium');
  });

  it('fallback chain: next best skill, then generic chat, then ask the user', () => {
    const result = run('news headlines today');
    expect(result.plan.fallback_chain).toEqual([
      { type: 'skill', id: id('news-digest'), name: 'news-digest' },
      { type: 'generic_chat' },
      { type: 'ask_user' },
    ]);
    expect(run('hello there').plan).toMatchObject({ primary: null, estimated_cost: 'none', skills: [] });
  });

  it('parameters carry the task without the forcing marker', () => {
    expect(run('$weather-now Paris tomorrow').plan.parameters.task).toBe('Paris tomorrow');
  });
});

describe('why not? (DESIGN §3)', () => {
  it('explains below T, not recalled, disabled, explicit-only and unroutable', () => {
    const config = defaultConfig();
    const ctx = readyContext();
    expect(
      whyNot(index, 'weather in Paris', id('weather-now'), { ...config, threshold: 0.99 }, ctx).candidate
        .status,
    ).toBe('below_threshold');
    const notRecalled = whyNot(index, 'weather in Paris', id('invoice-organizer'), config, ctx);
    expect(notRecalled.candidate).toMatchObject({ status: 'not_recalled', source: 'none' });
    expect(notRecalled.primary).toBe('weather-now');
    expect(notRecalled.explanation).toContain('not recalled');
    const disabled = whyNot(
      index,
      'weather',
      id('weather-now'),
      { ...config, disabled: new Set(['weather-now']) },
      ctx,
    );
    expect(disabled.candidate.status).toBe('disabled');
    expect(whyNot(index, 'deploy it', id('deploy-prod'), config, ctx).candidate.status).toBe('explicit_only');
    expect(whyNot(index, 'anything', id('broken'), config, ctx).candidate.status).toBe('unroutable');
    expect(() => whyNot(index, 'x', '/nope', config, ctx)).toThrow(/No skill/);
  });
});
