// The agent's cluster interface (cluster-api.ts) over the kube adapter: the client's own verbs,
// its discovery, the watch, the cluster facts and the access reviews, each passed straight through.
import type { KubeClient } from '../../adapters/kube/kube-client.js';
import { reviewAccess } from '../../adapters/kube/access-review.js';
import { readClusterFacts } from '../../adapters/kube/read-cluster-facts.js';
import { collectionVersion, watchObjects } from '../../adapters/kube/watch-objects.js';
import type { ClusterApi } from './cluster-api.js';

/** A pass's access reviews: a few at a time, none waited on for long (a review is a small request). */
const reviewOptions = { concurrency: 8, timeoutMs: 10_000 };

/** Returns the cluster interface of a kube client; closing the client stays the caller's. */
export function kubeClusterApi(client: KubeClient): ClusterApi {
  return {
    get: (ref) => client.get(ref),
    list: (kind, opts) => client.list(kind, opts),
    apply: (manifest, opts) => client.apply(manifest, opts),
    mergePatch: (ref, patch) => client.mergePatch(ref, patch),
    delete: (ref, opts) => client.delete(ref, opts),
    collectionVersion: (kind, opts) => collectionVersion(client, kind, opts.labelSelector),
    watch: (kind, opts) => watchObjects(client, kind, opts),
    served: () => client.discovery.served(),
    refreshDiscovery: () => client.discovery.refresh(),
    readFacts: () => readClusterFacts(client),
    requestCounts: () => client.requestCounts(),
    reviewAccess: (questions) => reviewAccess(client, questions, reviewOptions),
  };
}
