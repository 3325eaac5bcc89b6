// Lint rules that protect this codebase: no floating promises anywhere, and no Node built-ins in
// workflow code (it is bundled and replayed deterministically by the Temporal worker).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // Build output, data, caches and the topology's state: nothing of ours to lint (ESLint does not
  // read .gitignore).
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.data/**',
      '.topology/**',
      '.cache/**',
      'coverage/**',
      'src/web/dist/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    // Two programs, one per tsconfig that covers the code: the service's (src, test, bench,
    // workflows, activities) and the web app's (DOM, JSX). Not the project service: it builds a
    // program from bench/tsconfig.json for bench/ and another from the root tsconfig for bench's
    // tests (which bench/tsconfig.json excludes), so the service's code was type-built three times.
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.json', './src/web/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['node:*', 'fs', 'path', 'http', 'https', 'crypto', 'child_process', 'net', 'os'] },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Use workflow time (it is deterministic already).' },
        { object: 'Math', property: 'random', message: 'Workflows must be deterministic.' },
      ],
    },
  },
  // The walled folder: src/shared holds the rules, limits and catalogs that the server, the browser
  // and the workflows share, so it imports nothing of Node, the database, HTTP or Temporal, and
  // nothing outside itself.
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'http', 'https', 'crypto', 'net', 'os', 'child_process'],
              message: 'src/shared runs in the browser and in workflows too.',
            },
            {
              group: ['typeorm', 'pg', 'koa', '@koa/*', '@temporalio/*', 'undici', 'pino'],
              message: 'src/shared is pure: no database, HTTP or Temporal.',
            },
          ],
        },
      ],
    },
  },
  // …and nothing outside itself (a file one folder down may reach the rest of src/shared).
  ...[
    ['src/shared/*.ts', ['../*']],
    ['src/shared/*/*.ts', ['../../*']],
  ].map(([files, group]) => ({
    files: [files],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group, message: 'src/shared imports only src/shared.' }] },
      ],
    },
  })),
  // The web app and the workflows import the server only through src/shared (types are erased).
  ...[
    ['src/web/*.{ts,tsx}', ['../*', '!../shared', '!../web']],
    ['src/web/*/*.{ts,tsx}', ['../../*', '!../../shared', '!../../web']],
    ['src/web/*/*/*.{ts,tsx}', ['../../../*', '!../../../shared', '!../../../web']],
    ['workflows/*.ts', ['../*', '!../src', '../src/*', '!../src/shared']],
  ].map(([files, group]) => ({
    files: [files],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group,
              allowTypeImports: true,
              message: 'Import the server only through src/shared (import type is fine).',
            },
          ],
        },
      ],
    },
  })),
  // Tests assert on JSON bodies of the live HTTP API with toMatchObject; `any` there is the
  // shape of an unparsed response, not a hole in production types.
  { files: ['test/**/*.ts', '**/*.test.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  { files: ['**/*.mjs', '**/*.js', '**/*.cjs'], languageOptions: { globals: globals.node } },
  // The web app (src/web) has its own tsconfig.json (DOM, JSX), the second project above.
  { files: ['src/web/**/*.ts', 'src/web/**/*.tsx'], languageOptions: { globals: globals.browser } },
  // vite.config.ts belongs to no tsconfig (the root one covers the service's code only).
  { files: ['vite.config.ts'], ...tseslint.configs.disableTypeChecked },
);
