// The inventory ConfigMap in the member cluster (core/apply-plan/inventory.ts says what it
// holds and why it is written before anything is applied). It is written with server-side
// apply under the agent's field manager, only when its content changes, into the
// gitfleet-system namespace, which is created the first time.
//
// Layout (format version 2): `data.version: "2"` and the JSON lines, gzipped, in
// `binaryData["objects.jsonl.gz"]`. A ConfigMap holds at most 1 MiB; an entry is about 170
// bytes of JSON but only 25 to 35 once gzipped (the digest, 20 random bytes, is most of it),
// so 10,000 objects take about 0.4 MiB even after base64. A ConfigMap without `data.version`
// is format version 1: space-separated text in `data.objects`, read and then rewritten as
// version 2 by the next write (server-side apply drops the old key the agent no longer sets).
// `data.fleet` (and the label gitfleet.io/fleet) names the fleet whose agent keeps it; one
// written before fleet identities has none and is taken by the first agent of the cluster's
// name that reads it (inventory-location.ts).
import { gunzipSync, gzipSync, constants as zlib } from 'node:zlib';
import {
  formatInventory,
  inventoryVersion,
  parseInventory,
  type Inventory,
  type ParsedInventory,
} from '../../core/apply-plan/inventory.js';
import {
  fleetLabel,
  inventoryLabel,
  inventoryName,
  inventoryNamespace,
} from '../../core/apply-plan/agent-keys.js';
import type { KubeObject } from '../../core/model/kube-object.js';
import type { ClusterApi } from './cluster-api.js';
import { KubeApiError } from '../../adapters/kube/kube-error.js';

/** Where an agent keeps its inventory; `name` defaults to gitfleet-inventory-<cluster>. */
export interface InventoryLocation {
  cluster: string;
  name?: string;
  /** The fleet whose agent keeps it, written into it (absent: none written, as before fleet identities). */
  fleet?: string;
}

/** What a read found: the inventory, or why it does not read and the entries that still do. */
export type InventoryRead =
  /** `resourceVersion`: the ConfigMap's, when it exists; `fleet`: the fleet it names, if any. */
  | { type: 'ok'; inventory: Inventory; exists: boolean; resourceVersion?: string; fleet?: string }
  | { type: 'unreadable'; message: string; salvaged: Inventory; exists: true };

const versionKey = 'version';
const v1Key = 'objects';
const v2Key = 'objects.jsonl.gz';
const fleetKey = 'fleet';

/** Returns the fleet an inventory ConfigMap names (undefined: none, written before fleet identities). */
export function inventoryFleetOf(configMap: KubeObject): string | undefined {
  const data = (configMap['data'] ?? {}) as Record<string, string>;
  return data[fleetKey];
}

/** Returns the identity of the inventory ConfigMap at a location. */
export function inventoryRef(at: InventoryLocation) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    namespace: inventoryNamespace,
    name: at.name ?? inventoryName(at.cluster),
  };
}

/** Returns the ConfigMap fields that hold the inventory in the current format. */
export function encodeInventory(inventory: Inventory): {
  data: Record<string, string>;
  binaryData: Record<string, string>;
} {
  const gz = gzipSync(Buffer.from(formatInventory(inventory), 'utf8'), { level: 9 });
  return { data: { [versionKey]: inventoryVersion }, binaryData: { [v2Key]: gz.toString('base64') } };
}

/** Returns the inventory a ConfigMap holds, in either format, or why it does not read. */
export function decodeInventory(configMap: KubeObject): ParsedInventory {
  const data = (configMap['data'] ?? {}) as Record<string, string>;
  const version = data[versionKey];
  if (version === undefined) return parseInventory({ version: undefined, text: data[v1Key] ?? '' });
  if (version !== inventoryVersion) return parseInventory({ version, text: '' });
  const packed = ((configMap['binaryData'] ?? {}) as Record<string, string>)[v2Key];
  if (packed === undefined)
    return { type: 'invalid', message: `binaryData ${v2Key} is missing`, salvaged: new Map() };
  const bytes = Buffer.from(packed, 'base64');
  try {
    return parseInventory({ version, text: gunzipSync(bytes).toString('utf8') });
  } catch (error) {
    // Cut or damaged: what inflates before the damage still names objects that may be ours.
    const partial = inflatePartly(bytes);
    const parsed = parseInventory({ version, text: partial.slice(0, partial.lastIndexOf('\n') + 1) });
    const salvaged = parsed.type === 'ok' ? parsed.inventory : parsed.salvaged;
    return {
      type: 'invalid',
      message: `binaryData ${v2Key}: not a complete gzip stream (${(error as Error).message})`,
      salvaged,
    };
  }
}

