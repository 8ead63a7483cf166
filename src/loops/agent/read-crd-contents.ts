// What custom resources of a CRD's kind exist that the agent does not own, read before the agent
// deletes the CRD: the API server deletes every custom resource of a CRD's kind with it, in every
// namespace, so a CRD the agent applied is pruned only when nothing of its kind belongs to anyone
// else (plan-prune.ts), as a Namespace is (read-namespace-contents.ts). One metadata-only list,
// over all namespaces, at a version the CRD serves.
import type { Inventory } from '../../core/apply-plan/inventory.js';
import type { OwnerIdentity } from '../../core/apply-plan/ownership.js';
import { getPath, type KubeObject } from '../../core/model/kube-object.js';
import { KubeApiError } from '../../adapters/kube/kube-error.js';
import type { ClusterApi } from './cluster-api.js';
import { isOursToDelete } from './read-namespace-contents.js';

/** Returns the custom resources of the live CRD's kind the agent does not own (`Kind/namespace/name`, sorted), or why they could not be listed. */
export async function readCrdContents(opts: {
  client: ClusterApi;
  crd: KubeObject;
  self: OwnerIdentity;
  inventory: Inventory;
}): Promise<{ foreign: string[] } | { unknown: string }> {
  const group = getPath(opts.crd, ['spec', 'group']);
  const kind = getPath(opts.crd, ['spec', 'names', 'kind']);
  const version = servedVersion(opts.crd);
  if (typeof group !== 'string' || typeof kind !== 'string' || version === undefined)
    return { unknown: 'its spec names no group, kind or served version' };
  try {
    const { items } = await opts.client.list(
      { apiVersion: `${group}/${version}`, kind },
      { metadataOnly: true },
    );
    const foreign = items
      .filter(
        (item) =>
          !isOursToDelete({ ...item, apiVersion: `${group}/${version}`, kind }, opts.self, opts.inventory),
      )
      .map(
        (item) =>
          `${kind}/${item.metadata.namespace ? `${item.metadata.namespace}/` : ''}${item.metadata.name}`,
      );
    return { foreign: foreign.sort() };
  } catch (error) {
    // Not served (never established, or no longer): no custom resource of its kind can exist.
    if (error instanceof KubeApiError && error.refusal.code === 404) return { foreign: [] };
    return { unknown: `${kind}: ${(error as Error).message}` };
  }
}

/** Returns the storage version when it is served, else the first served version. */
function servedVersion(crd: KubeObject): string | undefined {
  const versions = getPath(crd, ['spec', 'versions']);
  if (!Array.isArray(versions)) return undefined;
  const served = versions.filter((v) => getPath(v, ['served']) === true);
  const pick = served.find((v) => getPath(v, ['storage']) === true) ?? served[0];
  const name = getPath(pick, ['name']);
  return typeof name === 'string' ? name : undefined;
}
