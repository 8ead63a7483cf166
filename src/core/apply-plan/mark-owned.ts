// The manifest the agent sends: the hub's manifest as written, plus the ownership marker.
import { deepCopy, type KubeObject } from '../model/kube-object.js';
import { clusterLabel } from './agent-keys.js';

/** Returns a copy of the manifest labelled as applied by the agent of `cluster`. */
export function markOwned(manifest: KubeObject, cluster: string): KubeObject {
  const copy = deepCopy(manifest);
  copy.metadata.labels = { ...copy.metadata.labels, [clusterLabel]: cluster };
  return copy;
}
