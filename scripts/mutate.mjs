// `npm run mutate [-- group… [stryker options]]`: mutation testing of the safety-critical
// engine, one Stryker run per group of stryker.config.mjs (all groups by default), then the
// mutation score of every file. Exits 1 when a file scores under 80 %.
// Examples: `npm run mutate -- install`, `npm run mutate -- host --force` (retest every mutant).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GROUPS, incrementalFileOf } from '../stryker.config.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BAR = 80;
const args = process.argv.slice(2);
const named = args.filter((arg) => arg in GROUPS);
// A bare word is a group unless it is the value of a Stryker option (`--concurrency 2`).
const unknown = args.filter(
  (arg, i) => !arg.startsWith('-') && !(arg in GROUPS) && !args[i - 1]?.startsWith('-'),
);
if (unknown.length > 0) {
  console.error(
    `No mutation group ${unknown.join(', ')}; the groups are: ${Object.keys(GROUPS).join(', ')}.`,
  );
  process.exit(2);
}
const strykerArgs = args.filter((arg) => !(arg in GROUPS));
const groups = named.length > 0 ? named : Object.keys(GROUPS);
const stryker = path.join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');

/** Stryker's score: detected (killed or timed out) over all valid mutants, compile errors aside. */
function scoreOf(mutants) {
  const count = (...statuses) => mutants.filter((m) => statuses.includes(m.status)).length;
  const detected = count('Killed', 'Timeout');
  const valid = detected + count('Survived', 'NoCoverage');
  return {
    score: valid === 0 ? 100 : (100 * detected) / valid,
    killed: count('Killed'),
    timeout: count('Timeout'),
    survived: count('Survived'),
    noCoverage: count('NoCoverage'),
    ignored: count('Ignored'),
  };
}

/**
 * Incremental mode reuses a survivor's result until a test that covers it changes, and a
 * static mutant (one that acts while its module loads) has no covering tests: it would stay
 * "Survived" after the test that kills it is written. Such results are dropped, so they run.
 */
function forgetStaticSurvivors(group) {
  const file = path.join(root, incrementalFileOf(group));
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (const entry of Object.values(report.files))
    entry.mutants = entry.mutants.filter(
      (m) => !(m.static && (m.status === 'Survived' || m.status === 'NoCoverage')),
    );
  fs.writeFileSync(file, JSON.stringify(report));
}

const rows = [];
let failedRun = false;
for (const group of groups) {
  console.log(`\n== mutation group ${group} ==`);
  forgetStaticSurvivors(group);
  const report = path.join(root, 'reports', 'mutation', `${group}.json`);
  fs.rmSync(report, { force: true }); // a failed run must not print the last run's scores
  const run = spawnSync(process.execPath, [stryker, 'run', ...strykerArgs], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, MUTATE_GROUP: group },
  });
  if (run.status !== 0) failedRun = true;
  if (!fs.existsSync(report)) continue;
  const { files } = JSON.parse(fs.readFileSync(report, 'utf8'));
  for (const [file, { mutants }] of Object.entries(files)) rows.push({ group, file, ...scoreOf(mutants) });
  const all = Object.values(files).flatMap((f) => f.mutants);
  rows.push({ group, file: '(group)', ...scoreOf(all) });
}

console.log('\n| group | file | score | killed | timeout | survived | no coverage | ignored |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  const score = `${r.score.toFixed(1)} %`;
  console.log(
    `| ${r.group} | ${r.file} | ${score} | ${r.killed} | ${r.timeout} | ${r.survived} | ${r.noCoverage} | ${r.ignored} |`,
  );
}
const below = rows.filter((r) => r.score < BAR);
if (below.length > 0) console.log(`\nUnder ${BAR} %: ${below.map((r) => `${r.group} ${r.file}`).join(', ')}`);
process.exit(failedRun || below.length > 0 ? 1 : 0);
