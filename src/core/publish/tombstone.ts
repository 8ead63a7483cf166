// The tombstone of a cluster branch. When a cluster's registration disappears from the fleet
// repo, its branch is not deleted (an agent would read a missing branch as "unreachable" and
// keep running the last state anyway, and the history would be lost): it gets one final
// commit whose tree holds only `.gitfleet/tombstone.yaml`.
//
// What an agent must do on a tombstone: stop applying the branch and delete nothing. The
// objects it applied stay in the member cluster as they are; removing them is a human's
// decision (re-register the cluster with nothing placed on it to have them pruned under the
// mass-deletion guard, or delete them by hand).
//
// The tombstone's tree depends only on the cluster's name (no source commit, no time, per
// docs/architecture.md#tombstones), so a branch whose tree is the tombstone tree is known to be
// tombstoned and later passes write nothing for it. The commit's trailers name the source commit
// that removed the cluster. If the cluster is registered again, the next render replaces the
// tombstone.
import { emitYaml } from '../format/emit-yaml.js';
import { sourceCommitTrailer, sourceRefTrailer } from './commit-trailers.js';

/** The file that marks a tombstoned cluster branch. */
export const tombstonePath = '.gitfleet/tombstone.yaml';

/** Returns the text of a cluster's tombstone file (by default the one of a cluster removed). */
export function tombstoneText(
  cluster: string,
  why: { reason: string; message: string } = {
    reason: 'ClusterRemoved',
    message:
      'The cluster is no longer registered in the fleet repo. Agents stop applying this branch and delete nothing.',
  },
): string {
  return emitYaml({
    apiVersion: 'gitfleet.io/v1alpha1',
    kind: 'Tombstone',
    metadata: { name: cluster },
    spec: { reason: why.reason, message: why.message },
  });
}

/** Returns the message of a tombstone commit: `tombstone: cluster <name> removed in <sha7>`, a body and the trailers. */
export function tombstoneMessage(opts: { cluster: string; sourceCommit: string; sourceRef: string }): string {
  return [
    `tombstone: cluster ${opts.cluster} removed in ${opts.sourceCommit.slice(0, 7)}`,
    '',
    `The cluster ${opts.cluster} is no longer registered in the fleet repo.`,
    'Agents stop applying this branch and delete nothing.',
    '',
    `${sourceCommitTrailer}: ${opts.sourceCommit}`,
    `${sourceRefTrailer}: ${opts.sourceRef}`,
    '',
  ].join('\n');
}
