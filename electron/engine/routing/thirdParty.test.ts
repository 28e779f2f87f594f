import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, tempDir } from '../../testing/fixtures';
import type { RoutingIndex } from './lexicon';
import {
  formatSliceTable,
  halfQueries,
  onThisMachine,
  relTo,
  routers,
  scoreRouter,
  thresholdCurve,
  type SliceRow,
} from './quality/devEval';
import {
  halfOf,
  installSkillSet,
  readDevQueries,
  readSkillSet,
  readUnseenCatalogs,
  type DevQuery,
} from './quality/devset';
import { scoreSampledCatalogs } from './quality/subsets';
import { typoQueries } from './quality/typos';
import { catalogOf, indexOf, productConfig } from './testHelpers';
import { terms } from './text';

/**
 * Issue 10: routing among real third-party skills. The held-out half is reported and guarded,
 * never tuned on (quality/corpus/README.md). The issue's targets (P@1 ≥ 0.95, false triggers
 * ≤ 0.05) are written as known gaps: `it.fails` turns red the day they are met, so the
 * assertion gets promoted instead of forgotten.
 */
let index: RoutingIndex;
/** The engine's router: default knobs and its hold on flagged skills. */
const config = productConfig();
let installDir: string;
const queries = readDevQueries();
const table: Record<string, Record<string, SliceRow[]>> = {};
const slice = (rows: SliceRow[], name: string) => rows.find((r) => r.slice === name)!;
const SMALL = 'skilldeck, 126-skill catalogs (8 samples)';
const TYPOS = 'skilldeck, one typo in the longest word (English)';

beforeAll(async () => {
  installDir = tempDir('skilldeck-devset-');
  installSkillSet(path.join(corpusDir(), 'skills'), installDir);
  index = indexOf(await catalogOf(installDir));
  const toRel = relTo(installDir);
  for (const half of ['dev', 'test'] as const) {
    table[half] = {};
    for (const [name, router] of Object.entries(routers(index, config)))
      table[half][name] = scoreRouter(halfQueries(queries, half), router, toRel).rows;
    // Issue 10 measured 126 installed skills: the same queries on eight sampled catalogs that size.
    // Users mistype: the same English queries with one letter off in their longest word.
    table[half][TYPOS] = scoreRouter(
      typoQueries(halfQueries(queries, half)),
      routers(index, config).skilldeck,
      toRel,
    ).rows;
    table[half][SMALL] = scoreSampledCatalogs(
      index,
      readSkillSet(),
      halfQueries(queries, half),
      config,
      toRel,
    );
  }
  const curve = thresholdCurve(index, config, halfQueries(queries, 'dev'), toRel);
  const here = onThisMachine(index, config, halfQueries(queries, 'test'), toRel);
  console.log(
    `\n${formatSliceTable('dev half', table.dev)}\n\n${formatSliceTable('held-out half', table.test)}\n\ndev P@1 / false triggers over T: ${curve.map((c) => `${c.threshold}: ${c.p_at_1}/${c.false_trigger}`).join(', ')}\n\nheld-out on this machine (prerequisites checked, as skilldeck route does): P@1 ${here.hits}/${here.positives}; ${here.unavailable} queries' right skills all miss a program or variable here`,
  );
}, 400_000);

