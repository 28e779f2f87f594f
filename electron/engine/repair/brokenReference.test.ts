import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../../shared/contract';
import { assessEligibility } from './eligibility';
import { readSnapshot } from './snapshot';
import { renamedReference } from './testFixtures';

// An instruction skill's model answered although the file its SKILL.md names is gone: the
// run "succeeded", the skill is broken. Its stderr is what the tools reported (chat/instruction.ts).
const fx = renamedReference();
afterAll(() => fs.rmSync(fx.root, { recursive: true, force: true }));

const answered = (stderr: string, command: string[] = []): RunResult => ({
  run_id: 'run-1',
  skill: 'release-notes',
  skill_id: fx.dir,
  status: 'success',
  output: 'I could not find the style guide, so here are plain notes.',
  error: null,
  sandbox: 'none',
  duration_ms: 900,
  exit_code: null,
  command,
  cwd: null,
  stderr,
  truncated: false,
  files: [],
  violations: [],
  fallback_used: false,
  timeline: [],
});

const notFound = (p: string) =>
  `read_skill_file {"path":"${p}"}: No file "${p}" in this skill. Files: SKILL.md, references/style-guide.md.`;

describe('a model that answered around a missing file its SKILL.md names', () => {
  it('is a near miss with a path fix, though the run succeeded', async () => {
    const verdict = assessEligibility(answered(notFound('references/style.md')), await readSnapshot(fx.dir));
    expect(verdict).toMatchObject({
      eligible: true,
      category: 'reference_path',
      error_signature: 'reference_path:references/style.md',
    });
  });

  it('is a success when the missing file is one the model made up, or nothing failed', async () => {
    const snapshot = await readSnapshot(fx.dir);
    for (const run of [answered(notFound('references/tone.md')), answered('')])
      expect(assessEligibility(run, snapshot)).toMatchObject({ eligible: false, category: 'not_a_failure' });
  });

  it('is a success for a script that ran and only warned about a file', async () => {
    const run = answered(`warning: ${notFound('references/style.md')}`, ['python3', 'scripts/x.py']);
    expect(assessEligibility(run, await readSnapshot(fx.dir))).toMatchObject({ category: 'not_a_failure' });
  });
});
