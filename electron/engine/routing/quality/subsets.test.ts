import { describe, expect, it } from 'vitest';
import { readDevQueries, readSkillSet } from './devset';
import { sampleCatalog } from './subsets';

describe('sampled small catalogs (issue 10: abstention depends on the catalog size)', () => {
  const skills = readSkillSet();
  const queries = readDevQueries();

  it('holds every right skill of the queries it keeps, fills up to the size, and keeps every negative', () => {
    const sample = sampleCatalog(skills, queries, 'seed-a', 126);
    const installed = new Set(sample.skills);
    expect(installed.size).toBe(126);
    const positives = sample.queries.filter((q) => q.expect.length > 0);
    expect(positives.length).toBeGreaterThan(30);
    for (const q of positives) for (const e of q.expect) expect(installed.has(e), e).toBe(true);
    expect(sample.queries.filter((q) => q.expect.length === 0)).toHaveLength(
      queries.filter((q) => q.expect.length === 0).length,
    );
  });

  it('is the same for the same seed and differs for another', () => {
    expect(sampleCatalog(skills, queries, 'seed-a')).toEqual(sampleCatalog(skills, queries, 'seed-a'));
    expect(sampleCatalog(skills, queries, 'seed-b').skills).not.toEqual(
      sampleCatalog(skills, queries, 'seed-a').skills,
    );
  });
});