function inflatePartly(bytes: Buffer): string {
  try {
    return gunzipSync(bytes, { finishFlush: zlib.Z_SYNC_FLUSH }).toString('utf8');
  } catch {
    return '';
  }
}

/** An inventory known to be what the ConfigMap held at a resourceVersion. */
export interface InventoryAt {
  resourceVersion: string;
  inventory: Inventory;
}

/**
 * Returns the stored inventory (empty when there is none yet) or why it is unreadable; throws
 * when it cannot be read at all. `known`: what the ConfigMap held at some resourceVersion,
 * returned instead of decoding the ConfigMap again while it is still at that version.
 */
export async function readInventory(
  client: ClusterApi,
  at: InventoryLocation,
  known?: InventoryAt,
): Promise<InventoryRead> {
  const ref = inventoryRef(at);
  const live = await client.get(ref);
  if (live === undefined) return { type: 'ok', inventory: new Map(), exists: false };
  const rv = live.metadata.resourceVersion;
  const fleet = inventoryFleetOf(live);
  const resourceVersion = {
    ...(typeof rv === 'string' ? { resourceVersion: rv } : {}),
    ...(fleet !== undefined ? { fleet } : {}),
  };
  if (known !== undefined && rv === known.resourceVersion)
    return { type: 'ok', inventory: known.inventory, exists: true, ...resourceVersion };
  const parsed = decodeInventory(live);
  if (parsed.type === 'invalid') {
    return {
      type: 'unreadable',
      message: `ConfigMap/${ref.namespace}/${ref.name}: the inventory does not parse: ${parsed.message}`,
      salvaged: parsed.salvaged,
      exists: true,
    };
  }
  return { type: 'ok', inventory: parsed.inventory, exists: true, ...resourceVersion };
}

/**
 * Stores the inventory, creating the namespace first when the inventory did not exist; returns
 * it with the ConfigMap's resourceVersion after the write (undefined when the answer has none);
 * throws on failure.
 */
export async function writeInventory(
  client: ClusterApi,
  at: InventoryLocation,
  inventory: Inventory,
  opts: { exists: boolean },
): Promise<InventoryAt | undefined> {
  const ref = inventoryRef(at);
  if (!opts.exists) {
    const ns = await client.apply(
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: inventoryNamespace } },
      { force: false },
    );
    // A tenant agent may not create namespaces; gitfleet-system then exists already (its own
    // Role lives there) and the ConfigMap's write below says so when it does not.
    if (ns.type === 'refused' && ns.refusal.code !== 403)
      throw new KubeApiError(`Namespace/${inventoryNamespace}`, ns.refusal);
  }
  const encoded = encodeInventory(inventory);
  const fleet = at.fleet === undefined ? {} : { [fleetLabel]: at.fleet };
  const result = await client.apply(
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: ref.name,
        namespace: ref.namespace,
        labels: { [inventoryLabel]: at.cluster, ...fleet },
      },
      data: { ...encoded.data, ...(at.fleet === undefined ? {} : { [fleetKey]: at.fleet }) },
      binaryData: encoded.binaryData,
    },
    { force: true },
  );
  if (result.type === 'refused')
    throw new KubeApiError(`ConfigMap/${ref.namespace}/${ref.name}`, result.refusal);
  const rv = result.live.metadata.resourceVersion;
  return typeof rv === 'string' ? { resourceVersion: rv, inventory } : undefined;
}
