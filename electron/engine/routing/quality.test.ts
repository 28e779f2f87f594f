import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, tempDir } from '../../testing/fixtures';
import type { RoutingIndex } from './lexicon';
import { copyCorpusSlice, evaluateQuality, formatQualityTable } from './quality/evaluate';
import { LABELLED_QUERIES } from './quality/queries';
import { BUNDLED_DIR, catalogOf, defaultConfig, indexOf } from './testHelpers';

let index: RoutingIndex;
beforeAll(async () => {
  const corpusCopy = tempDir('skilldeck-quality-');
  copyCorpusSlice(path.join(corpusDir(), 'skills'), corpusCopy);
  index = indexOf(await catalogOf(BUNDLED_DIR, corpusCopy));
}, 60_000);

describe('routing quality (issue 4): SkillDeck vs trigger-only and the seeds’ constant-intent scorer', () => {
  it('has at least 60 labelled queries over a few hundred skills, English and Chinese, with negatives', () => {
    expect(LABELLED_QUERIES.length).toBeGreaterThanOrEqual(60);
    expect(LABELLED_QUERIES.some((q) => /[\u4e00-\u9fff]/.test(q.query))).toBe(true);
    expect(LABELLED_QUERIES.filter((q) => q.expect.length === 0).length).toBeGreaterThanOrEqual(20);
    expect(index.size).toBeGreaterThan(250);
  });

  it('beats both baselines on precision@1 and accuracy, and false-triggers less than trigger-only', () => {
    const report = evaluateQuality(index, defaultConfig());
    console.log(
      `\n${formatQualityTable(report)}\nSkillDeck misses:\n${report.misses.map((m) => `  ${m.query} → ${m.got ?? 'none'} (want ${m.expected.join('|') || 'none'})`).join('\n')}`,
    );
    const [ours, triggerOnly, seed] = report.rows;
    for (const baseline of [triggerOnly, seed]) {
      expect(ours.precision_at_1).toBeGreaterThan(baseline.precision_at_1);
      expect(ours.accuracy).toBeGreaterThan(baseline.accuracy);
    }
    // The seeds' scorer stays quiet by letting almost nothing pass T (DESIGN §3); trigger-only
    // fires on every keyword. SkillDeck must false-trigger less than the keyword router.
    expect(ours.false_trigger_rate).toBeLessThan(triggerOnly.false_trigger_rate);
    // Round 3 measured 97.7 % and 2 of 26 false triggers ("What does JSON stand for?" no longer
    // fires json-format on its one-word trigger).
    expect(ours.precision_at_1).toBeGreaterThanOrEqual(0.97);
    expect(ours.false_trigger_rate).toBeLessThanOrEqual(0.08);
  });
});
