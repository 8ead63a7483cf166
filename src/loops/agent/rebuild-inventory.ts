// Rebuilding an inventory that does not parse. Every object the agent applies carries its
// ownership marker (gitfleet.io/cluster: <cluster>), so the objects that might be in the lost
// inventory are: the entries that still parse, plus every live object carrying the marker.
// Entries whose objects are gone are not needed (prune would only have found them gone), and an
// object whose marker someone removed is not one prune would delete anyway. So a rebuild from
// one labelled list of every listable kind loses nothing that prune could act on; but only
// when every kind could be listed: a kind that failed might hide objects of ours, and then
// the broken inventory is left as it is, to be rebuilt by a later pass, rather than replaced
// by one that forgets them.
import { clusterLabel, fleetLabel } from '../../core/apply-plan/agent-keys.js';
import type { Inventory, InventoryEntry } from '../../core/apply-plan/inventory.js';
import { refKey } from '../../core/model/object-ref.js';
import type { ClusterApi } from './cluster-api.js';
import { mapConcurrent } from '../../adapters/map-concurrent.js';

export type RebuiltInventory =
  | { type: 'complete'; inventory: Map<string, InventoryEntry>; found: number }
  /** `failed`: `Kind (group/version): why` of each kind that could not be listed. */
  | { type: 'incomplete'; failed: string[] };

/** Returns the salvaged entries plus every live object carrying the agent's marker, or which kinds could not be listed. */
export async function rebuildInventory(opts: {
  client: ClusterApi;
  cluster: string;
  /** Our fleet: objects of our cluster's name marked for another fleet are not ours to rebuild from. */
  fleet: string;
  salvaged: Inventory;
  concurrency: number;
}): Promise<RebuiltInventory> {
  const kinds = new Map<string, { apiVersion: string; kind: string }>();
  for (const r of await opts.client.served()) {
    if (!r.verbs.includes('list') || kinds.has(`${r.group}/${r.kind}`)) continue;
    kinds.set(`${r.group}/${r.kind}`, {
      apiVersion: r.group ? `${r.group}/${r.version}` : r.version,
      kind: r.kind,
    });
  }
  const inventory = new Map(opts.salvaged);
  const failed: string[] = [];
  let found = 0;
  await mapConcurrent([...kinds.values()], opts.concurrency, async (kind) => {
    try {
      const { items } = await opts.client.list(kind, {
        labelSelector: `${clusterLabel}=${opts.cluster}`,
        metadataOnly: true,
      });
      for (const item of items) {
        const fleet = item.metadata.labels?.[fleetLabel];
        if (fleet !== undefined && fleet !== opts.fleet) continue;
        const ref = { ...kind, namespace: item.metadata.namespace ?? '', name: item.metadata.name };
        found++;
        if (!inventory.has(refKey(ref))) inventory.set(refKey(ref), { ref, digest: '' });
      }
    } catch (error) {
      failed.push(`${kind.kind} (${kind.apiVersion}): ${(error as Error).message}`);
    }
  });
  if (failed.length > 0) return { type: 'incomplete', failed: failed.sort() };
  return { type: 'complete', inventory, found };
}