describe('the third-party dev set (issue 10 §1)', () => {
  it('has ≥ 300 queries over ≥ 300 corpus skills, English and Chinese, ≥ 10 % negatives', () => {
    const primaries = new Set(queries.filter((q) => q.expect.length > 0).map((q) => q.expect[0]));
    expect(queries.length).toBeGreaterThanOrEqual(300);
    expect(primaries.size).toBeGreaterThanOrEqual(300);
    expect(readSkillSet().length).toBeGreaterThanOrEqual(300);
    expect(queries.filter((q) => q.tags.includes('zh')).length).toBeGreaterThanOrEqual(60);
    expect(queries.filter((q) => q.expect.length === 0).length / queries.length).toBeGreaterThanOrEqual(0.1);
    expect(index.size).toBeGreaterThan(900);
  });

  it('labels only skills of the set, and splits by skill into two near-equal halves', () => {
    const set = new Set(readSkillSet());
    for (const q of queries) for (const e of q.expect) expect(set.has(e), `${e} (${q.query})`).toBe(true);
    const byPrimary = new Map<string, string>();
    for (const q of queries.filter((x) => x.expect.length > 0)) {
      const seen = byPrimary.get(q.expect[0]);
      if (seen) expect(halfOf(q)).toBe(seen);
      byPrimary.set(q.expect[0], halfOf(q));
    }
    // The split is by skill: the salted hash cuts the skill set into near-equal halves. The
    // queries no longer do (round 4 added 120 dev-half queries only; the held-out half keeps
    // round 1's 262), so the balance is checked where the split is made.
    const skills = readSkillSet();
    const devSkills = skills.filter((s) => halfOf({ query: '', expect: [s], tags: [] }) === 'dev').length;
    expect(Math.abs(devSkills - (skills.length - devSkills))).toBeLessThan(skills.length * 0.1);
    // The dev-only negatives (corpus/negatives.jsonl) stay out of the split.
    expect(queries.filter((q) => q.half).every((q) => q.expect.length === 0 && halfOf(q) === 'dev')).toBe(
      true,
    );
  });

  it('paraphrases share no content term with any of their right skills', () => {
    const words = (q: DevQuery) => new Set(terms(q.query));
    for (const q of queries.filter((x) => x.tags.includes('paraphrase'))) {
      const own = words(q);
      for (const e of q.expect) {
        const doc = index.docs.find((d) => relTo(installDir)(d.id) === e);
        if (!doc) continue;
        const { name, description, whenToUse, triggers } = doc.metadata;
        const shared = terms([name, description, whenToUse ?? '', triggers.join(' ')].join(' ')).filter((t) =>
          own.has(t),
        );
        expect(shared, `${q.query} ↔ ${e}`).toEqual([]);
      }
    }
  });
});

