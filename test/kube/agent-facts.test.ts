// The cluster's own status as the agent reports it: Karmada's node and resource summaries from
// Nodes and Pods (a table of fixtures), and the facts read from a real API server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeClient } from '../../src/adapters/kube/kube-client.js';
import { readClusterFacts } from '../../src/adapters/kube/read-cluster-facts.js';
import { summarizeNodes, summarizeResources } from '../../src/adapters/kube/summarize-resources.js';
import { clustersHaveKwok, testKubeConfig } from './test-clusters.js';

const node = (ready: string, allocatable: Record<string, string>) => ({
  status: { allocatable, conditions: [{ type: 'Ready', status: ready }] },
});
const pod = (
  nodeName: string | undefined,
  phase: string,
  containers: Record<string, string>[],
  init: Record<string, string>[] = [],
) => ({
  spec: {
    ...(nodeName ? { nodeName } : {}),
    containers: containers.map((requests) => ({ resources: { requests } })),
    initContainers: init.map((requests) => ({ resources: { requests } })),
  },
  status: { phase },
});

test('nodes are counted, ready ones apart', () => {
  assert.deepEqual(summarizeNodes([node('True', {}), node('False', {}), node('Unknown', {})]), {
    totalNum: 3,
    readyNum: 1,
  });
});

test("resources are summed as Karmada's cluster status controller sums them", () => {
  const cases = [
    {
      name: 'allocatable is the sum over nodes, in Kubernetes units',
      given: {
        nodes: [
          node('True', { cpu: '4', memory: '8Gi', pods: '110' }),
          node('False', { cpu: '500m', memory: '1Gi', pods: '10' }),
        ],
        pods: [],
      },
      want: {
        allocatable: { cpu: '4500m', memory: '9Gi', pods: '120' },
        allocating: undefined,
        allocated: undefined,
      },
    },
    {
      name: 'bound running pods are allocated, unbound ones allocating, finished ones nothing',
      given: {
        nodes: [],
        pods: [
          pod('n1', 'Running', [{ cpu: '250m', memory: '64Mi' }, { cpu: '250m' }]),
          pod('n1', 'Succeeded', [{ cpu: '8' }]),
          pod(undefined, 'Pending', [{ cpu: '1' }]),
        ],
      },
      want: {
        allocatable: undefined,
        allocating: { cpu: '1', pods: '1' },
        allocated: { cpu: '500m', memory: '64Mi', pods: '1' },
      },
    },
    {
      name: "a pod's request is the larger of its containers' sum and its largest init container",
      given: {
        nodes: [],
        pods: [
          pod(
            'n1',
            'Running',
            [{ cpu: '100m' }, { cpu: '100m' }],
            [{ cpu: '1', memory: '1Gi' }, { cpu: '300m' }],
          ),
        ],
      },
      want: {
        allocatable: undefined,
        allocating: undefined,
        allocated: { cpu: '1', memory: '1Gi', pods: '1' },
      },
    },
  ];
  for (const c of cases) {
    const got = summarizeResources(c.given.nodes, c.given.pods);
    assert.deepEqual(
      { allocatable: got.allocatable, allocating: got.allocating, allocated: got.allocated },
      c.want,
      c.name,
    );
  }
});

test('the facts of a real cluster: Ready, its version, its APIs, its kwok node', async () => {
  const client = KubeClient.fromKubeConfig(testKubeConfig());
  try {
    const facts = await readClusterFacts(client);
    assert.deepEqual(facts.conditions?.[0], {
      type: 'Ready',
      status: 'True',
      reason: 'ClusterReady',
      message: 'cluster is healthy and ready to accept workloads',
    });
    assert.match(facts.kubernetesVersion ?? '', /^v1\.\d+\.\d+/);
    const apps = facts.apiEnablements?.find((e) => e.groupVersion === 'apps/v1');
    assert.ok(apps?.resources.some((r) => r.name === 'deployments' && r.kind === 'Deployment'));
    assert.ok(!apps?.resources.some((r) => r.name.includes('/')), 'no subresources');
    if (clustersHaveKwok()) {
      assert.ok((facts.nodeSummary?.readyNum ?? 0) >= 1);
      assert.ok(facts.resourceSummary?.allocatable?.['cpu']);
    }
  } finally {
    client.close();
  }
});
