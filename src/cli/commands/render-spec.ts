// `gitfleet render`'s command line, apart from its run so `--help` and the usage load only
// declarations (main.ts).
import { logLevelFlag } from '../observability-flags.js';
import { luaFlags } from '../lua-flags.js';
import { sourceFlags } from '../source-flags.js';
import { sourceArgumentNote, sourcePositional, sourceRefFlag } from '../shared-flags.js';
import type { CommandSpec } from '../command-line.js';

/** `gitfleet render`: its command line. */
export const renderSpec = {
  name: 'render',
  summary: 'render every cluster into DIR/<cluster>/; with --watch, again on every save',
  positionals: [sourcePositional],
  flags: {
    ref: sourceRefFlag,
    out: {
      type: 'string',
      value: 'DIR',
      required: true,
      help: 'the directory to write; one gitfleet did not create is refused',
    },
    output: {
      type: 'string',
      choices: ['text', 'json'],
      default: 'text',
      help: 'print the summary as text or JSON',
    },
    watch: { type: 'boolean', help: 're-render on every save of the files on disk (not with --ref)' },
    'log-level': {
      ...logLevelFlag,
      help: 'with --watch: the least severe lines shown (debug adds each save seen; error shows only failed renders)',
    },
    ...luaFlags,
    ...sourceFlags,
  },
  notes: [sourceArgumentNote],
} as const satisfies CommandSpec;