describe('routing quality on the dev half (issue 10, what routing is tuned on)', () => {
  // Round 3 measured 0.863 / 1 of 154 / 0.872 (zh) / 9 of 28 (paraphrases) on the whole skill set
  // and 0.877 / 0.6 % on the sampled catalogs. Round 4 added 120 harder dev queries (README) and
  // measured 0.785 / 1 of 154 / 0.831 (zh) / 9 of 58 (paraphrases) and 0.838 / 0.7 %; a synonym
  // of a Chinese gloss stopped meeting a Chinese skill's own glosses (上课 → form ← 表格), which
  // cost one Chinese query that matched through such noise (0.782, zh 0.820). Round 5 measured
  // 0.799 / 1 of 154 / 0.854 (zh) / 9 of 58 and 0.847 / 0.6 % on the sampled catalogs. Round 6
  // added 85 fresh dev queries written before the router saw them (75 to route, 10 negatives; 50
  // of the 75 routed right) and measured 0.776 / 0 of 164 / 0.826 (zh) / 9 of 74 and 0.818 / 0.4 %:
  // the floors came down because the dev set grew, not because routing lost ground. With round
  // 2's calibration kept (round 5's refit reverted, see the corpus README) it measures 0.769 /
  // 0 of 164 / 0.809 (zh) / 9 of 74 and 0.815 / 0.1 %. Round 7 (CC-CEDICT by sense, shrink ≈
  // compress, requests for a new skill): 0.776 / 0 of 164 / 0.817 (zh) / 9 of 74 and 0.817 /
  // 0.1 %. Round 8 (compounds of two Chinese words' glosses: 工作流 → workflow): 0.779 / 0 of 164
  // / 0.826 (zh). Round 9 added 30 dev negatives (remarks), two of which fire: 2 of 194, and on
  // the sampled catalogs 23 of 1,552 (from 1 of 1,312); news that something works now read as no
  // request: 19 of 1,552. Round 11 added 80 fresh dev queries written before the router saw them
  // (65 to route, 15 negatives): 47 of the 65 routed right and 3 of the 15 fired, so the dev set
  // measured 0.771 / 5 of 209 / 0.807 (zh) / 10 of 84; the round's fixes (a Chinese word as common
  // as its meaning, three-word product names, -er nouns, a brand, comparisons as questions) brought
  // it to 0.775 / 3 of 209 / 0.815 (zh) / 10 of 84 and 0.804 / 7 of 1,672 on the sampled catalogs
  // (resampled: the catalogs draw from the grown dev set). Round 12 added 70 more unseen queries
  // (40 to route, 30 negatives, mostly chat that names a skill's word): 29 of the 40 routed right
  // and 10 of the 30 fired; reading a statement of what happened as no request brought the dev
  // half to 0.772 / 3 of 239 / 0.814 (zh) / 10 of 89 and 0.805 / 11 of 1,912 sampled. Round 13
  // added 70 more (35 to route, 13 of them handed over as statements; 35 negatives of every
  // form): 24 of the 35 routed right and 12 of the 35 fired, so the dev half measures 0.766 / 15
  // of 274 / 0.794 (zh) and 0.784 / 51 of 2,192 sampled; reading an opinion or a reaction in the
  // present as a remark brought false triggers to 6 of 274 and 26 of 2,192, no hit lost. Round 14,
  // 70 unseen queries of an ordinary week (40 requests, 30 negatives), measured the router as it
  // then stood out of sample: 31 of 40 routed right, 2 of 30 fired; with it the dev half reads
  // 0.767 / 8 of 304 / 0.781 (zh), and after thanks, sighs and "what's the story behind" read as
  // chat, 5 of 304 and 0.815 / 14 of 2,432 sampled. Round 15's fixes (found on a catalog of
  // skills outside this set: a product the user names, more forms of chat) brought it to 0.780 /
  // (0.782 after round 18's, 0.783 and 0.825 sampled with a request's clear leader) /
  // 4 of 304 / 0.799 (zh) and 0.820 / 13 of 2,432 sampled. The calibration's Chinese weight took
  // Chinese to 141 of 169 = 0.834; counting the glosses of a skill's own Chinese as the text they
  // add (lexicon.ts) took it back to 140 = 0.828: a Chinese stock skill lost 看看宁德时代今天主力资金
  // 是流入还是流出 (0.71) to an English fund-flow tracker (0.73) by its glosses' "time" and
  // "period", the density that had a Chinese role-play game take English requests about voice
  // recordings and cloud config. The floors are the measured values, so a change that loses ground
  // shows at once.
  it('keeps the measured floors: P@1 ≥ 0.783, false triggers ≤ 0.014, Chinese ≥ 0.828, paraphrases ≥ 0.118', () => {
    const all = slice(table.dev.skilldeck, 'all');
    expect(all.p_at_1!).toBeGreaterThanOrEqual(0.783);
    expect(all.false_trigger!).toBeLessThanOrEqual(0.014);
    expect(slice(table.dev.skilldeck, 'zh').p_at_1!).toBeGreaterThanOrEqual(0.828);
    expect(slice(table.dev.skilldeck, 'paraphrase').p_at_1!).toBeGreaterThanOrEqual(0.118);
    expect(slice(table.dev[SMALL], 'all').p_at_1!).toBeGreaterThanOrEqual(0.825);
    expect(slice(table.dev[SMALL], 'all').false_trigger!).toBeLessThanOrEqual(0.006);
  });

  // Spelling neighbours (lexicon.ts) measured 225 of 307 typo'd English dev queries (false
  // triggers 1/111) against 191 (3/111) without them; the same queries spelled right: 239 of 314.
  // With round 11's queries: 257 of 352, false triggers 2 of 140; with round 12's: 278 of 382, 2 of
  // 156; with round 13's: 296 of 407, 9 of 180 (295 of 407, 3 of 180 after opinions read as
  // remarks); with round 14's: 314 of 433, 3 of 200; after round 15's fixes 318 of 433, 3 of 200; with the clear leader 319 of 433.
  it('keeps the floor with one typo in the longest word: P@1 ≥ 0.737, false triggers ≤ 0.015', () => {
    const typos = slice(table.dev[TYPOS], 'all');
    expect(typos.positives).toBeGreaterThan(300);
    expect(typos.p_at_1!).toBeGreaterThanOrEqual(0.737);
    expect(typos.false_trigger!).toBeLessThanOrEqual(0.015);
  });
});

