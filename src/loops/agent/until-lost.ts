// Stopping an agent pass once its Lease is lost (docs/production.md#one-agent-per-cluster).
// The loop hands the pass an AbortSignal that aborts the moment the agent notices another agent
// holds its cluster's Lease (or its renewal is overdue). From then on the pass sends nothing:
// every request to the cluster checks the signal first and throws NotLeading instead of going
// out, and the pass checks it at its own boundaries (each object, prune, the status write), so
// it ends at the next one without writing status. Requests already on the wire when the loss is
// noticed still land: with the defaults the agent stops leading 5 s before a standby may take
// the Lease, which covers them.
import { NotLeading } from '../runtime/while-leading.js';
import type { ClusterApi } from './cluster-api.js';

/** Throws NotLeading, naming the cluster and what was not done, once `signal` has aborted. */
export function stopIfLost(signal: AbortSignal | undefined, cluster: string, what: string): void {
  if (signal?.aborted)
    throw new NotLeading(
      `agent ${cluster}: lost its Lease during the pass (another agent holds it, or its renewal is overdue): ${what}`,
    );
}

/** Returns `client` with every request refused (NotLeading, not sent) once `signal` has aborted. */
export function untilLost(client: ClusterApi, signal: AbortSignal, cluster: string): ClusterApi {
  const check = (verb: string) => stopIfLost(signal, cluster, `${verb} not sent; the pass stopped there`);
  const guarded: ClusterApi = {
    get: async (ref) => (check('get'), client.get(ref)),
    list: async (kind, opts) => (check('list'), client.list(kind, opts)),
    apply: async (manifest, opts) => (check('apply'), client.apply(manifest, opts)),
    mergePatch: async (ref, patch) => (check('patch'), client.mergePatch(ref, patch)),
    delete: async (ref, opts) => (check('delete'), client.delete(ref, opts)),
    collectionVersion: async (kind, opts) => (check('list'), client.collectionVersion(kind, opts)),
    watch: async (kind, opts) => (check('watch'), client.watch(kind, opts)),
    served: async () => (check('discovery'), client.served()),
    refreshDiscovery: async () => (check('discovery'), client.refreshDiscovery()),
    readFacts: async () => (check('cluster facts read'), client.readFacts()),
    requestCounts: () => client.requestCounts(),
  };
  const review = client.reviewAccess?.bind(client);
  if (review) guarded.reviewAccess = async (questions) => (check('access review'), review(questions));
  return guarded;
}
