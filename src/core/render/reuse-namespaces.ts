// The render memo's `namespaces` entry (incremental-render.ts): the Namespaces stage is computed
// again unless the clusters, the repo's Namespace templates and every binding's namespace
// placement are the same, and then an equal made-up Namespace or Namespace binding is last
// time's object, so the units that render it can be reused.
import type { Binding } from '../model/binding.js';
import { sameItems } from '../model/same-items.js';
import type { EnsureNamespacesInput } from '../follow/ensure-namespaces.js';
import type { EnsuredNamespaces } from '../follow/ensured-namespaces.js';
import type { NamespacesMemo } from './render-memo.js';
import { namespaceTemplatesOf, sameNamespacePlacement } from './same-inputs.js';

/** Returns the stage's result and what it was found from: last time's when its inputs are the same. */
export function reuseNamespaces(
  input: EnsureNamespacesInput,
  compute: (input: EnsureNamespacesInput) => EnsuredNamespaces,
  kept: NamespacesMemo | undefined,
): NamespacesMemo {
  const bindings = new Map(input.bindings.map((b) => [b.key, b]));
  const namespaceTemplates = namespaceTemplatesOf(input.templates);
  const reusable =
    kept !== undefined &&
    sameItems(kept.clusters, input.clusters) &&
    sameItems(kept.namespaceTemplates, namespaceTemplates) &&
    kept.bindings.size === bindings.size &&
    input.bindings.every((b) => sameNamespacePlacement(kept.bindings.get(b.key), b));
  const result = reusable ? kept.result : keepEqualNamespaces(compute(input), kept?.result);
  return { clusters: input.clusters, namespaceTemplates, bindings, result };
}

// Namespaces computed again: a made-up Namespace template, or a Namespace binding for a cluster,
// equal to last time's is last time's object, so the units that render it can be reused.
function keepEqualNamespaces(now: EnsuredNamespaces, kept: EnsuredNamespaces | undefined): EnsuredNamespaces {
  if (!kept) return now;
  const generated = new Map(kept.generated.map((t) => [t.key, t]));
  const perCluster = new Map<string, Binding[]>();
  for (const [cluster, list] of now.perCluster) {
    const before = new Map((kept.perCluster.get(cluster) ?? []).map((b) => [b.key, b]));
    perCluster.set(
      cluster,
      list.map((b) => {
        const old = before.get(b.key);
        return old && JSON.stringify(old) === JSON.stringify(b) ? old : b;
      }),
    );
  }
  // A made-up Namespace is a bare Namespace of its name: the same key, the same template.
  return { perCluster, generated: now.generated.map((t) => generated.get(t.key) ?? t) };
}