describe('routing quality on the held-out half (issue 10)', () => {
  it('beats the constant-intent, trigger-only and plain BM25 routers on precision@1', () => {
    const ours = slice(table.test.skilldeck, 'all');
    for (const baseline of ['constant intent (seeds)', 'trigger-only', 'plain BM25 (name + description)'])
      expect(ours.p_at_1!).toBeGreaterThan(slice(table.test[baseline], 'all').p_at_1! - 0.15);
    expect(ours.p_at_1!).toBeGreaterThan(slice(table.test['constant intent (seeds)'], 'all').p_at_1!);
    expect(ours.p_at_1!).toBeGreaterThan(slice(table.test['trigger-only'], 'all').p_at_1!);
  });

  it('ranks at least as well as plain BM25 (the best-scored candidate is right as often)', () => {
    const ours = slice(table.test.skilldeck, 'all').best_right!;
    expect(ours).toBeGreaterThanOrEqual(slice(table.test['plain BM25 (name + description)'], 'all').p_at_1!);
  });

  // Round 3 measured 0.784 (best-ranked 0.840) / 2 of 31 / 0.675 (best-ranked 0.850) on the whole
  // skill set and 0.848 / 0.8 % / 0.833 on the sampled catalogs; round 5 0.814 (best-ranked 0.840)
  // / 3 of 31 / 0.775 (best-ranked 0.850) and 0.858 / 1.6 % / 0.899; round 6 the same on the whole
  // skill set and 0.863 / 0.4 % / 0.899 on the sampled catalogs — both with round 5's refit; with
  // round 2's calibration kept, 0.792 (best-ranked 0.840) / 2 of 31 / 0.700 (best-ranked 0.875)
  // and 0.845 / 0.4 % / 0.833. The floors sit a little under,
  // so noise does not fail them but a real regression does. 3 of 31 negatives is 0.097.
  it('keeps the measured floors: P@1 ≥ 0.79, best-ranked ≥ 0.83, false triggers ≤ 0.10, Chinese P@1 ≥ 0.775', () => {
    const all = slice(table.test.skilldeck, 'all');
    expect(all.p_at_1!).toBeGreaterThanOrEqual(0.79);
    expect(all.best_right!).toBeGreaterThanOrEqual(0.83);
    expect(all.false_trigger!).toBeLessThanOrEqual(0.1);
    expect(slice(table.test.skilldeck, 'zh').p_at_1!).toBeGreaterThanOrEqual(0.775);
    expect(slice(table.test.skilldeck, 'zh').best_right!).toBeGreaterThanOrEqual(0.84);
    expect(slice(table.test.skilldeck, 'forced').p_at_1!).toBe(1);
  });

  // The Chinese weight of the calibration (calibration.ts `chinese`, chosen on the dev half) routes
  // two more held-out Chinese requests right on the whole skill set and four more on the sampled
  // catalogs, and fires 3 of their 64 Chinese negatives: 4 of 248 = 0.016 in all (was 1 of 248).
  it('keeps the floors on 126-skill catalogs (the size issue 10 measured): P@1 ≥ 0.84, false triggers ≤ 0.02', () => {
    const all = slice(table.test[SMALL], 'all');
    expect(all.p_at_1!).toBeGreaterThanOrEqual(0.84);
    expect(all.false_trigger!).toBeLessThanOrEqual(0.02);
    expect(slice(table.test[SMALL], 'zh').p_at_1!).toBeGreaterThanOrEqual(0.82);
  });

  it.fails('meets the issue 10 target: P@1 ≥ 0.95 and false triggers ≤ 0.05 without a model', () => {
    const all = slice(table.test.skilldeck, 'all');
    expect(all.p_at_1!).toBeGreaterThanOrEqual(0.95);
    expect(all.false_trigger!).toBeLessThanOrEqual(0.05);
  });

  it.fails('meets the issue 10 slice targets: paraphrases ≥ 26 of 29, Chinese ≥ 27 of 30', () => {
    expect(slice(table.test.skilldeck, 'paraphrase').p_at_1!).toBeGreaterThanOrEqual(26 / 29);
    expect(slice(table.test.skilldeck, 'zh').p_at_1!).toBeGreaterThanOrEqual(0.9);
  });

  it.fails('meets the issue 10 ranking target: the best-scored candidate is right ≥ 0.97', () => {
    expect(slice(table.test.skilldeck, 'all').best_right!).toBeGreaterThanOrEqual(0.97);
  });
});

