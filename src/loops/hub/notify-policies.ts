// The NotificationPolicies and the clusters' labels the notifier routes with: those of the source
// commit the bindings branch last rendered, loaded from its files (only the FleetConfig, the
// Cluster registrations and the policies are parsed), kept per commit. A commit that does not
// load keeps the policies of the last one that did.
import { readGitSource } from '../../adapters/source/read-git-commit.js';
import { loadFleet } from '../../core/load/load-fleet.js';
import { formatLoadError } from '../../core/load/load-error.js';
import type { NotificationPolicy } from '../../core/model/notification-policy.js';

/** What routing needs from a source commit. */
export interface RoutingFacts {
  commit: string;
  policies: NotificationPolicy[];
  clusterLabels: Map<string, Record<string, string>>;
}

const routingKinds = /kind:\s*["']?(FleetConfig|Cluster|NotificationPolicy)\b/;

/** Returns the policies and labels of the commit, or the errors that keep it from loading. */
export async function loadRoutingFacts(
  gitdir: string,
  commit: string,
): Promise<{ ok: true; facts: RoutingFacts } | { ok: false; problem: string }> {
  const { files } = await readGitSource({ dir: gitdir, ref: commit });
  const loaded = loadFleet(files.filter((f) => routingKinds.test(f.content)));
  if (!loaded.ok) {
    const first = loaded.errors.slice(0, 3).map(formatLoadError).join('; ');
    const more = loaded.errors.length > 3 ? ` (and ${loaded.errors.length - 3} more)` : '';
    return { ok: false, problem: `${commit.slice(0, 12)}: the fleet does not load: ${first}${more}` };
  }
  return {
    ok: true,
    facts: {
      commit,
      policies: loaded.fleet.notificationPolicies ?? [],
      clusterLabels: new Map(loaded.fleet.clusters.map((c) => [c.name, c.labels])),
    },
  };
}
