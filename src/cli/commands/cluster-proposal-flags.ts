// The flags `cluster join` and `cluster leave` share (the fleet repository, its source branch,
// the review branch, the author), declared apart from the code that writes the proposal.
import type { FlagSpec } from '../command-line.js';

/** The flags of both commands. */
export const clusterProposalFlags = {
  repo: {
    type: 'string',
    value: 'DIR',
    default: '.',
    help: 'the fleet repository: a local clone; its work tree, index and current branch are left as they are',
  },
  'source-ref': {
    type: 'string',
    value: 'BRANCH',
    default: 'main',
    help: 'the source branch the hub renders: the review branch starts at its head, and it is never written',
  },
  branch: {
    type: 'string',
    value: 'BRANCH',
    help: 'the review branch to create (default cluster-join/NAME, cluster-leave/NAME); it must not exist',
  },
  author: {
    type: 'string',
    value: "'NAME <EMAIL>'",
    help: "the commit's author (default: GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL, else the repository's user.name and user.email)",
  },
} as const satisfies Record<string, FlagSpec>;
