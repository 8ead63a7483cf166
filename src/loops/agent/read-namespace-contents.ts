// What a Namespace holds that the agent does not own, read before the agent deletes it:
// deleting a Namespace deletes everything in it, so a Namespace the agent applied is deleted
// only when nothing in it belongs to anyone else. One metadata-only list per namespaced kind.
//
// | object in the Namespace                                   | counts as                          |
// |-----------------------------------------------------------|------------------------------------|
// | carries our marker (ownership.ts), not prune: disabled nor preserved | ours: goes with the Namespace |
// | has an ownerReference                                     | its owner's: goes with its owner   |
// | ConfigMap kube-root-ca.crt, ServiceAccount default, Events, Endpoints | the cluster's own bookkeeping |
// | anything else (no marker, another cluster's or fleet's, kept or preserved by annotation) | foreign: the Namespace is kept |
import { pruneAnnotation } from '../../core/apply-plan/agent-keys.js';
import type { Inventory } from '../../core/apply-plan/inventory.js';
import { ownershipOf, type OwnerIdentity } from '../../core/apply-plan/ownership.js';
import { preserveAnnotation } from '../../core/model/gitfleet-keys.js';
import type { KubeObject } from '../../core/model/kube-object.js';
import { refKey } from '../../core/model/object-ref.js';
import type { ClusterApi } from './cluster-api.js';
import { mapConcurrent } from '../../adapters/map-concurrent.js';

const bookkeeping = new Set(['ConfigMap/kube-root-ca.crt', 'ServiceAccount/default']);
const bookkeepingKinds = new Set(['Event', 'Endpoints']);

/** Returns the objects in the Namespace the agent does not own (`Kind/namespace/name`, sorted), or why they could not be listed. */
export async function readNamespaceContents(opts: {
  client: ClusterApi;
  self: OwnerIdentity;
  inventory: Inventory;
  namespace: string;
  concurrency: number;
}): Promise<{ foreign: string[] } | { unknown: string }> {
  const kinds = new Map<string, { apiVersion: string; kind: string }>();
  for (const r of await opts.client.served()) {
    if (!r.namespaced || !r.verbs.includes('list') || bookkeepingKinds.has(r.kind)) continue;
    if (!kinds.has(`${r.group}/${r.kind}`))
      kinds.set(`${r.group}/${r.kind}`, {
        apiVersion: r.group ? `${r.group}/${r.version}` : r.version,
        kind: r.kind,
      });
  }
  const foreign: string[] = [];
  const failed: string[] = [];
  await mapConcurrent([...kinds.values()], opts.concurrency, async (kind) => {
    try {
      const { items } = await opts.client.list(kind, { namespace: opts.namespace, metadataOnly: true });
      for (const item of items) {
        if (!goesWithItsContainer(item, opts.self, opts.inventory))
          foreign.push(`${kind.kind}/${opts.namespace}/${item.metadata.name}`);
      }
    } catch (error) {
      failed.push(`${kind.kind}: ${(error as Error).message}`);
    }
  });
  if (failed.length > 0) return { unknown: failed.sort().join('; ') };
  return { foreign: foreign.sort() };
}

function goesWithItsContainer(item: KubeObject, self: OwnerIdentity, inventory: Inventory): boolean {
  const meta = item.metadata;
  if (bookkeeping.has(`${item.kind}/${meta.name}`)) return true;
  return isOursToDelete(item, self, inventory);
}

/** Returns whether deleting the object (with its Namespace or CRD) is ours to do: owned by another object, or ours and not kept by annotation. */
export function isOursToDelete(item: KubeObject, self: OwnerIdentity, inventory: Inventory): boolean {
  const meta = item.metadata;
  if (Array.isArray(meta['ownerReferences']) && meta['ownerReferences'].length > 0) return true;
  const ref = {
    apiVersion: item.apiVersion,
    kind: item.kind,
    namespace: meta.namespace ?? '',
    name: meta.name,
  };
  return (
    ownershipOf(meta.labels, self, inventory.has(refKey(ref))).type === 'ours' &&
    meta.annotations?.[pruneAnnotation] !== 'disabled' &&
    meta.annotations?.[preserveAnnotation] !== 'true'
  );
}
