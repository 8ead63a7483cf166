// `gitfleet status`'s command line, apart from its run so `--help` and the usage load only
// declarations (main.ts).
import { forgeFlag } from '../forge-profile.js';
import { logLevelFlag } from '../observability-flags.js';
import { readBranchPrefixFlag, readRepoFlag, tokenFileFlag } from '../shared-flags.js';
import type { CommandSpec } from '../command-line.js';

/** `gitfleet status`: its command line. */
export const statusSpec = {
  name: 'status',
  summary:
    'the fleet at a glance: clusters (ready, applied, behind, health) and templates (placement, replicas, health)',
  positionals: [],
  flags: {
    repo: readRepoFlag,
    forge: forgeFlag,
    cluster: {
      type: 'string',
      value: 'NAME[,NAME…]',
      help: 'only these clusters, and the templates placed on them',
    },
    template: {
      type: 'string',
      value: 'PATTERN[,PATTERN…]',
      help: 'only these templates: Kind/namespace/name (Kind/name when cluster-scoped) or a name; * and ? match any text and one character',
    },
    selector: {
      type: 'string',
      value: 'SELECTOR',
      short: 'l',
      help: "only templates whose labels match (kubectl's selector syntax)",
    },
    wide: {
      type: 'boolean',
      help: 'print the template x cluster matrix instead of the summaries: the clusters each template is placed on',
    },
    all: {
      type: 'boolean',
      help: 'with --wide: every cluster for every template, placed or not',
    },
    watch: {
      type: 'boolean',
      short: 'w',
      help: 'print again whenever a gitfleet branch moves, until Ctrl-C',
    },
    interval: {
      type: 'duration',
      value: 'DURATION',
      default: '10s',
      help: 'with --watch on a URL: how often to fetch',
    },
    'branch-prefix': readBranchPrefixFlag,
    output: {
      type: 'string',
      short: 'o',
      choices: ['text', 'json', 'yaml'],
      default: 'text',
      help: 'print as text, JSON or YAML (with --watch, JSON prints one document per line)',
    },
    'token-file': tokenFileFlag,
    'log-level': {
      ...logLevelFlag,
      help: 'with --watch: the least severe lines shown on stderr (debug adds each look that found nothing new)',
    },
  },
  notes: [
    'BEHIND counts the commits of the cluster branch between the applied commit and the rendered head, walking at most 50 first parents (">50" past that, "?" when the applied commit is not on the branch).',
  ],
} as const satisfies CommandSpec;
