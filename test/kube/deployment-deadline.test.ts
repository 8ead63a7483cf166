// The deployment controller's transient ProgressDeadlineExceeded after a revert (issue #27 point
// 6), on a real API server with kube-controller-manager and kwok: a Deployment stalls (a
// nodeSelector no Node has) for longer than the good spec's 10 s deadline, then goes back to the
// good spec. Every version of the Deployment is watched. The controller reports the deadline
// exceeded for the reverted generation (its Progressing condition is from the stall) before it
// finds the old ReplicaSet complete: healthOf without the apply's time says Degraded for it, and
// with the time of the apply (what the agent remembers) never does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppsV1Api, Watch, type V1Deployment } from '@kubernetes/client-node';
import { healthOf } from '../../src/core/health/health-of.js';
import type { KubeObject } from '../../src/core/model/kube-object.js';
import {
  clustersHaveControllers,
  clustersHaveKwok,
  eventually,
  inNamespace,
  testKubeConfig,
} from './test-clusters.js';

const skip = !clustersHaveControllers()
  ? 'the test clusters run without controllers'
  : !clustersHaveKwok()
    ? 'kwok is not built, so no Node can run Pods'
    : false;

function web(opts: { image: string; deadline: number; nodeSelector?: Record<string, string> }): V1Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      replicas: 1,
      progressDeadlineSeconds: opts.deadline,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          ...(opts.nodeSelector ? { nodeSelector: opts.nodeSelector } : {}),
          containers: [{ name: 'web', image: opts.image }],
        },
      },
    },
  };
}

const good = web({ image: 'registry.invalid/web:2', deadline: 10 });
const stalled = web({ image: 'registry.invalid/web:3', deadline: 600, nodeSelector: { 'no-such': 'node' } });

const asObject = (d: V1Deployment) => d as unknown as KubeObject;

function progressing(d: V1Deployment) {
  return d.status?.conditions?.find((c) => c.type === 'Progressing');
}

test(
  "after a stall, a revert's inherited deadline is Degraded by the condition alone and never as of after the apply",
  { skip, timeout: 240_000 },
  async () => {
    const kc = testKubeConfig();
    const apps = kc.makeApiClient(AppsV1Api);
    await inNamespace(kc, 'deadline', async (ns) => {
      await apps.createNamespacedDeployment({ namespace: ns, body: good });
      await eventually('web available', async () => {
        const d = await apps.readNamespacedDeployment({ name: 'web', namespace: ns });
        return healthOf(asObject(d)).status === 'Healthy' ? d : undefined;
      });
      await apps.replaceNamespacedDeployment({ name: 'web', namespace: ns, body: stalled });
      // The stall lasts longer than the good spec's deadline (a real controller's clock).
      await eventually(
        'the stalled rollout progressing since more than 12 s',
        async () => {
          const d = await apps.readNamespacedDeployment({ name: 'web', namespace: ns });
          const since = progressing(d)?.lastUpdateTime;
          const stale = since && Date.now() - new Date(since).getTime() > 12_000;
          return stale && d.status?.observedGeneration === d.metadata?.generation ? d : undefined;
        },
        60_000,
      );
      const seen: V1Deployment[] = [];
      const watch = await new Watch(kc).watch(
        `/apis/apps/v1/namespaces/${ns}/deployments`,
        { fieldSelector: 'metadata.name=web' },
        (_type: string, obj: V1Deployment) => void seen.push(obj),
        () => undefined,
      );
      try {
        const reverted = await apps.replaceNamespacedDeployment({ name: 'web', namespace: ns, body: good });
        const specApplied = { generation: reverted.metadata!.generation!, atMs: Date.now() };
        await eventually(
          'the revert complete',
          async () => {
            const last = seen.at(-1);
            const done =
              last?.metadata?.generation === specApplied.generation &&
              last.status?.observedGeneration === specApplied.generation &&
              healthOf(asObject(last)).status === 'Healthy';
            return done ? true : undefined;
          },
          120_000,
        );
        const ofRevert = seen.filter((d) => d.metadata?.generation === specApplied.generation);
        const byCondition = ofRevert.filter((d) => healthOf(asObject(d)).status === 'Degraded');
        const asOfApply = ofRevert.filter(
          (d) => healthOf(asObject(d), undefined, { specApplied }).status === 'Degraded',
        );
        const conditions = ofRevert.map((d) => `${progressing(d)?.reason}@${progressing(d)?.lastUpdateTime}`);
        assert.ok(
          byCondition.length > 0,
          `the controller reported the inherited deadline for the reverted generation: ${conditions.join(', ')}`,
        );
        assert.equal(asOfApply.length, 0, `never Degraded as of after the apply: ${conditions.join(', ')}`);
      } finally {
        watch.abort();
      }
    });
  },
);
