import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['fs', 'path', 'os', 'child_process', 'net', 'http', 'crypto', 'worker_threads'];
const nodeImportBans = nodeBuiltins.flatMap((name) => [name, `node:${name}`, `${name}/*`, `node:${name}/*`]);

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      'release/**',
      'test-results/**',
      'playwright-report/**',
      'node_modules/**',
      // Mutation testing: reports and Stryker's sandbox copies of the sources.
      'reports/**',
      '.stryker-tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'prefer-const': 'error',
    },
  },
  {
    files: [
      '**/*.{js,mjs,cjs}',
      'electron/**/*.ts',
      'e2e/**/*.ts',
      'scripts/**',
      'bench/**',
      'bin/**',
      '*.config.ts',
    ],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // DESIGN §1: the engine is plain Node and never reaches into Electron or the adapters.
    files: ['electron/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'electron/engine must run under plain Node (DESIGN §1).' }],
          patterns: [
            { group: ['electron/*'], message: 'electron/engine must run under plain Node (DESIGN §1).' },
            { group: ['**/renderer/**'], message: 'The engine must not import the renderer.' },
            {
              group: ['../main', '../preload', '../ipc', '../host/**', '../cli', '../../electron/*'],
              message: 'The engine must not import its adapters.',
            },
          ],
        },
      ],
    },
  },
  {
    // shared/ is the contract: no Node, no DOM, no Electron, no React.
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron', 'react', 'ws', ...nodeImportBans],
          patterns: [
            { group: ['**/electron/**', '**/renderer/**'], message: 'shared/ holds the contract only.' },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron', 'ws', ...nodeImportBans],
          patterns: [
            {
              group: ['**/electron/**'],
              message: 'The renderer talks to the engine only through shared/api.',
            },
          ],
        },
      ],
    },
  },
);
