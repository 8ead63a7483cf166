// The inventory's part of a pass (run-agent-pass.ts, steps 3 and 6): the inventory the pass
// starts from (rebuilt when it does not read), what prune may delete, what a restarted agent
// learns from it, and the entries of the objects the pass applied.
import type { Inventory, InventoryEntry } from '../../core/apply-plan/inventory.js';
import { clusterLabel } from '../../core/apply-plan/agent-keys.js';
import { refKey, type ObjectRef } from '../../core/model/object-ref.js';
import type { AgentMemory } from './agent-memory.js';
import type { ClusterApi } from './cluster-api.js';
import { readInventory, type InventoryAt, type InventoryLocation } from './inventory-store.js';
import type { ObjectResult } from './object-result.js';
import { rebuildInventory } from './rebuild-inventory.js';

export interface KnownInventory {
  /** What the pass starts from. */
  inventory: Inventory;
  /** What the ConfigMap holds now, as far as it reads (compared with, to write only changes). */
  stored: Inventory;
  exists: boolean;
  /** False when the stored inventory must be left as it is (it does not read and could not be rebuilt). */
  writable: boolean;
  /** Why the stored inventory is not to be trusted this pass; nothing is pruned when set. */
  problem?: string;
  /** The stored inventory names no fleet, or another than the one it is kept for: write it even if unchanged. */
  unstamped?: boolean;
}

/**
 * Returns the inventory the pass starts from. One that does not parse never stops the pass:
 * it is rebuilt from what still reads plus every live object carrying the marker
 * (rebuild-inventory.ts says why that loses nothing prune could act on), or, when some kind
 * could not be listed for that, left as it is; either way this pass applies but prunes nothing.
 */
export async function knownInventory(
  opts: { client: ClusterApi; cluster: string; fleet: string; concurrency: number; memory: AgentMemory },
  at: InventoryLocation,
): Promise<KnownInventory> {
  const stored = await readInventory(opts.client, at, opts.memory.inventory);
  if (stored.type === 'ok') {
    if (stored.resourceVersion !== undefined)
      remember(opts.memory, { resourceVersion: stored.resourceVersion, inventory: stored.inventory });
    // One written before fleet identities is stamped with ours at once, so no other fleet takes it.
    const unstamped = stored.exists && stored.fleet !== at.fleet;
    return {
      inventory: stored.inventory,
      stored: stored.inventory,
      exists: stored.exists,
      writable: true,
      ...(unstamped ? { unstamped } : {}),
    };
  }
  const rebuilt = await rebuildInventory({
    client: opts.client,
    cluster: opts.cluster,
    fleet: opts.fleet,
    salvaged: stored.salvaged,
    concurrency: opts.concurrency,
  });
  if (rebuilt.type === 'incomplete') {
    return {
      inventory: stored.salvaged,
      stored: stored.salvaged,
      exists: true,
      writable: false,
      problem: `${stored.message}; left as it is, since ${rebuilt.failed.length} kind(s) could not be listed to rebuild it (${rebuilt.failed.join('; ')}); applying goes on, nothing is pruned until it reads again`,
    };
  }
  return {
    inventory: rebuilt.inventory,
    stored: new Map(),
    exists: true,
    writable: true,
    problem: `${stored.message}; rewritten from the ${stored.salvaged.size} entries that still read and the ${rebuilt.found} live objects carrying ${clusterLabel}=${opts.cluster}; nothing pruned in this pass`,
  };
}

/** Keeps what the inventory ConfigMap holds at its resourceVersion, so the next pass need not decode it. */
export function remember(memory: AgentMemory, known: InventoryAt | undefined): void {
  if (known) memory.inventory = known;
  else delete memory.inventory;
}

/** Returns the refKeys of every object of the branch: its object files, parsed or not, and what they parsed to. */
export function desiredKeys(branch: {
  keys: ReadonlySet<string>;
  objects: readonly { ref: ObjectRef }[];
}): Set<string> {
  const desired = new Set(branch.keys);
  for (const o of branch.objects) desired.add(refKey(o.ref));
  return desired;
}

/** Returns the inventory's objects the branch no longer holds: what prune may delete. */
export function leavingRefs(inventory: Inventory, desired: ReadonlySet<string>): ObjectRef[] {
  const leaving: ObjectRef[] = [];
  for (const [key, entry] of inventory) if (!desired.has(key)) leaving.push(entry.ref);
  return leaving;
}

/** A restarted agent's memory learns, from the inventory, the versions it last saw match. */
export function seedSettled(memory: AgentMemory, inventory: Inventory): void {
  for (const [key, entry] of inventory) {
    if (entry.resourceVersion !== undefined && !memory.settled.has(key))
      memory.settled.set(key, entry.resourceVersion);
  }
}

/**
 * Returns the inventory entry of an object in place. The resourceVersion recorded is the one
 * the agent's own write returned; an object found unchanged keeps the one recorded before, so
 * a controller updating its status (a new resourceVersion, checked clean by a dry run) does
 * not cost an inventory write on every pass.
 */
export function appliedEntry(o: ObjectResult, before: Inventory): InventoryEntry {
  if (o.action === 'unchanged') {
    const known = before.get(refKey(o.ref));
    if (known?.digest === o.digest) return known;
    return {
      ref: o.ref,
      digest: o.digest,
      ...(known?.resourceVersion ? { resourceVersion: known.resourceVersion } : {}),
    };
  }
  const rv = o.live?.metadata.resourceVersion;
  return { ref: o.ref, digest: o.digest, ...(typeof rv === 'string' ? { resourceVersion: rv } : {}) };
}
