/**
 * Routing benchmarks for `npm run bench` (issues 4 and 10 "Speed"): route latency at 100 / 1k /
 * 10k synthetic skills and over the corpus with the lexical semantics on, index build time,
 * and the quality tables (issue 4's own set; issue 10's third-party dev set). Bundled by
 * scripts/build-node.mjs into dist/node/routing-bench.cjs; never part of the app.
 */
import os from 'node:os';
import path from 'node:path';
import type { SkillSummary } from '../../../shared/contract';
import { SkillCatalog, interpretSkill } from '../skills';
import { indexedSkills, RoutingIndex } from './lexicon';
import { copyCorpusSlice, evaluateQuality, formatQualityTable } from './quality/evaluate';
import { benchDevSet, fitDevCalibration } from './quality/devBench';
import { LABELLED_QUERIES } from './quality/queries';
import { flaggedHold, flaggedOnDisk } from './held';
import { route, type RouterConfig } from './router';
import { fitChatForm } from './quality/chatFormData';
export { route, RoutingIndex, SkillCatalog, fitDevCalibration, fitChatForm };
import type { ScoreContext } from './score';
import { percentile } from '../telemetry';
import fs from 'node:fs';

const VERBS = [
  'Extracts',
  'Summarizes',
  'Converts',
  'Validates',
  'Generates',
  'Audits',
  'Syncs',
  'Deploys',
  'Monitors',
  'Formats',
  'Translates',
  'Analyzes',
  'Backs up',
  'Schedules',
  'Reviews',
];
const OBJECTS = [
  'invoices',
  'pull requests',
  'CSV tables',
  'PDF reports',
  'calendar events',
  'Kubernetes manifests',
  'SQL queries',
  'Slack threads',
  'Jira tickets',
  'log files',
  'API responses',
  'Docker images',
  'meeting notes',
  'spreadsheets',
  'emails',
  'Terraform plans',
  'release notes',
  'screenshots',
  'podcasts',
  'receipts',
];
const VIA = [
  'with the GitHub CLI',
  'through the Notion API',
  'using pandas',
  'via a local Python script',
  'with ffmpeg',
  'from the command line',
  'with Playwright',
  'using the AWS SDK',
  'through a REST API',
  'with jq',
];
const WHEN = [
  'before a release',
  'for a weekly report',
  'when the user pastes data',
  'for compliance audits',
  'during incident response',
  'for a team standup',
];
const ZH = ['发票', '报销', '会议纪要', '日志', '表格', '翻译', '部署', '备份', '截图', '邮件'];

/** A realistic synthetic SKILL.md: verb + object + tool + occasion, triggers, some CJK. */
export function syntheticSkillMd(i: number): string {
  const pick = <T>(list: T[], salt: number) =>
    list[(i * 7 + salt * 13 + Math.floor(i / list.length)) % list.length];
  const verb = pick(VERBS, 1);
  const object = pick(OBJECTS, 2);
  const via = pick(VIA, 3);
  const when = pick(WHEN, 4);
  const zh = pick(ZH, 5);
  const name = `${verb.toLowerCase().replace(/\s+/g, '-')}-${object.toLowerCase().replace(/\s+/g, '-')}-${i}`;
  const description = `${verb} ${object} ${via} ${when}. Use when the user asks to ${verb.toLowerCase()} ${object} or mentions ${zh}. Not for editing ${pick(OBJECTS, 6)}.`;
  const triggers = [`${verb.toLowerCase()} ${object}`, object, zh].map((t) => JSON.stringify(t)).join(', ');
  const cost = ['low', 'medium', 'high'][i % 3];
  return `---\nname: ${name}\ndescription: ${description}\ntriggers: [${triggers}]\nanti_triggers: ["${pick(OBJECTS, 7)} template"]\ncost_hint: ${cost}\nparallel_safe: ${i % 2 === 0}\n---\n# ${name}\n`;
}

const SYLLABLES = 'ba ko ri ten su mal vor dex pi lan gro set fi nu tor ka me zel'.split(' ');

/**
 * A synthetic body of about 2 KiB (the scan keeps up to 4 KiB): "When to use" examples from the
 * same vocabulary as the descriptions, so query words hit many bodies, and prose over a Zipf-like
 * vocabulary of 5,000 made-up words, so postings have a realistic long tail.
 */
