// `gitfleet secrets recipients`'s command line, apart from its run so `--help` and the usage load only
// declarations (main.ts).
import type { CommandSpec } from '../command-line.js';

/** `gitfleet secrets recipients`: its command line. */
export const secretsRecipientsSpec = {
  name: 'secrets recipients',
  summary:
    'print the age recipients a SOPS file placed on these clusters needs (for sops --age and .sops.yaml)',
  positionals: [{ name: 'CLUSTER', help: 'a registered cluster', variadic: true }],
  flags: {
    repo: {
      type: 'string',
      value: 'DIR',
      default: '.',
      help: 'the fleet repository (default: the current directory)',
    },
    ref: { type: 'string', value: 'REF', help: 'read this commit instead of the files on disk' },
    output: {
      type: 'string',
      choices: ['text', 'json'],
      default: 'text',
      help: 'print the result as text or JSON',
    },
  },
} as const satisfies CommandSpec;
