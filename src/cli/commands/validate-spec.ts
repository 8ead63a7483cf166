// `gitfleet validate`'s command line, apart from its run so `--help` and the usage load only
// declarations (main.ts).
import { luaFlags } from '../lua-flags.js';
import { sourceFlags } from '../source-flags.js';
import { sourceArgumentNote, sourcePositional, sourceRefFlag } from '../shared-flags.js';
import type { CommandSpec } from '../command-line.js';

/** `gitfleet validate`: its command line. */
export const validateSpec = {
  name: 'validate',
  summary: "check a fleet repo: load and render it, write nothing (for the fleet repo's CI)",
  positionals: [sourcePositional],
  flags: {
    ref: sourceRefFlag,
    output: {
      type: 'string',
      choices: ['text', 'json'],
      default: 'text',
      help: 'print the result as text or JSON',
    },
    ...luaFlags,
    ...sourceFlags,
  },
  notes: [sourceArgumentNote],
} as const satisfies CommandSpec;