export function syntheticBody(i: number): string {
  let seed = (i * 2654435761) >>> 0;
  const next = () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  const word = () => {
    const rank = Math.floor(5000 ** next());
    return `${SYLLABLES[rank % 18]}${SYLLABLES[Math.floor(rank / 18) % 18]}${SYLLABLES[Math.floor(rank / 324) % 18]}`;
  };
  const from = <T>(list: T[]) => list[Math.floor(next() * list.length)];
  const examples = Array.from(
    { length: 4 },
    () => `- "${from(VERBS).toLowerCase()} the ${from(OBJECTS)} ${from(VIA)} ${from(WHEN)}"`,
  );
  const prose = Array.from({ length: 8 }, () => `${Array.from({ length: 30 }, word).join(' ')}.`);
  return `## When to use

${examples.join('\n')}

## How it works

${prose.join('\n')}
`;
}

/** An in-memory index of `n` synthetic skills, loaded through the real loader. */
export function syntheticIndex(n: number): RoutingIndex {
  const skills = Array.from({ length: n }, (_, i) => {
    const dir = `/synthetic/skill-${i}`;
    const loc = {
      dir,
      fileName: 'SKILL.md',
      root: '/synthetic',
      source: 'extra' as const,
      hasAgentsDir: false,
      hasScriptsDir: false,
    };
    const { metadata } = interpretSkill(
      loc,
      { skillMd: syntheticSkillMd(i), scriptsHasFiles: false },
      'linux',
    );
    const summary: SkillSummary = {
      id: dir,
      name: metadata.name,
      description: metadata.description,
      path: dir,
      file: `${dir}/SKILL.md`,
      source: 'extra',
      root: '/synthetic',
      type: metadata.type,
      triggers: metadata.triggers,
      tags: metadata.tags,
      routable: true,
      problems: [],
      shadows: [],
    };
    return { summary, metadata, text: syntheticBody(i) };
  });
  return new RoutingIndex(skills);
}

export const BENCH_QUERIES = [
  ...LABELLED_QUERIES.map((q) => q.query),
  'summarize the pull requests before a release',
  'convert these CSV tables with pandas for the weekly report',
  '帮我把这些发票整理一下',
  'deploy the Docker images during incident response',
];

export const config: RouterConfig = {
  weights: {
    intent_match: 0.4,
    trigger_match: 0.2,
    success_rate: 0.15,
    context_readiness: 0.1,
    cost: 0.1,
    conflict: 0.05,
  },
  threshold: 0.65,
  topK: 3,
  maxParallel: 2,
  disabled: new Set(),
  neverAutoSelect: new Set(),
};
export const ctx: ScoreContext = { stats: () => ({ runs: 0, successes: 0 }), hasBin: () => true, env: {} };

/**
 * p50 / p95 of route() over the bench queries, after a warm-up. Also the p95 over each
 * query's median: on a loaded machine, preemption puts multi-ms stalls into any raw p95.
 */
export function measureRouting(
  index: RoutingIndex,
  rounds = 20,
): { p50_ms: number; p95_ms: number; p95_of_query_medians_ms: number; routes: number } {
  for (const query of BENCH_QUERIES) route(index, query, config, ctx);
  const times: number[] = [];
  const perQuery: number[][] = BENCH_QUERIES.map(() => []);
  for (let r = 0; r < rounds; r++) {
    BENCH_QUERIES.forEach((query, q) => {
      const start = performance.now();
      route(index, query, config, ctx);
      const elapsed = performance.now() - start;
      times.push(elapsed);
      perQuery[q].push(elapsed);
    });
  }
  times.sort((a, b) => a - b);
  const medians = perQuery
    .map(
      (list) =>
        percentile(
          [...list].sort((a, b) => a - b),
          0.5,
        ) ?? 0,
    )
    .sort((a, b) => a - b);
  const ms = (x: number | null) => Math.round((x ?? 0) * 1000) / 1000;
  return {
    p50_ms: ms(percentile(times, 0.5)),
    p95_ms: ms(percentile(times, 0.95)),
    p95_of_query_medians_ms: ms(percentile(medians, 0.95)),
    routes: times.length,
  };
}

/** What a fresh index's first mistyped word costs (lexicon.ts spellingNeighbours: no table to build). */
function firstTypoMs(index: RoutingIndex): number {
  const start = performance.now();
  index.spellingNeighbours('wheather');
  return Math.round((performance.now() - start) * 10) / 10;
}

/** A made-up lowercase word of three to four syllables, the same for the same `i`. */
function madeUp(i: number): string {
  const syllables = ['zor', 'vak', 'lin', 'tem', 'qua', 'bri', 'sto', 'mun', 'pex', 'dal', 'rho', 'kif'];
  const n = 3 + (i % 2);
  return Array.from({ length: n }, (_, k) => syllables[(i * (k + 3) + k * 5) % syllables.length]).join('');
}

/**
 * What users paste into the message box, up to the contract's 20,000 characters: one long
 * token (a key, a blob), base64, a log, code, Chinese prose. Deterministic, so runs compare.
 */
