import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTriggerEvals, runTriggerEvals } from './evals';
import { BUNDLED_DIR, catalogOf, defaultConfig, indexOf } from './testHelpers';

const skills = fs
  .readdirSync(BUNDLED_DIR)
  .filter((name) => fs.existsSync(path.join(BUNDLED_DIR, name, 'evals')));

describe('bundled skills trigger evals (issue 4: they all pass through the router)', () => {
  it.each(skills)('%s', async (name) => {
    const index = indexOf(await catalogOf(BUNDLED_DIR));
    const id = path.join(BUNDLED_DIR, name);
    const report = runTriggerEvals(index, id, readTriggerEvals(id), defaultConfig());
    const failures = report.cases
      .filter((c) => !c.pass)
      .map((c) => `${c.should_trigger ? 'MISS' : 'FALSE'} ${c.status} ${c.score} [${c.primary}] ${c.query}`);
    expect(failures).toEqual([]);
    expect(report.cases.length).toBeGreaterThan(0);
  });
});
