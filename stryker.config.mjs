// Mutation testing of the safety-critical engine (issue 11), not part of `npm test`.
// `npm run mutate [-- group…]` (scripts/mutate.mjs) runs Stryker once per group below and
// prints the score of every file. A survivor is either killed by a new test or disabled at
// its line: `// Stryker disable next-line <mutator>: <why the mutant is equivalent>`.
import path from 'node:path';

/**
 * What is mutated, and the tests that must kill it: a module's own tests, beside it. Limiting
 * the tests keeps a static mutant (one that only acts while a module loads, so every test
 * must run with it) to the group's test files, not every test that loads the engine. Such a
 * mutant is switched on before the test files import anything (scripts/mutateSetup.ts).
 */
export const GROUPS = {
  install: {
    mutate: ['electron/engine/install/**/*.ts', '!**/*.test.ts'],
    testFiles: ['electron/engine/install/**/*.test.ts'],
  },
  validator: {
    mutate: ['electron/engine/skills/validator.ts'],
    // hostileYaml: the frontmatter cap and the many-errors path of parseFrontmatter are tested there.
    testFiles: ['electron/engine/skills/validator*.test.ts', 'electron/engine/skills/hostileYaml.test.ts'],
  },
  routing: {
    mutate: [
      'electron/engine/routing/score.ts',
      'electron/engine/routing/messageKind.ts',
      'electron/engine/routing/recall.ts',
    ],
    // Not the third-party dev-set evaluation (thirdParty.test.ts): it measures the router over
    // the whole corpus, seven seconds for every mutant, and its floors are aggregate rates.
    testFiles: ['electron/engine/routing/**/!(thirdParty).test.ts'],
  },
  host: {
    mutate: ['electron/host/guard.ts'],
    testFiles: ['electron/host/**/*.test.ts'],
  },
  // The approval broker, its stored grants and the policy a skill's metadata resolves to.
  execution: {
    mutate: [
      'electron/engine/execution/policy.ts',
      'electron/engine/execution/approvals.ts',
      'electron/engine/execution/grants.ts',
    ],
    testFiles: ['electron/engine/execution/*.test.ts'],
  },
  // The sandbox backends' pure parts: the file-system layout, bwrap's options, the
  // sandbox-exec profile, the allow-list proxy's host rules and the violation reports.
  // Spawning and sockets (bwrap.ts, seatbelt.ts, proxy.ts, spawn.ts) are left to the suite.
  sandbox: {
    mutate: [
      'electron/engine/execution/sandbox/layout.ts',
      'electron/engine/execution/sandbox/bwrapArgs.ts',
      'electron/engine/execution/sandbox/seatbeltProfile.ts',
      'electron/engine/execution/sandbox/hosts.ts',
      'electron/engine/execution/sandbox/violations.ts',
      'electron/engine/execution/sandbox/stderrScan.ts',
    ],
    // The tests of these modules and the real bwrap runs that judge files; not the network,
    // timeout and process-tier suites (half a minute for every static mutant, and they test
    // the spawning around these rules, not the rules).
    testFiles: [
      'electron/engine/execution/sandbox/{layout,bwrapArgs,seatbeltProfile,hosts,proxy,stderrScan}.test.ts',
      'electron/engine/execution/sandbox/violations*.test.ts',
      'electron/engine/execution/sandbox/bwrap.{files,masks,hardening}.test.ts',
    ],
  },
  // The sandbox's resource limits: the prlimit command line and how a run that hit one is told.
  limits: {
    mutate: ['electron/engine/execution/sandbox/limits.ts'],
    testFiles: [
      'electron/engine/execution/sandbox/limits.test.ts',
      'electron/engine/execution/sandbox/bwrap.limits.test.ts',
      // How a run stopped at its disk limit is told.
      'electron/engine/execution/sandbox/diskWatch.test.ts',
    ],
  },
  // What only the engine can enforce around the sandbox: the seccomp filter (the kernel
  // keyring), the process count of a root run, the disk a run takes, and the search for root's
  // private files.
  hardening: {
    mutate: [
      'electron/engine/execution/sandbox/seccomp.ts',
      'electron/engine/execution/sandbox/processWatch.ts',
      'electron/engine/execution/sandbox/diskWatch.ts',
      'electron/engine/execution/sandbox/rootOnly.ts',
    ],
    testFiles: [
      'electron/engine/execution/sandbox/{seccomp,processWatch,diskWatch,rootOnly}.test.ts',
      'electron/engine/execution/sandbox/bwrap.{hardening,keyring}.test.ts',
    ],
  },
  // What a repair patch may touch, and the diff reading behind it.
  repair: {
    mutate: [
      'electron/engine/repair/guards.ts',
      'electron/engine/repair/diffs.ts',
      'electron/engine/repair/patchForms.ts',
      'electron/engine/repair/whitespace.ts',
    ],
    testFiles: ['electron/engine/repair/**/*.test.ts'],
  },
};

/** Where a group's incremental results live (scripts/mutate.mjs prunes them, see there). */
export const incrementalFileOf = (group) => `node_modules/.cache/stryker/${group}.incremental.json`;

// One group (scripts/mutate.mjs sets MUTATE_GROUP), or all of them in one run.
const name = process.env.MUTATE_GROUP || 'all';
const selected = name === 'all' ? Object.values(GROUPS) : [GROUPS[name]];
if (!selected[0]) throw new Error(`No mutation group "${name}": one of ${Object.keys(GROUPS).join(', ')}.`);

// Stryker runs the tests from a copy under .stryker-tmp/, where `../shared/corpus` is not beside it.
process.env.SKILLDECK_CORPUS ??= path.resolve('..', 'shared', 'corpus');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: selected.flatMap((group) => group.mutate),
  testFiles: selected.flatMap((group) => group.testFiles),
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts', related: true },
  coverageAnalysis: 'perTest',
  // Not `ignoreStatic`: the module-level constants here (loopback names, protected frontmatter
  // keys, the system folders never masked) are the safety rules themselves.
  ignoreStatic: false,
  // Mutants that do not compile are dropped before any test runs.
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.node.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  // The machine is shared: one worker, and room for a slow test before a mutant counts as a hang.
  concurrency: 1,
  timeoutMS: 10_000,
  // Incremental: a re-run tests only the mutants whose code or tests changed. Kept in
  // node_modules/.cache, not in git: \`npm ci\` (new dependencies, which the incremental
  // diff cannot see) starts afresh, and parallel branches do not conflict over it.
  incremental: true,
  incrementalFile: incrementalFileOf(name),
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  clearTextReporter: { allowEmojis: false, logTests: false },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
