// The manifest the agent sends: the hub's manifest as written, plus the ownership marker (the
// cluster and the fleet whose agent applies it, ownership.ts).
import { deepCopy, type KubeObject } from '../model/kube-object.js';
import { clusterLabel, fleetLabel } from './agent-keys.js';
import type { OwnerIdentity } from './ownership.js';

/** Returns a copy of the manifest labelled as applied by the agent of `self.cluster` in fleet `self.fleet`. */
export function markOwned(manifest: KubeObject, self: OwnerIdentity): KubeObject {
  const copy = deepCopy(manifest);
  copy.metadata.labels = { ...copy.metadata.labels, [clusterLabel]: self.cluster, [fleetLabel]: self.fleet };
  return copy;
}
