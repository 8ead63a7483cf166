// `gitfleet ui`'s command line, apart from its run so `--help` and the usage load only
// declarations (main.ts).
import { forgeFlag } from '../forge-profile.js';
import { logLevelFlag } from '../observability-flags.js';
import { cacheDirFlag, readBranchPrefixFlag, readRepoFlag, tokenFileFlag } from '../shared-flags.js';
import type { CommandSpec } from '../command-line.js';

/** `gitfleet ui`: its command line. */
export const uiSpec = {
  name: 'ui',
  summary: 'a read-only web dashboard of the fleet (clusters, templates x clusters, diffs), on 127.0.0.1',
  positionals: [],
  flags: {
    repo: readRepoFlag,
    forge: forgeFlag,
    port: { type: 'port', value: 'PORT', default: '8080', help: 'the port to listen on (0: any free port)' },
    host: {
      type: 'string',
      value: 'HOST',
      default: '127.0.0.1',
      help: 'the address to listen on; anything but loopback shows the fleet to the network',
    },
    interval: {
      type: 'duration',
      value: 'DURATION',
      default: '10s',
      help: 'for a URL: how often to fetch it to see branches move',
    },
    'branch-prefix': readBranchPrefixFlag,
    'token-file': tokenFileFlag,
    'cache-dir': cacheDirFlag,
    'log-level': {
      ...logLevelFlag,
      help: 'the least severe lines logged on stderr (debug adds each time the branches moved)',
    },
  },
} as const satisfies CommandSpec;
