// Which listed repository a cluster uses, for status (assign-status-repository.ts) and for its
// branch (assign-render-repository.ts) alike. The rule, in order:
//
//   1. no repository listed          → the fleet repository (as before such lists existed)
//   2. the kind's label (gitfleet.io/status-repository, gitfleet.io/render-repository)
//                                    → the listed repository of that name; a name not listed
//                                      is an error naming the cluster and the label
//   3. otherwise                     → rendezvous (highest random weight) hashing: the
//                                      repository whose mixed FNV-1a hash of
//                                      (cluster NUL repository) is highest
//
// Rendezvous hashing makes adding a repository move only the clusters that now score highest on
// it (about 1/n of them), and removing one move only its own clusters; the order of the list
// does not matter.
import type { Cluster } from './cluster.js';
import { fnv1a32 } from './fnv1a32.js';
import type { NamedRepository } from './named-repository.js';
import { quoteText } from './quote-text.js';

/** Where one cluster goes: the fleet repository, a listed repository, or a bad label. */
export type RepositoryAssignment =
  | { type: 'fleet' }
  | { type: 'repository'; repository: NamedRepository; by: 'label' | 'hash' }
  | { type: 'error'; message: string };

/** Returns the repository of a cluster under a FleetConfig list; `kind` names it in errors (`status`, `render`). */
export function assignRepository(
  cluster: Pick<Cluster, 'name' | 'labels'>,
  repositories: readonly NamedRepository[] | undefined,
  rule: { label: string; kind: string },
): RepositoryAssignment {
  if (!repositories || repositories.length === 0) return { type: 'fleet' };
  const named = cluster.labels[rule.label];
  if (named !== undefined) {
    const repository = repositories.find((r) => r.name === named);
    if (repository) return { type: 'repository', repository, by: 'label' };
    const known = repositories.map((r) => r.name).join(', ');
    return {
      type: 'error',
      message: `cluster ${cluster.name}: label ${rule.label}=${quoteText(named)} names no ${rule.kind} repository of the FleetConfig (listed: ${known})`,
    };
  }
  let best: NamedRepository | undefined;
  let bestScore = -1;
  for (const repository of repositories) {
    const score = rendezvousScore(cluster.name, repository.name);
    if (best === undefined || score > bestScore) [best, bestScore] = [repository, score];
  }
  return { type: 'repository', repository: best!, by: 'hash' };
}

/** Returns the repository's URL of an assignment, or undefined for the fleet repository or an error. */
export function assignedUrl(assignment: RepositoryAssignment | undefined): string | undefined {
  return assignment?.type === 'repository' ? assignment.repository.url : undefined;
}

// FNV-1a (pure, already the scheduler's) with murmur3's finalizer on top: FNV alone lets names
// that differ in their last characters score alike, and rendezvous hashing needs every bit mixed.
function rendezvousScore(cluster: string, repository: string): number {
  let h = fnv1a32(`${cluster}\u0000${repository}`);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
