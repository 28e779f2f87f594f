import fs from 'node:fs';
import path from 'node:path';
import type { RoutingIndex } from '../lexicon';
import { route, type RouterConfig } from '../router';
import type { ScoreContext } from '../score';
import { seedScorer, triggerOnly } from './baselines';
import { LABELLED_QUERIES, type LabelledQuery } from './queries';

export interface QualityRow {
  router: string;
  /** Share of should-route queries whose primary is an acceptable skill. */
  precision_at_1: number;
  /** Share of no-skill queries where a skill was chosen anyway. */
  false_trigger_rate: number;
  /** Share of all queries answered right (correct skill, or correctly none). */
  accuracy: number;
  positives: number;
  negatives: number;
}

export interface QualityReport {
  rows: QualityRow[];
  /** SkillDeck's misses, for the curious. */
  misses: { query: string; expected: string[]; got: string | null }[];
}

type Pick = (query: string) => string | null;

function score(
  name: string,
  pick: Pick,
  queries: LabelledQuery[],
): QualityRow & { misses: QualityReport['misses'] } {
  let hits = 0;
  let falseTriggers = 0;
  const misses: QualityReport['misses'] = [];
  const positives = queries.filter((q) => q.expect.length > 0).length;
  for (const labelled of queries) {
    const got = pick(labelled.query);
    const ok = labelled.expect.length === 0 ? got === null : got !== null && labelled.expect.includes(got);
    if (labelled.expect.length === 0 && got !== null) falseTriggers++;
    if (labelled.expect.length > 0 && ok) hits++;
    if (!ok) misses.push({ query: labelled.query, expected: labelled.expect, got });
  }
  const negatives = queries.length - positives;
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return {
    router: name,
    precision_at_1: r(hits / positives),
    false_trigger_rate: r(falseTriggers / negatives),
    accuracy: r((hits + negatives - falseTriggers) / queries.length),
    positives,
    negatives,
    misses,
  };
}

/**
 * SkillDeck against the two baselines on the same labelled queries and index. Prerequisites
 * count as met and nothing has history: this measures routing, not the machine.
 */
export function evaluateQuality(
  index: RoutingIndex,
  config: RouterConfig,
  queries = LABELLED_QUERIES,
): QualityReport {
  const ctx: ScoreContext = {
    stats: () => ({ runs: 0, successes: 0 }),
    hasBin: () => true,
    env: {},
    assumeReady: true,
  };
  const ours = score('skilldeck', (query) => route(index, query, config, ctx).plan.primary, queries);
  const rows = [
    ours,
    score('trigger-only', (query) => nameOf(index, triggerOnly(index, query, config).primary), queries),
    score(
      'seed-scorer (intent 0.5)',
      (query) => nameOf(index, seedScorer(index, query, config).primary),
      queries,
    ),
  ];
  return { rows: rows.map(({ misses: _misses, ...row }) => row), misses: ours.misses };
}

const nameOf = (index: RoutingIndex, id: string | null) => (id ? (index.byId.get(id)?.name ?? null) : null);

/** The corpus repositories the quality eval adds as distractors and targets (~300 skills). */
const CORPUS_REPOS = [
  'anthropics__skills',
  'openai__skills',
  'vercel-labs__agent-skills',
  'obra__superpowers',
  'ChromeDevTools__chrome-devtools-mcp-npm-1.8.0',
  'openclaw__clawhub',
  'openclaw__openclaw-npm-2026.9.6',
];
const COMPOSIO_SLICE = 150;

/** Copies a fixed slice of the corpus (the repos above, the first 150 Composio skills) into `dest`. */
export function copyCorpusSlice(corpusSkills: string, dest: string): number {
  let count = 0;
  for (const repo of CORPUS_REPOS) {
    const from = path.join(corpusSkills, repo);
    if (!fs.existsSync(from)) continue;
    fs.cpSync(from, path.join(dest, repo), { recursive: true });
    count++;
  }
  const composio = path.join(corpusSkills, 'ComposioHQ__awesome-claude-skills');
  if (fs.existsSync(composio)) {
    const dirs = fs
      .readdirSync(composio, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort()
      .slice(0, COMPOSIO_SLICE);
    for (const dir of dirs)
      fs.cpSync(path.join(composio, dir), path.join(dest, 'composio', dir), { recursive: true });
    count++;
  }
  return count;
}

/** The table, as printed by the test and the bench. */
export function formatQualityTable(report: QualityReport): string {
  const head = `| router | precision@1 | false-trigger rate | accuracy |\n| --- | --- | --- | --- |`;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const lines = report.rows.map(
    (r) => `| ${r.router} | ${pct(r.precision_at_1)} | ${pct(r.false_trigger_rate)} | ${pct(r.accuracy)} |`,
  );
  const { positives, negatives } = report.rows[0];
  return `${head}\n${lines.join('\n')}\n(${positives} should-route queries, ${negatives} no-skill queries)`;
}
