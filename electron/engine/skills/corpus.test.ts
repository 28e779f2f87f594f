/**
 * The loader and the validator against 3,483 third-party skills (DESIGN §8): everything
 * lists without a crash, and the problems agree with the corpus's INDEX.tsv.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SkillSummary } from '../../../shared/contract';
import { SkillCatalog } from './catalog';
import { splitFrontmatter } from './frontmatter';
import { corpusDir } from '../../testing/fixtures';
import { validateSkillDir } from './validator';
import { parseYamlLenient } from './yamlLenient';

const corpus = corpusDir();
const skillsDir = path.join(corpus, 'skills');

type Row = Record<string, string>;
const [header, ...lines] = fs
  .readFileSync(path.join(corpus, 'INDEX.tsv'), 'utf8')
  .replace(/\n$/, '')
  .split('\n');
const columns = header.split('\t');
const rows: Row[] = lines.map((line) => Object.fromEntries(line.split('\t').map((v, i) => [columns[i], v])));
const dirOf = (row: Row) => path.join(skillsDir, row.repo, row.skill_dir);

let skills: Map<string, SkillSummary>;
let listMs = 0;

beforeAll(async () => {
  const started = performance.now();
  const catalog = await SkillCatalog.open({
    home: path.join(corpus, 'no-home'),
    userHome: path.join(corpus, 'no-user'),
    workspace: path.join(corpus, 'no-workspace'),
    extraDirs: [skillsDir],
    noDefaultPaths: true,
    platform: 'linux',
  });
  const list = catalog.list();
  listMs = performance.now() - started;
  skills = new Map(list.skills.map((s) => [s.id, s]));
});

describe('the third-party corpus', () => {
  it('has the INDEX.tsv columns these tests read', () => {
    for (const column of [
      'repo',
      'skill_dir',
      'skill_file',
      'parse',
      'name',
      'description_len',
      'source_path',
      'skills_ref_validate',
    ]) {
      expect(columns).toContain(column);
    }
  });

  it('lists all 3,483 skills, one per INDEX.tsv row', () => {
    console.info(`listed ${skills.size} corpus skills in ${listMs.toFixed(0)} ms`);
    expect(rows).toHaveLength(3483);
    expect(skills.size).toBe(3483);
    expect([...skills.keys()].sort()).toEqual(rows.map(dirOf).sort());
    for (const row of rows) expect(path.basename(skills.get(dirOf(row))?.file ?? '')).toBe(row.skill_file);
  });

  it('loads every row that parses, with a name and a description, without an error', () => {
    const good = rows.filter((r) => r.parse === 'ok' && r.name !== '' && Number(r.description_len) > 0);
    expect(good.length).toBeGreaterThan(3200);
    const failures = good
      .map((r) => skills.get(dirOf(r)) as SkillSummary)
      .filter((s) => s.problems.some((p) => p.severity === 'error'))
      .map((s) => `${s.id}: ${JSON.stringify(s.problems)}`);
    expect(failures).toEqual([]);
    for (const r of good) expect(skills.get(dirOf(r))?.name).toBe(r.name);
  });

  it('gives an error to every row without usable frontmatter', () => {
    const bad = rows.filter((r) => r.parse === 'no_frontmatter' || r.parse === 'unclosed_frontmatter');
    expect(bad.length).toBe(135);
    for (const r of bad) {
      const s = skills.get(dirOf(r)) as SkillSummary;
      expect(
        s.problems.some((p) => p.severity === 'error'),
        s.id,
      ).toBe(true);
      expect(s.routable).toBe(false);
    }
  });

  it('lists rows with YAML errors, recovering the common ones with a warning', () => {
    const broken = rows
      .filter((r) => r.parse === 'yaml_error')
      .map((r) => skills.get(dirOf(r)) as SkillSummary);
    expect(broken).toHaveLength(49);
    const recovered = broken.filter(
      (s) =>
        s.problems.some((p) => p.code === 'yaml-recovered') &&
        !s.problems.some((p) => p.severity === 'error'),
    );
    expect(recovered.length).toBeGreaterThan(40);
  });

  it('reads every frontmatter the same with and without the fast YAML reader', () => {
    let compared = 0;
    for (const row of rows) {
      const text = fs.readFileSync(path.join(dirOf(row), row.skill_file), 'utf8');
      const split = splitFrontmatter(text);
      if (!split.found) continue;
      const fast = parseYamlLenient(split.yaml, split.lineOffset);
      const slow = parseYamlLenient(split.yaml, split.lineOffset, 'SKILL.md', { fast: false });
      if (!isDeepStrictEqual(fast, slow))
        expect({ id: dirOf(row), ...fast }).toEqual({ id: dirOf(row), ...slow });
      compared++;
    }
    expect(compared).toBeGreaterThan(3300);
  });

  it('validates strictly exactly as the reference validator did (INDEX.tsv skills_ref_validate)', async () => {
    // Rows renamed on a name clash would fail "must match skill name" here but not upstream.
    const same = rows.filter((r) => path.basename(r.source_path) === r.skill_dir);
    expect(same.length).toBeGreaterThan(3400);
    const disagreements: string[] = [];
    for (const row of same) {
      const report = await validateSkillDir(dirOf(row));
      if (report.valid !== (row.skills_ref_validate === 'VALID'))
        disagreements.push(`${dirOf(row)}: ${report.errors.join(' | ')}`);
    }
    expect(disagreements).toEqual([]);
  });
});
