import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunResult } from '../../../shared/contract';
import { replayWith, runSkill } from '../../testing/scriptRunner';
import { validateSkillDir } from '../skills/validator';
import { assessEligibility } from './eligibility';
import { gatherEvidence } from './evidence';
import { mapArgsToInput } from './fixArgument';
import { proposeFixes } from './fixers';
import { declareEnv } from './fixPrerequisite';
import { closestFile } from './fixReference';
import { runRepairLoop } from './loop';
import { RepairService } from './service';
import { loadMetadata, readSnapshot } from './snapshot';
import { makeSkill, noModel, skillDoc } from './testFixtures';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

describe('fixer (a): a referenced file that does not exist and has a close match', () => {
  it('finds the renamed file, and refuses to guess between two equally close ones', () => {
    const listing = ['SKILL.md', 'references/foo-guide.md', 'references/bar.md', 'scripts/foo.py'];
    expect(closestFile('references/foo.md', listing)).toBe('references/foo-guide.md');
    expect(closestFile('references/styel.md', ['references/style.md'])).toBe('references/style.md');
    expect(closestFile('references/zebra.md', listing)).toBeNull();
    expect(closestFile('references/api.md', ['references/api-v1.md', 'references/api-v2.md'])).toBeNull();
  });

  it('rewrites the path in a script too, and never inside a longer path', async () => {
    const fx = makeSkill('tpl', {
      'SKILL.md': skillDoc(
        'tpl',
        'Fills a template. Use for templates.',
        'Uses references/template.md (not references/template.md2).\n',
      ),
      'scripts/fill.py':
        'import os\nprint(open(os.path.join(os.environ["SKILL_PATH"], "references/template.md")).read())\n',
      'references/template-v2.md': 'Hello {{name}}\n',
    });
    roots.push(fx.root);
    const spec = { task: 'fill', cwd: fx.cwd };
    const failed = await runSkill(fx.dir, spec);
    expect(failed.stderr).toContain('FileNotFoundError');
    const outcome = await runRepairLoop(
      { run: failed, skillDir: fx.dir },
      { replay: replayWith(spec), complete: noModel },
    );
    const [p] = outcome.proposals;
    expect(p.replay.verdict).toBe('passes');
    expect(p.patched_files.sort()).toEqual(['SKILL.md', 'scripts/fill.py']);
    expect(p.files.find((f) => f.path === 'SKILL.md')?.after).toContain(
      'Uses references/template-v2.md (not references/template.md2).',
    );
  });
});

describe('fixer (b): an argument the usage text names', () => {
  it('keeps CRLF line ends and maps a positional argument with nargs="?"', () => {
    const src = 'import argparse\r\np = argparse.ArgumentParser()\r\np.add_argument("file")\r\n';
    const out = mapArgsToInput(src, ['file']);
    expect(out).toBe(
      'import argparse\r\nimport json\r\nimport os\r\n_INPUT = json.loads(os.environ.get("INPUT_JSON") or "{}")  # SkillDeck passes the task\'s fields here\r\np = argparse.ArgumentParser()\r\np.add_argument("file", default=_INPUT.get("file"), nargs="?")\r\n',
    );
  });

  it('for an instruction skill, adds the argument to the SKILL.md example the model follows', async () => {
    const fx = makeSkill('col-tool', {
      'SKILL.md': skillDoc(
        'col-tool',
        'Sums a column. Use for sums.',
        '# Col tool\n\nRun:\n\n```sh\npython3 scripts/col.py data.csv\n```\n',
        'metadata:\n  type: instruction\n',
      ),
      'scripts/col.py':
        'import argparse\nargparse.ArgumentParser(prog="col.py").add_argument("--column", required=True)\n',
    });
    roots.push(fx.root);
    const skill = await readSnapshot(fx.dir);
    const run: RunResult = {
      ...(await runSkill(fx.dir, { task: 'x', cwd: fx.cwd })),
      status: 'failure',
      command: [],
      exit_code: null,
      output: 'I ran the script as SKILL.md shows.',
      stderr:
        'usage: col.py [-h] --column COLUMN\ncol.py: error: the following arguments are required: --column\n',
    };
    const eligibility = assessEligibility(run, {
      ...skill,
      metadata: { ...skill.metadata, type: 'instruction' },
    });
    const [draft] = proposeFixes({
      run,
      skill: { ...skill, metadata: { ...skill.metadata, type: 'instruction' } },
      evidence: gatherEvidence(run, skill),
      eligibility,
      input: {},
    });
    expect(draft.changes[0].after).toContain('python3 scripts/col.py data.csv --column <COLUMN>\n');
  });
});

