// `gitfleet log`'s command line, apart from its run so `--help` and the usage load only
// declarations (main.ts).
import { readBranchPrefixFlag } from '../shared-flags.js';
import type { CommandSpec } from '../command-line.js';

/** `gitfleet log`: its command line. */
export const logSpec = {
  name: 'log',
  summary: 'the history of an object (or of every render) on the cluster branches, newest first',
  positionals: [
    {
      name: 'OBJECT',
      optional: true,
      help: "the object to follow: <Kind>[.<group>]/<namespace>/<name>, or <Kind>/<name> when cluster-scoped; the kind may be any of kubectl's names for it (deploy, svc, cm, deployments.apps)",
    },
  ],
  flags: {
    repo: { type: 'string', value: '<path>', required: true, help: 'a local fleet repository (bare or not)' },
    cluster: { type: 'string', value: 'C', help: "only this cluster's branch" },
    'max-count': {
      type: 'string',
      value: 'N',
      short: 'n',
      help: 'only the N newest entries (across the clusters); the walk stops there',
    },
    'branch-prefix': readBranchPrefixFlag,
    output: {
      type: 'string',
      short: 'o',
      choices: ['text', 'json'],
      default: 'text',
      help: 'print the history as text or JSON ({"branches", "entries"}, entries streamed one a line)',
    },
  },
} as const satisfies CommandSpec;
