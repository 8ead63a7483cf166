// The agent's inventory: every object it applied on its cluster and the digest of the manifest
// it last applied there. It lives in the member cluster (a ConfigMap, see agent-keys.ts) so it
// survives the agent, and it is extended BEFORE anything is applied: a crash between the two
// leaves an inventory entry for an object that may not exist (harmless: prune finds it gone),
// never an object no inventory knows (an orphan nothing would ever prune).
//
// An entry leaves the inventory only when its object is confirmed gone or no longer ours; a
// failed deletion stays and is retried (Flux's "rejected delete stays in inventory").
//
// Stored as one line per object, sorted, so an unchanged inventory is byte-identical and is not
// written again:
//
//   <apiVersion> <kind> <namespace or _> <name> <digest or ->
//
// The digest is the git blob id of the manifest the agent applied; `-` means "added before an
// apply that has not succeeded yet".
import { refKey, type ObjectRef } from '../model/object-ref.js';

export interface InventoryEntry {
  ref: ObjectRef;
  /** The digest of the manifest last applied; empty when not applied yet. */
  digest: string;
}

/** Entries by refKey. */
export type Inventory = ReadonlyMap<string, InventoryEntry>;

/** The data key of the ConfigMap that holds the entries. */
export const inventoryDataKey = 'objects';

export type ParsedInventory = { type: 'ok'; inventory: Inventory } | { type: 'invalid'; message: string };

/** Returns the inventory held in a ConfigMap's data (empty for no data), or why it cannot be read. */
export function parseInventory(data: Readonly<Record<string, string>> | undefined): ParsedInventory {
  const text = data?.[inventoryDataKey] ?? '';
  const inventory = new Map<string, InventoryEntry>();
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  for (const [i, line] of lines.entries()) {
    const parts = line.trim().split(/\s+/);
    if (parts.length !== 5)
      return { type: 'invalid', message: `line ${i + 1}: expected 5 fields, got "${line}"` };
    const [apiVersion, kind, namespace, name, digest] = parts as [string, string, string, string, string];
    const ref = { apiVersion, kind, namespace: namespace === '_' ? '' : namespace, name };
    inventory.set(refKey(ref), { ref, digest: digest === '-' ? '' : digest });
  }
  return { type: 'ok', inventory };
}

/** Returns the ConfigMap data that holds the inventory. */
export function formatInventory(inventory: Inventory): Record<string, string> {
  const keys = [...inventory.keys()].sort();
  const lines = keys.map((key) => {
    const { ref, digest } = inventory.get(key)!;
    return `${ref.apiVersion} ${ref.kind} ${ref.namespace || '_'} ${ref.name} ${digest || '-'}`;
  });
  return { [inventoryDataKey]: lines.length === 0 ? '' : `${lines.join('\n')}\n` };
}

/** Returns the inventory extended with every desired object not in it yet (digest empty). */
export function withDesired(
  inventory: Inventory,
  desired: readonly ObjectRef[],
): Map<string, InventoryEntry> {
  const next = new Map(inventory);
  for (const ref of desired) {
    const key = refKey(ref);
    if (!next.has(key)) next.set(key, { ref, digest: '' });
  }
  return next;
}

/** Returns the inventory with the applied objects' new manifests recorded and the given keys removed. */
export function afterPass(
  inventory: Inventory,
  change: { applied: readonly InventoryEntry[]; removed: Iterable<string> },
): Map<string, InventoryEntry> {
  const next = new Map(inventory);
  for (const entry of change.applied) next.set(refKey(entry.ref), entry);
  for (const key of change.removed) next.delete(key);
  return next;
}

/** Returns whether two inventories hold the same entries. */
export function sameInventory(a: Inventory, b: Inventory): boolean {
  return formatInventory(a)[inventoryDataKey] === formatInventory(b)[inventoryDataKey];
}