describe('fixer (c): an undeclared prerequisite the error names', () => {
  it('declares it so the skill reports itself unavailable; the replay shows that, and the doc stays valid', async () => {
    const fx = makeSkill('weather-now', {
      'SKILL.md': skillDoc(
        'weather-now',
        'Current weather for a city. Use for weather questions.',
        '# Weather\n',
        'license: MIT\n',
      ),
      'scripts/weather.py': 'import os\nprint("looking up the city")\nkey = os.environ["WEATHER_API_KEY"]\n',
    });
    roots.push(fx.root);
    const spec = { task: 'weather in Oslo', cwd: fx.cwd };
    const failed = await runSkill(fx.dir, spec);
    const service = new RepairService({ home: fx.home });
    const outcome = await service.repair({ run: failed, skillDir: fx.dir, replay: replayWith(spec) });
    expect(outcome.eligibility).toMatchObject({ eligible: true, category: 'undeclared_prerequisite' });
    const [p] = outcome.proposals;
    expect(p).toMatchObject({ fixer: 'prerequisite', patched_files: ['SKILL.md'] });
    expect(p.diff).toBe(
      '--- a/SKILL.md\n+++ b/SKILL.md\n@@ -2,5 +2,10 @@\n name: weather-now\n description: Current weather for a city. Use for weather questions.\n license: MIT\n+metadata:\n+  openclaw:\n+    requires:\n+      env:\n+        - WEATHER_API_KEY\n ---\n # Weather\n',
    );
    expect(p.replay).toMatchObject({ verdict: 'fails_differently', met_expectation: true, exit_code: null });
    expect(p.replay.error).toContain('environment variables not set: WEATHER_API_KEY');

    await service.apply(p.id);
    expect((await loadMetadata(fx.dir)).requires.env).toEqual(['WEATHER_API_KEY']);
    expect(await validateSkillDir(fx.dir)).toEqual({ valid: true, errors: [] });
  });

  it('adds to an existing requires block instead of starting another', () => {
    const doc =
      '---\nname: x\ndescription: y # keep\nmetadata:\n  openclaw:\n    requires:\n      env: [A_KEY]\n---\nbody\n';
    expect(declareEnv(doc, ['B_KEY'])).toBe(
      '---\nname: x\ndescription: y # keep\nmetadata:\n  openclaw:\n    requires:\n      env: [ A_KEY, B_KEY ]\n---\nbody\n',
    );
    expect(declareEnv('no frontmatter', ['A'])).toBeNull();
  });
});

describe('snapshot', () => {
  it('never loads invalid UTF-8 as patchable text', async () => {
    const fx = makeSkill('latin', { 'SKILL.md': skillDoc('latin', 'd. Use it.', 'b\n') });
    roots.push(fx.root);
    fs.writeFileSync(path.join(fx.dir, 'references.md'), 'x');
    fs.mkdirSync(path.join(fx.dir, 'references'));
    fs.writeFileSync(
      path.join(fx.dir, 'references/caf\u00e9.txt'),
      Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
    );
    const skill = await readSnapshot(fx.dir);
    expect(skill.listing).toContain('references/caf\u00e9.txt');
    expect(skill.texts.has('references/caf\u00e9.txt')).toBe(false);
  });
});