describe('routing quality on catalogs of skills the dev set never had (round 15 on)', () => {
  // Round 15: 126 corpus skills outside the 944 (20 Composio toolkits, 106 from the OpenClaw
  // archive), 140 queries written blind by two helpers (110 requests, 30 negatives). Its first
  // measurement, the router as it stood after round 14: 84 of 110 routed right (English 62 of 84,
  // Chinese 22 of 26, paraphrases 4 of 22, forced 10 of 10) and 6 of 30 negatives fired; plain
  // BM25 70 of 110. After the round's fixes (a product the user names, the chat forms it showed),
  // 87 of 110 and 0 of 30 — in sample now. Two requests name macOS-only skills, which are not
  // offered on Linux. Round 16: 126 more (none of round 15's), 140 more queries written the same
  // way, measured first with round 15's fixes in: 90 of 110 and 8 of 30 fired (the router before
  // round 15: 87 of 110, 10 of 30); after round 16's fixes 92 of 110 and 1 of 30 (a "why did …"
  // question whose words meet a skill's "Use when" phrase). Round 17 the same way, first measured
  // with round 16's fixes in: 89 of 110, 6 of 30 fired; after its fixes 90 of 110, 2 of 30. Round
  // 18 mixes 30 well-known skills of the dev set's small repositories (Anthropic's, obra's, OpenAI's,
  // Vercel's, OpenClaw's own) with 96 unseen ones, as a user's folder would: first measured 87 of
  // 110, 3 of 30 fired; after its fixes 90 of 110, 0 of 30 (its misses were read only for queries
  // whose first label is no held-out skill). A request's clear leader (score.ts) then brought the
  // four to 88, 93, 92 and 92 of 110, false triggers unchanged (3 of 120). Round 19, the same
  // mix as round 18 (30 other well-known dev-half skills), measured once with everything above in
  // and not tuned on: 87 of 110, 3 of 30 fired; three chat forms it showed (thanks, then what
  // happened; "is A or B 3 better … curious what you think"; "who started …") then 0 of 30.
  // Round 20, the same mix once more, measured with round 19's fixes in: 95 of 110, 5 of 30
  // fired (Chinese chat 4 of 10: 说说你的看法, 有什么不同, 什么都不想干了); after them 95 of 110, 0
  // of 30. Rounds 21–28 likewise, two at a time (corpus/README.md). Rounds 29–31 measured the
  // learned chat form (chatForm.ts): with the rules alone 81, 87, 82 of 110 and 6, 2, 10 of 30
  // fired; with a model trained without them 81, 87, 82 and 3, 1, 5 (round 31 read after rounds
  // 29–30 joined the model). Round 32, Composio toolkits only (the archive ran out): 77 of 110 and 4
  // of 30 fired with the rules alone, 77 and 2 with the model; 79 after its fixes (names typed in
  // small letters or glued from three words, e-mail addresses). Round 33, Composio only, measured
  // before it was read with everything through round 32 in: 86 of 110 and 3 of 30 fired (6 of 30
  // with the rules alone; the router of round 32's stop read it the same); 1 of 30 once the chat
  // form learned it too. Round 34, the archive's last skills with a frontmatter (short, odd or
  // broken ones: four are not routable for an unclosed block) beside the last 41 Composio
  // toolkits, measured before it was read: 78 of 110, 3 of 30 fired. The floors are the measured
  // values.
  const FLOORS: Record<string, { p_at_1: number; false_trigger: number }> = {
    r15: { p_at_1: 0.8, false_trigger: 0 },
    r16: { p_at_1: 0.84, false_trigger: 0.034 },
    r17: { p_at_1: 0.83, false_trigger: 0.067 },
    r18: { p_at_1: 0.83, false_trigger: 0 },
    r19: { p_at_1: 0.79, false_trigger: 0 },
    r20: { p_at_1: 0.86, false_trigger: 0 },
    r21: { p_at_1: 0.84, false_trigger: 0.034 },
    r22: { p_at_1: 0.87, false_trigger: 0 },
    r23: { p_at_1: 0.8, false_trigger: 0 },
    r24: { p_at_1: 0.75, false_trigger: 0 },
    r25: { p_at_1: 0.74, false_trigger: 0 },
    r26: { p_at_1: 0.79, false_trigger: 0 },
    r27: { p_at_1: 0.82, false_trigger: 0 },
    r28: { p_at_1: 0.78, false_trigger: 0.034 },
    r29: { p_at_1: 0.73, false_trigger: 0.067 },
    r30: { p_at_1: 0.79, false_trigger: 0 },
    r31: { p_at_1: 0.74, false_trigger: 0.067 },
    r32: { p_at_1: 0.71, false_trigger: 0.067 },
    r33: { p_at_1: 0.78, false_trigger: 0.034 },
    r34: { p_at_1: 0.7, false_trigger: 0.1 },
  };
  /** The dev set's well-known skills a round holds as a user's folder would (rounds 18 on); round 21 took the last 11. */
  const WELL_KNOWN: Record<string, number> = { r18: 30, r19: 30, r20: 30, r21: 11 };
  const catalogs = readUnseenCatalogs();

  it('has a catalog per round, each labelled only over its own skills, none of them the dev set’s but well-known ones from round 18 on', () => {
    expect(catalogs.map((c) => c.round)).toEqual(Object.keys(FLOORS));
    const dev = new Set(readSkillSet());
    for (const { round, skills, queries: labelled } of catalogs) {
      expect(skills.filter((s) => dev.has(s)).length).toBe(WELL_KNOWN[round] ?? 0);
      const own = new Set(skills);
      for (const q of labelled) for (const e of q.expect) expect(own.has(e), `${e} (${q.query})`).toBe(true);
    }
  });

  for (const catalog of catalogs)
    it(`keeps the measured floors on ${catalog.round}`, async () => {
      const dir = tempDir(`skilldeck-${catalog.round}-`);
      installSkillSet(path.join(corpusDir(), 'skills'), dir, catalog.skills);
      const unseen = indexOf(await catalogOf(dir));
      const rows: Record<string, SliceRow[]> = {};
      for (const [name, router] of Object.entries(routers(unseen, config)))
        rows[name] = scoreRouter(catalog.queries, router, relTo(dir)).rows;
      console.log(
        `\n${formatSliceTable(`${catalog.round}: an unseen catalog, its queries written blind`, rows)}`,
      );
      const all = slice(rows.skilldeck, 'all');
      expect(all.p_at_1!).toBeGreaterThanOrEqual(FLOORS[catalog.round].p_at_1);
      expect(all.false_trigger!).toBeLessThanOrEqual(FLOORS[catalog.round].false_trigger);
      expect(all.p_at_1!).toBeGreaterThan(slice(rows['plain BM25 (name + description)'], 'all').p_at_1!);
    }, 60_000);
});
