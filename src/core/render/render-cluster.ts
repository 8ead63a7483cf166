import type { Binding } from '../model/binding.js';
import type { Cluster } from '../model/cluster.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { refLabel } from '../model/object-ref.js';
import type { ClusterOutput } from './render-fleet.js';
import type { ObjectRenderer } from './render-object.js';

/**
 * Returns one cluster's files, sorted by path, and the diagnostics of its objects. An object
 * that fails to render, or whose dispatching its policy suspends, is `held`: the cluster keeps
 * what it has for it.
 */
export function renderCluster(opts: {
  cluster: Cluster;
  bindings: readonly Binding[];
  renderer: ObjectRenderer;
}): { output: ClusterOutput; diagnostics: Diagnostic[] } {
  const { cluster } = opts;
  const files = new Map<string, string>();
  const held = new Map<string, string>();
  const diagnostics: Diagnostic[] = [];
  for (const binding of opts.bindings) {
    const outcome = opts.renderer.render(binding, cluster);
    if (!outcome) continue;
    const subject = refLabel(binding.resource);
    if (isDispatchSuspended(binding, cluster.name)) {
      held.set(outcome.path, 'dispatching suspended by its policy');
      diagnostics.push({
        severity: 'info',
        code: 'DispatchSuspended',
        subject,
        cluster: cluster.name,
        message: 'dispatching is suspended by its policy: the cluster keeps what it has',
      });
    } else if (outcome.ok) files.set(outcome.path, outcome.text);
    else {
      held.set(outcome.path, outcome.error);
      diagnostics.push({
        severity: 'error',
        code: 'OverrideFailed',
        subject,
        cluster: cluster.name,
        message: outcome.error,
      });
    }
  }
  const sorted = new Map([...files.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
  return { output: { files: sorted, held }, diagnostics };
}

// Karmada's shouldSuspendDispatching (pkg/controllers/binding/common.go): `dispatching: true`
// suspends every cluster, `dispatchingOnClusters` the listed ones.
function isDispatchSuspended(binding: Binding, cluster: string): boolean {
  const s = binding.suspension;
  if (!s) return false;
  return s.dispatching === true || (s.dispatchingOnClusters?.clusterNames.includes(cluster) ?? false);
}
