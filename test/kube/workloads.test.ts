// Controllers at work: with kube-controller-manager and kube-scheduler a Deployment gets a
// ReplicaSet and Pods bound to a Node; with kwok simulating that Node the Pods become Ready, the
// Deployment reports readyReplicas, and a Service gets EndpointSlices. This is what health and
// status reporting in gitfleet is tested against.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppsV1Api, CoreV1Api, DiscoveryV1Api, type V1Deployment } from '@kubernetes/client-node';
import {
  clustersHaveControllers,
  clustersHaveKwok,
  eventually,
  inNamespace,
  testKubeConfig,
} from './test-clusters.js';

const noControllers = clustersHaveControllers() ? false : 'the test clusters run without controllers';
const noKwok = clustersHaveKwok() ? false : 'kwok is not built, so no Node can run Pods';

function aDeployment(replicas: number): V1Deployment {
  return {
    metadata: { name: 'shop' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'shop' } },
      template: {
        metadata: { labels: { app: 'shop' } },
        // Never pulled: kwok only plays the Pod's lifecycle.
        spec: {
          containers: [{ name: 'shop', image: 'registry.invalid/shop:1', ports: [{ containerPort: 8080 }] }],
        },
      },
    },
  };
}

test(
  'a Deployment gets a ReplicaSet owned by it and the Pods that ReplicaSet creates',
  { skip: noControllers },
  async () => {
    const kc = testKubeConfig();
    const apps = kc.makeApiClient(AppsV1Api);
    const core = kc.makeApiClient(CoreV1Api);
    await inNamespace(kc, 'rollout', async (ns) => {
      const deployment = await apps.createNamespacedDeployment({ namespace: ns, body: aDeployment(2) });
      const replicaSet = await eventually('a ReplicaSet of the Deployment', async () => {
        const list = await apps.listNamespacedReplicaSet({ namespace: ns });
        return list.items.find((rs) =>
          rs.metadata?.ownerReferences?.some((o) => o.uid === deployment.metadata?.uid),
        );
      });
      assert.equal(replicaSet.spec?.replicas, 2);
      const pods = await eventually('2 Pods of the ReplicaSet', async () => {
        const list = await core.listNamespacedPod({ namespace: ns });
        const owned = list.items.filter((p) =>
          p.metadata?.ownerReferences?.some((o) => o.uid === replicaSet.metadata?.uid),
        );
        return owned.length === 2 ? owned : undefined;
      });
      assert.equal(pods.length, 2);
    });
  },
);

test(
  'a Deployment on the kwok Node reaches readyReplicas and its Service gets ready endpoints',
  { skip: noControllers || noKwok },
  async () => {
    const kc = testKubeConfig();
    const apps = kc.makeApiClient(AppsV1Api);
    const core = kc.makeApiClient(CoreV1Api);
    await inNamespace(kc, 'ready', async (ns) => {
      await apps.createNamespacedDeployment({ namespace: ns, body: aDeployment(3) });
      await core.createNamespacedService({
        namespace: ns,
        body: {
          metadata: { name: 'shop' },
          spec: { selector: { app: 'shop' }, ports: [{ port: 80, targetPort: 8080 }] },
        },
      });
      const ready = await eventually('readyReplicas = 3', async () => {
        const live = await apps.readNamespacedDeployment({ name: 'shop', namespace: ns });
        return live.status?.readyReplicas === 3 ? live : undefined;
      });
      assert.equal(ready.status?.availableReplicas, 3);
      const pods = await core.listNamespacedPod({ namespace: ns });
      assert.ok(pods.items.every((p) => p.spec?.nodeName === 'kwok-node-0' && p.status?.phase === 'Running'));
      const discovery = kc.makeApiClient(DiscoveryV1Api);
      const endpoints = await eventually('3 ready endpoints for Service shop', async () => {
        const slices = await discovery.listNamespacedEndpointSlice({
          namespace: ns,
          labelSelector: 'kubernetes.io/service-name=shop',
        });
        const ready = slices.items.flatMap((s) => s.endpoints).filter((e) => e.conditions?.ready === true);
        return ready.length === 3 ? ready : undefined;
      });
      assert.equal(new Set(endpoints.flatMap((e) => e.addresses)).size, 3, 'each Pod has its own IP');
    });
  },
);
