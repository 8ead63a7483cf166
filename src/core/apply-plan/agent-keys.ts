// Labels and annotations the agent reads and writes on member-cluster objects. The hub's own
// keys (gitfleet.io/managed, preserve-on-deletion, conflict-resolution) are in
// model/gitfleet-keys.ts; these are the agent's.
//
// | key                                              | on                 | meaning                                                   |
// |--------------------------------------------------|--------------------|-----------------------------------------------------------|
// | label gitfleet.io/cluster: <cluster>             | every applied object | the ownership marker: the agent of <cluster> applied it; prune deletes only objects that still carry it |
// | label gitfleet.io/fleet: <fleet identity>        | every applied object | the fleet whose agent applied it (ownership.ts): another fleet's agent of the same cluster name leaves it alone |
// | annotation gitfleet.io/prune: disabled           | a live object      | never pruned (Flux's kustomize.toolkit.fluxcd.io/prune: disabled) |
// | annotation gitfleet.io/prune-crd-with-resources: "true" | a CRD's manifest | prune deletes the CRD even when custom resources of its kinds are not the agent's (they go with it) |
// | annotation gitfleet.io/recreate-on-immutable-change: "true" | a manifest | delete and recreate when an apply hits an immutable field |
// | label gitfleet.io/inventory: <cluster>           | the inventory ConfigMap | which agent's inventory it is                         |

/** The ownership marker: the name of the cluster whose agent applied the object. */
export const clusterLabel = 'gitfleet.io/cluster';
/** The fleet identity of the agent that applied the object (see ownership.ts and fleet-identity.ts). */
export const fleetLabel = 'gitfleet.io/fleet';
/** An object annotated `gitfleet.io/prune: disabled` is never pruned. */
export const pruneAnnotation = 'gitfleet.io/prune';
/** A CRD annotated `"true"` is pruned even when custom resources of its kinds that the agent does not own exist (they are deleted with it). */
export const pruneCrdWithResourcesAnnotation = 'gitfleet.io/prune-crd-with-resources';
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
