import type { Binding } from '../model/binding.js';
import type { Cluster } from '../model/cluster.js';
import type { Template } from '../model/fleet.js';
import { refKey, type ObjectRef } from '../model/object-ref.js';
import { followerBinding } from './follower-binding.js';
import { placedClusters } from './placed-clusters.js';
import type { EnsuredNamespaces } from './ensured-namespaces.js';

// Namespaces every Kubernetes cluster has; gitfleet never renders them unless asked to.
const builtinNamespaces = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);

export interface EnsureNamespacesInput {
  bindings: readonly Binding[];
  templates: ReadonlyMap<string, Template>;
  clusters: readonly Cluster[];
}

/**
 * Returns the Namespaces each cluster needs besides those already placed: every namespace a
 * rendered object lives in must exist in that cluster's output. The repo's own Namespace object
 * is used when there is one (e.g. labelled skip-auto-propagation); otherwise a bare Namespace
 * is generated. Only ClusterOverridePolicies apply to them, as to Karmada's synced namespaces.
 */
export function ensureNamespaces(input: EnsureNamespacesInput): EnsuredNamespaces {
  const needed = namespacesInUse(input.bindings);
  const perCluster = new Map<string, Binding[]>();
  const generated = new Map<string, Template>();
  for (const cluster of input.clusters) {
    const missing = [...(needed.get(cluster.name)?.needs ?? [])]
      .filter((ns) => !needed.get(cluster.name)?.has.has(ns) && !builtinNamespaces.has(ns))
      .sort();
    if (missing.length === 0) continue;
    perCluster.set(
      cluster.name,
      missing.map((ns) => namespaceBinding(ns, cluster.name, input.templates, generated)),
    );
  }
  return { perCluster, generated: [...generated.values()] };
}

function namespacesInUse(
  bindings: readonly Binding[],
): Map<string, { needs: Set<string>; has: Set<string> }> {
  const byCluster = new Map<string, { needs: Set<string>; has: Set<string> }>();
  for (const binding of bindings) {
    for (const { name } of placedClusters(binding)) {
      let entry = byCluster.get(name);
      if (!entry) byCluster.set(name, (entry = { needs: new Set(), has: new Set() }));
      if (binding.resource.namespace) entry.needs.add(binding.resource.namespace);
      if (binding.resource.kind === 'Namespace' && binding.resource.apiVersion === 'v1') {
        entry.has.add(binding.resource.name);
      }
    }
  }
  return byCluster;
}

function namespaceBinding(
  namespace: string,
  cluster: string,
  templates: ReadonlyMap<string, Template>,
  generated: Map<string, Template>,
): Binding {
  const ref: ObjectRef = { apiVersion: 'v1', kind: 'Namespace', namespace: '', name: namespace };
  const key = refKey(ref);
  if (!templates.has(key) && !generated.has(key)) {
    generated.set(key, {
      ref,
      key,
      object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
      source: { file: '(generated)', index: 0 },
    });
  }
  return followerBinding({ ref, origin: 'namespace', clusters: [cluster] });
}
