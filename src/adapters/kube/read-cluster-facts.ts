// The cluster's own status, as Karmada's cluster status controller collects it
// (pkg/controllers/status/cluster_status_controller.go): the Ready condition from /readyz (or
// /healthz when /readyz is not served), the Kubernetes version, API enablements from discovery,
// the node summary and the resource summary (summarize-resources.ts), left out when the agent
// may not list nodes and pods.
import type { ClusterStatus } from '../../core/model/cluster.js';
import type { KubeObject } from '../../core/model/kube-object.js';
import type { KubeClient } from './kube-client.js';
import { KubeApiError, refusalOf } from './kube-error.js';
import { summarizeNodes, summarizeResources } from './summarize-resources.js';

const nodeKind = { apiVersion: 'v1', kind: 'Node' };
const podKind = { apiVersion: 'v1', kind: 'Pod' };

/** Returns the cluster's status; a cluster that does not answer is reported NotReady, not thrown. */
export async function readClusterFacts(client: KubeClient): Promise<ClusterStatus> {
  const health = await readHealth(client);
  if (health !== 200) return { conditions: [readyCondition(health)] };
  const [version, apiEnablements, nodes, pods] = await Promise.all([
    readVersion(client),
    client.discovery.refresh().then(() => client.discovery.enablements()),
    listUnlessForbidden(client, nodeKind),
    listUnlessForbidden(client, podKind),
  ]);
  return {
    kubernetesVersion: version,
    apiEnablements,
    conditions: [readyCondition(200)],
    ...(nodes ? { nodeSummary: summarizeNodes(nodes) } : {}),
    ...(nodes && pods ? { resourceSummary: summarizeResources(nodes, pods) } : {}),
  };
}

/**
 * Returns every object of a kind, or undefined when the agent may not list it: a tenant agent
 * (deploy/agent-namespaced) sees no nodes or pods across namespaces, and its cluster is reported
 * without the summaries rather than not at all.
 */
async function listUnlessForbidden(
  client: KubeClient,
  kind: { apiVersion: string; kind: string },
): Promise<KubeObject[] | undefined> {
  try {
    return (await client.list(kind)).items;
  } catch (error) {
    if (error instanceof KubeApiError && error.refusal.code === 403) return undefined;
    throw error;
  }
}

/** Returns the HTTP status of /readyz (falling back to /healthz on 404), 0 when there is no answer. */
async function readHealth(client: KubeClient): Promise<number> {
  try {
    const ready = await client.send({
      method: 'GET',
      path: '/readyz',
      accept: 'text/plain',
      timeoutMs: 10_000,
    });
    if (ready.status !== 404) return ready.status;
    return (await client.send({ method: 'GET', path: '/healthz', accept: 'text/plain', timeoutMs: 10_000 }))
      .status;
  } catch {
    return 0;
  }
}

async function readVersion(client: KubeClient): Promise<string> {
  const answer = await client.send({ method: 'GET', path: '/version' });
  if (answer.status !== 200) throw new KubeApiError('GET /version', refusalOf(answer.status, answer.body));
  return (JSON.parse(answer.body) as { gitVersion?: string }).gitVersion ?? '';
}

/** Karmada's Ready condition: reasons ClusterReady, ClusterNotReady (unhealthy), ClusterNotReachable. */
function readyCondition(status: number): NonNullable<ClusterStatus['conditions']>[number] {
  if (status === 0) {
    return {
      type: 'Ready',
      status: 'False',
      reason: 'ClusterNotReachable',
      message: 'cluster is not reachable',
    };
  }
  if (status !== 200) {
    return {
      type: 'Ready',
      status: 'False',
      reason: 'ClusterNotReady',
      message: 'cluster is reachable but health endpoint responded without ok',
    };
  }
  return {
    type: 'Ready',
    status: 'True',
    reason: 'ClusterReady',
    message: 'cluster is healthy and ready to accept workloads',
  };
}
