// Vitest setup for `npm run mutate` only (vitest.mutate.config.ts); it runs after Stryker's
// own setup file and before a test file imports anything.
//
// Stryker 9.6.1 switches a mutant on in a `beforeAll` hook ("runtime" activation) whenever a
// mutant run has a test filter, and stryker.config.mjs's `testFiles` gives every run one, the
// static mutants' too (stryker-js#6144). By then the test file has imported the module, so a
// mutant in a module-level constant (`new Set(['127.0.0.1', …])`) is never seen and survives
// whatever the tests assert. Vitest gives each test file a fresh module graph (`isolate`), so
// switching the mutant on before the imports is right for every mutant, not only static ones.
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    globalNamespace: string;
    mode: 'dry-run' | 'mutant';
    activeMutant: string;
  }
}

if (inject('mode') === 'mutant') {
  const scope = globalThis as unknown as Record<string, { activeMutant?: string } | undefined>;
  const namespace = inject('globalNamespace');
  const stryker = (scope[namespace] ??= {});
  stryker.activeMutant = inject('activeMutant');
}
