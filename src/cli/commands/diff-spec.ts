// `gitfleet diff`'s command line, apart from its run so `--help` and the usage load only
// declarations (main.ts).
import { sourceFlags } from '../source-flags.js';
import type { CommandSpec } from '../command-line.js';

/** `gitfleet diff`: its command line. */
export const diffSpec = {
  name: 'diff',
  summary: 'per-cluster diff of the rendered output of two refs, read straight from git objects',
  positionals: [
    { name: '<repo>', help: 'a local git repository holding both refs (bare or not)' },
    {
      name: '<base-ref>',
      help: 'the revision to compare from: any git revision naming a commit (main, HEAD~1, v1.2^{commit}, an id)',
    },
    { name: '<head-ref>', help: 'the revision to compare to, rendered as the hub would write it' },
  ],
  flags: {
    format: {
      type: 'string',
      choices: ['text', 'markdown', 'json'],
      default: 'text',
      help: 'a unified diff, a pull-request comment, or the whole structure as JSON',
    },
    'no-hub-state': {
      type: 'boolean',
      help: "render both sides as a first pass, without the hub's recorded bindings and the clusters' status",
    },
    ...sourceFlags,
  },
} as const satisfies CommandSpec;
