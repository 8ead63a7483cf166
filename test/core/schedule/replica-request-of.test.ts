import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import { replicaRequestOf, type ReplicaRequest } from '../../../src/core/schedule/replica-request-of.js';
import { aConfigMap, aDeployment } from '../builders.js';

function withPodSpec(kind: string, apiVersion: string, podSpec: Record<string, unknown>): KubeObject {
  const spec = kind === 'Pod' ? podSpec : { replicas: 1, template: { spec: podSpec } };
  return { apiVersion, kind, metadata: { name: 'w', namespace: 'default' }, spec };
}

function container(resources: Record<string, unknown>): Record<string, unknown> {
  return { name: 'c', image: 'nginx', resources };
}

const cases: { name: string; given: KubeObject; want: ReplicaRequest | undefined }[] = [
  {
    name: 'A Deployment requesting CPU and memory gives both per replica.',
    given: withPodSpec('Deployment', 'apps/v1', {
      containers: [container({ requests: { cpu: '250m', memory: '128Mi' } })],
    }),
    want: { cpuMilli: 250, memoryBytes: 134217728, pods: 1 },
  },
  {
    name: 'Limits stand in for requests that are left out.',
    given: withPodSpec('Deployment', 'apps/v1', {
      containers: [container({ limits: { cpu: '1', memory: '1G' }, requests: { cpu: '500m' } })],
    }),
    want: { cpuMilli: 500, memoryBytes: 1000000000, pods: 1 },
  },
  {
    name: 'Containers are summed.',
    given: withPodSpec('StatefulSet', 'apps/v1', {
      containers: [
        container({ requests: { cpu: '1.5' } }),
        container({ requests: { cpu: '1000m', memory: '1Ki' } }),
      ],
    }),
    want: { cpuMilli: 2500, memoryBytes: 1024, pods: 1 },
  },
  {
    name: 'An init container larger than the sum of the containers decides that resource.',
    given: withPodSpec('Job', 'batch/v1', {
      containers: [container({ requests: { cpu: '100m', memory: '64Mi' } })],
      initContainers: [container({ requests: { cpu: '2' } }), container({ requests: { cpu: '300m' } })],
    }),
    want: { cpuMilli: 2000, memoryBytes: 67108864, pods: 1 },
  },
  {
    name: 'Pod overhead is added.',
    given: withPodSpec('ReplicaSet', 'apps/v1', {
      containers: [container({ requests: { cpu: '100m' } })],
      overhead: { cpu: '50m', memory: '10Mi' },
    }),
    want: { cpuMilli: 150, memoryBytes: 10485760, pods: 1 },
  },
  {
    name: 'A Pod reads its own spec.',
    given: withPodSpec('Pod', 'v1', { containers: [container({ requests: { cpu: 2, memory: '1.5Gi' } })] }),
    want: { cpuMilli: 2000, memoryBytes: 1610612736, pods: 1 },
  },
  {
    name: 'A DaemonSet reads its pod template.',
    given: withPodSpec('DaemonSet', 'apps/v1', { containers: [container({ requests: { cpu: '10m' } })] }),
    want: { cpuMilli: 10, memoryBytes: 0, pods: 1 },
  },
  {
    name: 'A workload without any resources requests zero.',
    given: aDeployment('nginx'),
    want: { cpuMilli: 0, memoryBytes: 0, pods: 1 },
  },
  { name: 'A ConfigMap has no pod template.', given: aConfigMap('conf'), want: undefined },
  {
    name: 'A custom resource named Deployment outside the apps group is not a workload.',
    given: withPodSpec('Deployment', 'example.com/v1', {
      containers: [container({ requests: { cpu: '1' } })],
    }),
    want: undefined,
  },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    assert.deepEqual(replicaRequestOf(given), want);
  });
}
