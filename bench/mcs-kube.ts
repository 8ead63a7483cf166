// What the multi-cluster services benchmarks ask of the test clusters, over the harness's small
// HTTPS client (no kubectl process per call: the churn deletes a Pod every second, the latency
// benchmark polls every 100 ms): the Pods of a namespace, deleting one, and the ready endpoints
// of a Service's EndpointSlices.
import { apiRequest, type ApiTarget } from '../test/clusters/harness/api-request.js';
import { metricsTargetFromKubeconfig } from './lib/count-mutating-requests.js';

/** Returns how to call the API server of a kubeconfig context. */
export function apiTargetOf(kubeconfig: string, context: string): ApiTarget {
  return metricsTargetFromKubeconfig(kubeconfig, context);
}

interface PodList {
  items: { metadata: { name: string; deletionTimestamp?: string }; status?: { phase?: string } }[];
}

/** Returns the names of the namespace's running Pods that are not being deleted. */
export async function runningPods(target: ApiTarget, namespace: string): Promise<string[]> {
  const got = await apiRequest(target, { method: 'GET', path: `/api/v1/namespaces/${namespace}/pods` });
  if (got.status !== 200)
    throw new Error(`${target.server}: listing Pods of ${namespace}: HTTP ${got.status} ${got.body}`);
  return (JSON.parse(got.body) as PodList).items
    .filter((p) => p.metadata.deletionTimestamp === undefined && p.status?.phase === 'Running')
    .map((p) => p.metadata.name);
}

/**
 * Deletes the Pod as `kubectl delete pod` does (its grace period): the endpointslice controller
 * sees it terminating, kwok's pod-delete stage finishes it, the ReplicaSet makes a new one and
 * kwok marks that ready. Returns false when it was gone already.
 */
export async function deletePod(target: ApiTarget, namespace: string, name: string): Promise<boolean> {
  const got = await apiRequest(target, {
    method: 'DELETE',
    path: `/api/v1/namespaces/${namespace}/pods/${name}`,
  });
  if (got.status === 404) return false;
  if (got.status !== 200 && got.status !== 202)
    throw new Error(`${target.server}: deleting Pod ${namespace}/${name}: HTTP ${got.status} ${got.body}`);
  return true;
}

interface SliceList {
  items: { endpoints?: { addresses: string[]; conditions?: { ready?: boolean } }[] }[];
}

/** Returns the ready endpoints (ready not false, as kube-proxy counts them) of the Service's slices. */
export async function readyEndpoints(target: ApiTarget, namespace: string, service: string): Promise<number> {
  const selector = encodeURIComponent(`kubernetes.io/service-name=${service}`);
  const got = await apiRequest(target, {
    method: 'GET',
    path: `/apis/discovery.k8s.io/v1/namespaces/${namespace}/endpointslices?labelSelector=${selector}`,
  });
  if (got.status === 404) return 0;
  if (got.status !== 200)
    throw new Error(
      `${target.server}: listing EndpointSlices of ${namespace}/${service}: HTTP ${got.status}`,
    );
  return (JSON.parse(got.body) as SliceList).items
    .flatMap((s) => s.endpoints ?? [])
    .filter((e) => e.conditions?.ready !== false).length;
}
