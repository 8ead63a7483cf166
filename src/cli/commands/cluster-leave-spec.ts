// `gitfleet cluster leave`'s command line, apart from its run so `--help` and the usage load only
// declarations (main.ts).
import { clusterProposalFlags } from './cluster-proposal-flags.js';
import type { CommandSpec } from '../command-line.js';

/** `gitfleet cluster leave`: its command line. */
export const clusterLeaveSpec = {
  name: 'cluster leave',
  summary: "offboard a member cluster: its registration and its agent's key removed, on a review branch",
  positionals: [{ name: 'NAME', help: 'the registered cluster' }],
  flags: { ...clusterProposalFlags },
  notes: [
    "Nothing is pushed and the source branch is not written: push the review branch and open a pull request. Once it is merged the hub tombstones the cluster branch and no longer accepts the cluster's reports. docs/onboarding.md.",
  ],
} as const satisfies CommandSpec;
