// The one simulated Node of a cluster. kwok adopts it (by annotation), reports it Ready and keeps
// its lease fresh, and plays the lifecycle of the Pods scheduled to it, so Deployments become
// ready without a kubelet or a container runtime. No taint: ordinary workloads land on it.
import { apiRequest, type ApiTarget } from './api-request.js';
import { kwokNodeAnnotation } from './component-args.js';
import { waitFor, type WaitResult } from './wait-for.js';

/** The name of the simulated Node in every cluster. */
export const fakeNodeName = 'kwok-node-0';

/** Returns the Node manifest kwok will manage. */
export function fakeNode(): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: fakeNodeName,
      annotations: { [kwokNodeAnnotation]: 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
      labels: {
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/os': 'linux',
        'kubernetes.io/hostname': fakeNodeName,
        type: 'kwok',
      },
    },
    status: {
      allocatable: { cpu: '32', memory: '256Gi', pods: '110' },
      capacity: { cpu: '32', memory: '256Gi', pods: '110' },
    },
  };
}

function readyStatus(body: string): string {
  const node = JSON.parse(body) as { status?: { conditions?: { type: string; status: string }[] } };
  return node.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? 'no Ready condition';
}

/** Creates the simulated Node and returns once kwok reports it Ready (or the wait's failure). */
export async function createFakeNode(target: ApiTarget, timeoutMs: number): Promise<WaitResult> {
  const created = await apiRequest(target, { method: 'POST', path: '/api/v1/nodes', body: fakeNode() });
  if (created.status !== 201 && created.status !== 409) {
    return {
      type: 'GaveUp',
      reason: `creating Node ${fakeNodeName}: HTTP ${created.status} ${created.body}`,
    };
  }
  return waitFor(
    async () => {
      const got = await apiRequest(target, { method: 'GET', path: `/api/v1/nodes/${fakeNodeName}` });
      if (got.status !== 200) return { type: 'NotYet', note: `HTTP ${got.status}` };
      const ready = readyStatus(got.body);
      return ready === 'True' ? { type: 'Done' } : { type: 'NotYet', note: `Ready=${ready}` };
    },
    { timeoutMs, intervalMs: 500 },
  );
}
