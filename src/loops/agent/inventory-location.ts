// Which ConfigMap holds this agent's inventory. Two fleets may both have a cluster of one name on
// the same API server; each keeps its own inventory, or the second agent would read the first's
// and prune everything the first applied. The default name is gitfleet-inventory-<cluster>:
//
// | <name>-<fleet>          | <name> (the default)                     | the inventory used            |
// |-------------------------|------------------------------------------|-------------------------------|
// | exists                  | any                                      | <name>-<fleet>                |
// | absent                  | absent, ours, or names no fleet          | <name> (one naming no fleet was written before fleet identities: ours, now named) |
// | absent                  | names another fleet                      | <name>-<fleet>, created       |
//
// `<fleet>` is the first 16 characters of the fleet identity. The answer is kept for the
// process; a restart asks again and gets the same answer (each outcome names its fleet).
import type { ClusterApi } from './cluster-api.js';
import { inventoryFleetOf, inventoryRef, type InventoryLocation } from './inventory-store.js';
import { inventoryName } from '../../core/apply-plan/agent-keys.js';

/** Returns where the inventory of the agent of `cluster` in `fleet` lives (see the table above); throws when it cannot be read. */
export async function locateInventory(
  client: ClusterApi,
  opts: { cluster: string; fleet: string; name?: string },
): Promise<InventoryLocation> {
  const base = opts.name ?? inventoryName(opts.cluster);
  const own: InventoryLocation = {
    cluster: opts.cluster,
    fleet: opts.fleet,
    name: `${base}-${opts.fleet.slice(0, 16).replace(/[^a-z0-9.-]/g, '-')}`.replace(/[-.]+$/, ''),
  };
  if ((await client.get(inventoryRef(own))) !== undefined) return own;
  const shared = await client.get(inventoryRef({ cluster: opts.cluster, name: base }));
  const fleet = shared === undefined ? undefined : inventoryFleetOf(shared);
  if (fleet === undefined || fleet === opts.fleet)
    return { cluster: opts.cluster, fleet: opts.fleet, name: base };
  return own;
}
