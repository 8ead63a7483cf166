// ESLint flat config. The import-boundary rule keeps src/core pure: no adapters, loops or
// CLI, and no Node I/O (fs, net, child_process, …), clocks or environment.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeIo = [
  'fs',
  'fs/promises',
  'node:fs',
  'node:fs/promises',
  'path',
  'node:path',
  'os',
  'node:os',
  'child_process',
  'node:child_process',
  'net',
  'node:net',
  'http',
  'node:http',
  'https',
  'node:https',
  'worker_threads',
  'node:worker_threads',
  'process',
  'node:process',
  'dgram',
  'node:dgram',
  'dns',
  'node:dns',
  'tls',
  'node:tls',
  'cluster',
  'node:cluster',
  'readline',
  'node:readline',
  'stream',
  'node:stream',
];

export default tseslint.config(
  { ignores: ['build/**', 'node_modules/**', 'out/**', 'coverage/**', 'test/clusters/go/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeIo.map((name) => ({
            name,
            message: 'src/core is pure: pass data in, do I/O in adapters or loops.',
          })),
          patterns: [
            {
              group: ['**/adapters/**', '**/loops/**', '**/cli/**'],
              message: 'src/core imports only src/core.',
            },
            {
              group: ['isomorphic-git', 'chokidar', '@kubernetes/client-node'],
              message: 'src/core does no I/O.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'src/core reads no environment: pass it in.' },
        { name: 'Date', message: 'src/core reads no clock: pass time in.' },
        { name: 'console', message: 'src/core logs nothing: return diagnostics.' },
        { name: 'fetch', message: 'src/core does no network I/O.' },
        { name: 'setTimeout', message: 'src/core has no timers.' },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