export function pastes(): Record<string, string> {
  const bytes = Buffer.alloc(15_000);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + (i >> 3) * 31) & 0xff;
  const lines = (n: number, line: (i: number) => string) =>
    Array.from({ length: n }, (_, i) => line(i)).join('\n');
  return {
    one_token_20k: 'x'.repeat(20_000),
    base64_20k: bytes.toString('base64').slice(0, 20_000),
    log_20k: lines(
      200,
      (i) =>
        `2026-11-28T18:${String(i % 60).padStart(2, '0')}:00Z ERROR worker-${i} failed: ECONNREFUSED 10.0.0.${i}:5432 at Socket.connect (node:net:1234:16)`,
    ).slice(0, 20_000),
    code_8k: lines(
      160,
      (i) =>
        `export function handler${i}(req: Request): Promise<Response> { return fetchUpstream(req.url, { retries: ${i % 5} }); }`,
    ).slice(0, 8_000),
    // Identifiers no skill uses, each one a word the typo reader would otherwise try.
    code_identifiers_8k: lines(
      200,
      (i) => `  const ${madeUp(i)} = ${madeUp(i * 7 + 3)}(${madeUp(i * 13 + 5)});`,
    ).slice(0, 8_000),
    dot_leaders_20k: '. '.repeat(10_000),
    chinese_5k:
      '帮我把这个功能拆成详细的实施计划，先别写代码。看看宁德时代今天主力资金是流入还是流出。'.repeat(110),
  };
}

/** Per paste: the first route of it, then the keystroke after it (the paste plus one word). */
function measurePastes(index: RoutingIndex): Record<string, { first_ms: number; next_keystroke_ms: number }> {
  const out: Record<string, { first_ms: number; next_keystroke_ms: number }> = {};
  const ms = (from: number) => Math.round((performance.now() - from) * 10) / 10;
  for (const [name, text] of Object.entries(pastes())) {
    let start = performance.now();
    route(index, text, config, ctx);
    const first = ms(start);
    start = performance.now();
    route(index, `${text} ok`, config, ctx);
    out[name] = { first_ms: first, next_keystroke_ms: ms(start) };
  }
  return out;
}

/** Every routing figure of the bench, as one JSON-able object. */
export async function benchRouting(options: {
  corpusSkills: string;
  bundledDir: string;
}): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = { load_average_1m: os.loadavg()[0], cpus: os.cpus().length };
  const targets: Record<number, number> = { 1000: 1, 10000: 10 };
  for (const n of [100, 1000, 10000]) {
    const start = performance.now();
    const index = syntheticIndex(n);
    const build = performance.now() - start;
    const firstTypo = firstTypoMs(index);
    const latency = measureRouting(index, n >= 10000 ? 10 : 20);
    const target = targets[n];
    out[`synthetic_${n}`] = {
      skills: index.size,
      index_build_ms: Math.round(build),
      first_typo_ms: firstTypo,
      ...latency,
      ...(target ? { target_p95_ms: target, pass: latency.p95_ms <= target } : {}),
    };
  }
  if (fs.existsSync(options.corpusSkills)) {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldeck-bench-route-'));
    const catalog = await SkillCatalog.open({
      home,
      userHome: home,
      workspace: home,
      extraDirs: [options.corpusSkills],
      noDefaultPaths: true,
    });
    const listed = indexedSkills(catalog);
    const start = performance.now();
    const index = new RoutingIndex(listed);
    const build = performance.now() - start;
    out.corpus = {
      skills: listed.length,
      routable: index.size,
      index_build_ms: Math.round(build),
      first_typo_ms: firstTypoMs(index),
      ...measureRouting(index),
      pastes: measurePastes(index),
    };

    const slice = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldeck-bench-quality-'));
    copyCorpusSlice(options.corpusSkills, slice);
    const qualityCatalog = await SkillCatalog.open({
      home,
      userHome: home,
      workspace: home,
      extraDirs: [options.bundledDir, slice],
      noDefaultPaths: true,
    });
    const qualityIndex = new RoutingIndex(indexedSkills(qualityCatalog));
    // Issue 10: the third-party dev set, dev and held-out halves, every slice, three baselines.
    out.quality_third_party = await benchDevSet(options.corpusSkills, {
      ...config,
      heldBack: flaggedHold(flaggedOnDisk()),
    });
    const report = evaluateQuality(qualityIndex, config);
    out.quality = {
      skills: qualityIndex.size,
      queries: LABELLED_QUERIES.length,
      rows: report.rows,
      table: formatQualityTable(report).split('\n'),
    };
    fs.rmSync(slice, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  } else {
    out.corpus = { skipped: `corpus not found at ${options.corpusSkills}` };
  }
  return out;
}
