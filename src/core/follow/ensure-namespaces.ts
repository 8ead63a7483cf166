import type { Binding } from '../model/binding.js';
import type { Cluster } from '../model/cluster.js';
import type { Template } from '../model/fleet.js';
import { refKey, type ObjectRef } from '../model/object-ref.js';
import { followerBinding } from './follower-binding.js';
import type { EnsuredNamespaces } from './ensured-namespaces.js';
import { sameItems } from '../model/same-items.js';

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
    if (binding.schedule.type !== 'Scheduled') continue;
    for (const { name } of binding.schedule.clusters) {
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

/** What the Namespaces a render added were found from, for the next render. */
export interface NamespacesMemo {
  clusters: readonly Cluster[];
  /** The repo's v1 Namespace templates. */
  namespaceTemplates: readonly Template[];
  /** Every binding by key: one that changed counts only if its namespace or clusters did. */
  bindings: ReadonlyMap<string, Binding>;
  result: EnsuredNamespaces;
}

/**
 * The Namespaces each cluster needs depend only on where bindings go and on the repo's own
 * Namespaces: when every binding has the same namespace, Namespace name and clusters as last
 * time, over the same clusters and Namespace templates, last time's answer stands.
 */
export function ensureNamespacesReusing(
  input: EnsureNamespacesInput,
  /** The last render's (RenderMemo.namespaces). */
  last: NamespacesMemo | undefined,
): { result: EnsuredNamespaces; memo: NamespacesMemo } {
  const bindings = new Map(input.bindings.map((b) => [b.key, b]));
  const namespaceTemplates = [...input.templates.values()].filter(
    (t) => t.ref.kind === 'Namespace' && t.ref.apiVersion === 'v1',
  );
  const same =
    last !== undefined &&
    sameItems(last.clusters, input.clusters) &&
    sameItems(last.namespaceTemplates, namespaceTemplates) &&
    last.bindings.size === bindings.size &&
    input.bindings.every((binding) => {
      const before = last.bindings.get(binding.key);
      return (
        before === binding ||
        (before !== undefined && namespacePlacement(before) === namespacePlacement(binding))
      );
    });
  const result = same ? last.result : ensureNamespaces(input);
  return { result, memo: { clusters: input.clusters, namespaceTemplates, bindings, result } };
}

function namespacePlacement(binding: Binding): string {
  const { resource, schedule } = binding;
  const names = schedule.type === 'Scheduled' ? schedule.clusters.map((c) => c.name).join(',') : '';
  const namespace = resource.kind === 'Namespace' && resource.apiVersion === 'v1' ? resource.name : '';
  return `${resource.namespace}\u0000${namespace}\u0000${names}`;
}
