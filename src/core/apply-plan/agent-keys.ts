// Labels and annotations the agent reads and writes on member-cluster objects. The hub's own
// keys (gitfleet.io/managed, preserve-on-deletion, conflict-resolution) are in
// model/gitfleet-keys.ts; these are the agent's.
//
// | key                                              | on                 | meaning                                                   |
// |--------------------------------------------------|--------------------|-----------------------------------------------------------|
// | label gitfleet.io/cluster: <cluster>             | every applied object | the ownership marker: the agent of <cluster> applied it; prune deletes only objects that still carry it |
// | annotation gitfleet.io/prune: disabled           | a live object      | never pruned (Flux's kustomize.toolkit.fluxcd.io/prune: disabled) |
// | annotation gitfleet.io/recreate-on-immutable-change: "true" | a manifest | delete and recreate when an apply hits an immutable field |
// | label gitfleet.io/inventory: <cluster>           | the inventory ConfigMap | which agent's inventory it is                         |

/** The ownership marker: the name of the cluster whose agent applied the object. */
export const clusterLabel = 'gitfleet.io/cluster';
/** An object annotated `gitfleet.io/prune: disabled` is never pruned. */
export const pruneAnnotation = 'gitfleet.io/prune';
/** A manifest annotated `"true"` is deleted and recreated when an apply hits an immutable field. */
export const recreateAnnotation = 'gitfleet.io/recreate-on-immutable-change';
/** Marks the inventory ConfigMap with the cluster it belongs to. */
export const inventoryLabel = 'gitfleet.io/inventory';
/** The namespace holding the agents' inventories. */
export const inventoryNamespace = 'gitfleet-system';

/** Returns the name of the inventory ConfigMap of a cluster's agent. */
export function inventoryName(cluster: string): string {
  return `gitfleet-inventory-${cluster}`;
}
