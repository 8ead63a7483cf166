// The agent's inventory: every object it applied on its cluster, the digest of the manifest it
// last applied there, and the object's resourceVersion right after that apply. It lives in the
// member cluster (a ConfigMap, see agent-keys.ts) so it survives the agent, and it is extended
// BEFORE anything is applied: a crash between the two leaves an inventory entry for an object
// that may not exist (harmless: prune finds it gone), never an object no inventory knows (an
// orphan nothing would ever prune).
//
// An entry leaves the inventory only when its object is confirmed gone or no longer ours; a
// failed deletion stays and is retried (Flux's "rejected delete stays in inventory").
//
// Format version 2 (the one written): one JSON object per line, sorted by identity, so an
// unchanged inventory is byte-identical and is not written again, and a name holds whatever
// Kubernetes accepts (RBAC names may have spaces, quotes, any unicode):
//
//   {"apiVersion":"apps/v1","kind":"Deployment","namespace":"shop","name":"web","digest":"<blob id>","resourceVersion":"812"}
//
// `digest` is the git blob id of the manifest the agent applied, "" for "added before an apply
// that has not succeeded yet"; `resourceVersion` is the live object's right after the agent
// applied it or found it matching, so an agent that starts without memory (`agent --once`) can
// tell from one list per kind which objects were written since, instead of a dry run each.
//
// Format version 1 (read only, written by older agents): one line per object of five fields
// separated by spaces, `<apiVersion> <kind> <namespace or _> <name> <digest or ->`; it could
// not hold a name with a space, which is why version 2 exists. The format's version is stored
// beside the text (inventory-store.ts), so it can change again.
import { refKey, type ObjectRef } from '../model/object-ref.js';

export interface InventoryEntry {
  ref: ObjectRef;
  /** The digest of the manifest last applied; empty when not applied yet. */
  digest: string;
  /** The live object's resourceVersion when the agent last saw it match the manifest. */
  resourceVersion?: string;
}

/** Entries by refKey. */
export type Inventory = ReadonlyMap<string, InventoryEntry>;

/** The format version this agent writes. */
export const inventoryVersion = '2';

/** The inventory as stored: its format version (undefined for version 1, which had none) and its text. */
export interface StoredInventory {
  version: string | undefined;
  text: string;
}

export type ParsedInventory =
  | { type: 'ok'; inventory: Inventory; format: '1' | '2' }
  /** `salvaged` holds the entries that still read: objects that may be ours, never to be forgotten. */
  | { type: 'invalid'; message: string; salvaged: Inventory };

/** Returns the inventory a stored text holds (empty for none), or why it cannot be read and what still reads. */
export function parseInventory(stored: StoredInventory | undefined): ParsedInventory {
  if (stored === undefined) return { type: 'ok', inventory: new Map(), format: inventoryVersion };
  const version = stored.version ?? '1';
  if (version !== '1' && version !== '2') {
    return {
      type: 'invalid',
      message: `format version ${version} is not one this agent reads (it reads 1 and 2)`,
      salvaged: new Map(),
    };
  }
  const parseLine = version === '1' ? parseV1Line : parseV2Line;
  const inventory = new Map<string, InventoryEntry>();
  let firstError: string | undefined;
  for (const [i, line] of stored.text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const entry = parseLine(line);
    if (typeof entry === 'string') firstError ??= `line ${i + 1}: ${entry}`;
    else inventory.set(refKey(entry.ref), entry);
  }
  if (firstError !== undefined) return { type: 'invalid', message: firstError, salvaged: inventory };
  return { type: 'ok', inventory, format: version };
}

function parseV1Line(line: string): InventoryEntry | string {
  const parts = line.trim().split(/\s+/);
  if (parts.length !== 5) return `expected 5 fields, got "${line}"`;
  const [apiVersion, kind, namespace, name, digest] = parts as [string, string, string, string, string];
  const ref = { apiVersion, kind, namespace: namespace === '_' ? '' : namespace, name };
  return { ref, digest: digest === '-' ? '' : digest };
}

function parseV2Line(line: string): InventoryEntry | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not a JSON object';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const { apiVersion, kind, namespace, name, digest, resourceVersion } = value as Record<string, unknown>;
  const strings = [apiVersion, kind, namespace, name, digest].every((v) => typeof v === 'string');
  if (!strings || apiVersion === '' || kind === '' || name === '') {
    return 'apiVersion, kind, namespace, name and digest must be strings, apiVersion, kind and name not empty';
  }
  if (resourceVersion !== undefined && typeof resourceVersion !== 'string')
    return 'resourceVersion must be a string';
  const ref = { apiVersion, kind, namespace, name } as ObjectRef;
  return { ref, digest: digest as string, ...(resourceVersion ? { resourceVersion } : {}) };
}

/** Returns the text of the inventory in the current format (version 2): one sorted JSON line per entry. */
export function formatInventory(inventory: Inventory): string {
  const keys = [...inventory.keys()].sort();
  return keys
    .map((key) => {
      const { ref, digest, resourceVersion } = inventory.get(key)!;
      const { apiVersion, kind, namespace, name } = ref;
      return `${JSON.stringify({ apiVersion, kind, namespace, name, digest, ...(resourceVersion ? { resourceVersion } : {}) })}\n`;
    })
    .join('');
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

/** Returns whether two inventories hold the same entries (what formatInventory writes of them is equal). */
export function sameInventory(a: Inventory, b: Inventory): boolean {
  if (a.size !== b.size) return false;
  for (const [key, x] of a) {
    const y = b.get(key);
    if (y === undefined || (x !== y && !sameEntry(x, y))) return false;
  }
  return true;
}

function sameEntry(x: InventoryEntry, y: InventoryEntry): boolean {
  return (
    x.digest === y.digest &&
    // An empty resourceVersion is not written, as an absent one.
    (x.resourceVersion || undefined) === (y.resourceVersion || undefined) &&
    x.ref.apiVersion === y.ref.apiVersion &&
    x.ref.kind === y.ref.kind &&
    x.ref.namespace === y.ref.namespace &&
    x.ref.name === y.ref.name
  );
}
