// ESLint flat config. The import-boundary rules keep the layers of src/ apart: src/core is
// pure (no adapters, loops or CLI, no Node I/O such as fs, net or child_process, no clocks,
// timers, randomness or environment); src/adapters imports nothing from src/loops or src/cli;
// src/loops imports nothing from src/cli. Import cycles are checked apart, by
// scripts/check-import-cycles.mjs in `npm run lint`.
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
  'perf_hooks',
  'node:perf_hooks',
  'timers',
  'node:timers',
  'timers/promises',
  'node:timers/promises',
];

/** Returns the no-restricted-imports rule that keeps a layer from importing the layers named. */
function importsNothingFrom(layer, above) {
  return [
    'error',
    {
      patterns: [
        {
          group: above.map((name) => `**/${name}/**`),
          message: `${layer} imports nothing from ${above.map((name) => `src/${name}`).join(' or ')}: pass what it needs in.`,
        },
      ],
    },
  ];
}

// The floors of src/loops, bottom up: runtime; views and source; hub and agent; preview; ui.
// A folder imports nothing from the folders named here (nor from src/cli), so the hub and the
// agent never reach into each other and the runtime stays below both (src/loops/README.md).
const loopFloors = {
  runtime: ['views', 'source', 'hub', 'agent', 'preview', 'ui'],
  views: ['source', 'hub', 'agent', 'preview', 'ui'],
  source: ['views', 'hub', 'agent', 'preview', 'ui'],
  hub: ['agent', 'preview', 'ui'],
  agent: ['views', 'source', 'hub', 'preview', 'ui'],
  preview: ['agent', 'ui'],
  ui: ['agent'],
};

/** Returns the config that keeps one loops folder from importing the folders above or beside it. */
function loopFloor(folder, above) {
  return {
    files: [`src/loops/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/cli/**'],
              message: 'src/loops imports nothing from src/cli: pass what it needs in.',
            },
            {
              group: above.flatMap((name) => [`../${name}/*`, `../${name}/**`]),
              message: `src/loops/${folder} imports nothing from loops/${above.join(', loops/')} (src/loops/README.md).`,
            },
          ],
        },
      ],
    },
  };
}

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
        { name: 'setInterval', message: 'src/core has no timers.' },
        { name: 'setImmediate', message: 'src/core has no timers.' },
        { name: 'clearTimeout', message: 'src/core has no timers.' },
        { name: 'clearInterval', message: 'src/core has no timers.' },
        { name: 'clearImmediate', message: 'src/core has no timers.' },
        { name: 'performance', message: 'src/core reads no clock: pass time in.' },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'Math',
          property: 'random',
          message: 'src/core is deterministic: pass a seed or a choice in.',
        },
        { object: 'globalThis', property: 'performance', message: 'src/core reads no clock: pass time in.' },
        { object: 'globalThis', property: 'setTimeout', message: 'src/core has no timers.' },
        { object: 'globalThis', property: 'setInterval', message: 'src/core has no timers.' },
        { object: 'globalThis', property: 'setImmediate', message: 'src/core has no timers.' },
        { object: 'globalThis', property: 'Date', message: 'src/core reads no clock: pass time in.' },
        { object: 'globalThis', property: 'process', message: 'src/core reads no environment: pass it in.' },
      ],
    },
  },
  {
    files: ['src/adapters/**/*.ts'],
    rules: { 'no-restricted-imports': importsNothingFrom('src/adapters', ['loops', 'cli']) },
  },
  {
    files: ['src/loops/**/*.ts'],
    rules: { 'no-restricted-imports': importsNothingFrom('src/loops', ['cli']) },
  },
  ...Object.entries(loopFloors).map(([folder, above]) => loopFloor(folder, above)),
  {
    // STYLE.md: functions under ~60 lines (blank lines and comments not counted).
    files: ['src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    // The dashboard's page (ui/) runs in the browser: its globals, listed so a typo is still caught.
    files: ['ui/**/*.js'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'location',
          'fetch',
          'EventSource',
          'Node',
          'performance',
          'requestAnimationFrame',
          'history',
          'URLSearchParams',
          'setInterval',
          'HTMLElement',
          'CustomEvent',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
);
