// `gitfleet cluster join`'s command line, apart from its run so `--help` and the usage load only
// declarations (main.ts).
import { clusterProposalFlags } from './cluster-proposal-flags.js';
import type { CommandSpec } from '../command-line.js';

/** `gitfleet cluster join`: its command line. */
export const clusterJoinSpec = {
  name: 'cluster join',
  summary:
    "onboard a member cluster: its agent's keys, its registration on a review branch, the overlay that installs its agent",
  positionals: [
    { name: 'NAME', help: 'the cluster: a DNS-1123 label of at most 48 characters, not registered yet' },
  ],
  flags: {
    ...clusterProposalFlags,
    'hub-keys': {
      type: 'string',
      value: 'FILE',
      required: true,
      help: "the hub's public keys (allowed_signers lines or armored OpenPGP public keys): the agent's --trusted-keys",
    },
    labels: { type: 'string', value: 'K=V,...', help: "the cluster's labels (metadata.labels)" },
    out: {
      type: 'string',
      short: 'o',
      value: 'DIR',
      help: "write the overlay and the agent's private key (mode 0600) into DIR, new or empty; default: print the overlay, and write the key to --key-file",
    },
    'key-file': {
      type: 'string',
      value: 'FILE',
      help: "without -o: where the agent's private key goes (default $XDG_CONFIG_HOME/gitfleet/clusters/NAME/signing-key); never overwritten",
    },
    file: {
      type: 'string',
      value: 'PATH',
      help: "the registration's path in the fleet repository (default clusters/NAME.yaml)",
    },
    'agent-repo': {
      type: 'string',
      value: 'URL',
      help: "the fleet repository's URL as the agent fetches it (default: the repository's remote.origin.url)",
    },
    deploy: {
      type: 'string',
      value: 'PATH|URL',
      help: "gitfleet's deploy folder: a checkout at the release you run (made relative to the overlay) or a kustomize remote URL (default ../gitfleet/deploy, relative to the overlay: a checkout beside it)",
    },
  },
  notes: [
    'Nothing is pushed and the source branch is not written: push the review branch and open a pull request. The private key is never written into the fleet repository; with -o it is in DIR/signing-key (listed in DIR/.gitignore), else in --key-file. docs/onboarding.md.',
  ],
} as const satisfies CommandSpec;
