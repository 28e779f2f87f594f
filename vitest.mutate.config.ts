import type { RunnerTask, RunnerTestFile } from 'vitest';
import { defineConfig, mergeConfig } from 'vitest/config';
import type { Reporter, Vitest } from 'vitest/node';
import base from './vitest.config';

const testsOf = (task: RunnerTask): RunnerTask[] =>
  task.type === 'test' ? [task] : task.tasks.flatMap(testsOf);

/**
 * Stryker's vitest runner reads only test results, and a failing file-level `beforeAll` /
 * `afterAll` leaves every test skipped or passed, so a mutant that breaks a test file's setup
 * would count as survived. This marks the tests of a failed file as failed with its error.
 * A file whose import throws (a static mutant that breaks a module while it loads) has no
 * tests at all; it gets one failed test that carries the load error.
 */
function fileFailuresFailTests(): Reporter {
  let vitest: Vitest | undefined;
  return {
    onInit(ctx) {
      vitest = ctx;
    },
    onTestRunEnd() {
      for (const file of vitest?.state.getFiles() ?? []) failTestsOf(file);
    },
  };
}

function failTestsOf(file: RunnerTestFile): void {
  if (file.result?.state !== 'fail') return;
  const tests = testsOf(file);
  if (tests.length === 0) {
    file.tasks.push(loadFailure(file));
    return;
  }
  if (tests.some((test) => test.result?.state === 'fail')) return;
  for (const test of tests)
    if (test.result) test.result = { ...test.result, state: 'fail', errors: file.result.errors };
}

/** The fields of a test that Stryker's vitest runner reads: name, suite chain, file, result. */
function loadFailure(file: RunnerTestFile): RunnerTask {
  const name = 'loads the test file';
  return {
    type: 'test',
    id: `${file.id}_load`,
    name,
    fullName: `${file.name} > ${name}`,
    fullTestName: name,
    mode: 'run',
    file,
    suite: file,
    meta: {},
    result: { state: 'fail', errors: file.result?.errors },
  } as unknown as RunnerTask; // context, timeout and annotations exist only for a test vitest ran
}

// `npm run mutate` (stryker.config.mjs) runs the engine's in-process tests only: a test that
// drives a built CLI bundle or the renderer cannot see a mutant switched on inside Stryker's
// test runner, so it would only cost time.
export default mergeConfig(
  base,
  defineConfig({
    test: {
      include: ['electron/**/*.test.ts'],
      exclude: ['electron/cli/**', 'electron/engine/plainNode.test.ts', '**/node_modules/**'],
      // After Stryker's setup file, which vitest-runner puts first.
      setupFiles: ['scripts/mutateSetup.ts'],
      reporters: ['default', fileFailuresFailTests()],
    },
  }),
);
