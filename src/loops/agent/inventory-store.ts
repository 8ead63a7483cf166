// The inventory ConfigMap in the member cluster (core/apply-plan/inventory.ts says what it
// holds and why it is written before anything is applied). It is written with server-side
// apply under the agent's field manager, only when its content changes, into the
// gitfleet-system namespace, which is created the first time.
import { formatInventory, parseInventory, type Inventory } from '../../core/apply-plan/inventory.js';
import { inventoryLabel, inventoryName, inventoryNamespace } from '../../core/apply-plan/agent-keys.js';
import type { KubeClient } from '../../adapters/kube/kube-client.js';
import { KubeApiError } from '../../adapters/kube/kube-error.js';

/** Where an agent keeps its inventory; `name` defaults to gitfleet-inventory-<cluster>. */
export interface InventoryLocation {
  cluster: string;
  name?: string;
}

const configMapRef = (at: InventoryLocation) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  namespace: inventoryNamespace,
  name: at.name ?? inventoryName(at.cluster),
});

/** Returns the stored inventory (empty when there is none yet); throws when it cannot be read or parsed. */
export async function readInventory(
  client: KubeClient,
  at: InventoryLocation,
): Promise<{ inventory: Inventory; exists: boolean }> {
  const ref = configMapRef(at);
  const live = await client.get(ref);
  if (live === undefined) return { inventory: new Map(), exists: false };
  const parsed = parseInventory(live.data as Record<string, string> | undefined);
  if (parsed.type === 'invalid') {
    throw Object.assign(
      new Error(`ConfigMap/${ref.namespace}/${ref.name}: the inventory does not parse: ${parsed.message}`),
      { terminal: true },
    );
  }
  return { inventory: parsed.inventory, exists: true };
}

/** Stores the inventory, creating the namespace first when the inventory did not exist; throws on failure. */
export async function writeInventory(
  client: KubeClient,
  at: InventoryLocation,
  inventory: Inventory,
  opts: { exists: boolean },
): Promise<void> {
  const ref = configMapRef(at);
  if (!opts.exists) {
    const ns = await client.apply(
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: inventoryNamespace } },
      { force: false },
    );
    if (ns.type === 'refused') throw new KubeApiError(`Namespace/${inventoryNamespace}`, ns.refusal);
  }
  const result = await client.apply(
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: ref.name, namespace: ref.namespace, labels: { [inventoryLabel]: at.cluster } },
      data: formatInventory(inventory),
    },
    { force: true },
  );
  if (result.type === 'refused')
    throw new KubeApiError(`ConfigMap/${ref.namespace}/${ref.name}`, result.refusal);
}
