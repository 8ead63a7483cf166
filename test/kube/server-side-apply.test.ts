// Server-side apply against a real kube-apiserver: field managers, managedFields, conflicts,
// defaulting and no-op re-applies: the behaviour gitfleet's agent is built on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ApiException,
  AppsV1Api,
  KubernetesObjectApi,
  PatchStrategy,
  type KubernetesObject,
  type V1Deployment,
} from '@kubernetes/client-node';
import { inNamespace, testKubeConfig } from './test-clusters.js';

function aDeployment(namespace: string, replicas: number): V1Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'web', image: 'registry.invalid/web:1' }] },
      },
    },
  };
}

function apply(client: KubernetesObjectApi, obj: KubernetesObject, manager: string, force = false) {
  return client.patch(obj, undefined, undefined, manager, force, PatchStrategy.ServerSideApply);
}

interface Status {
  reason?: string;
  details?: { causes?: { reason?: string; message?: string; field?: string }[] };
}

/** Returns the Status the API server answered with (the client hands its body over as text). */
function statusOf(body: unknown): Status {
  return (typeof body === 'string' ? JSON.parse(body) : body) as Status;
}

/**
 * Each field manager of an object with the fields it owns under `spec` (as JSON text): the
 * fields elsewhere are left out, since a running controller-manager owns `status.replicas`,
 * whose field set reads `"f:replicas"` too.
 */
function managersOf(obj: KubernetesObject): { manager: string; operation: string; fields: string }[] {
  return (obj.metadata?.managedFields ?? []).map((m) => ({
    manager: m.manager ?? '',
    operation: m.operation ?? '',
    fields: JSON.stringify((m.fieldsV1 as Record<string, unknown> | undefined)?.['f:spec'] ?? {}),
  }));
}

test('an applied Deployment is stored with server defaults and its field manager in managedFields', async () => {
  const kc = testKubeConfig();
  const client = KubernetesObjectApi.makeApiClient(kc);
  await inNamespace(kc, 'ssa-apply', async (ns) => {
    await apply(client, aDeployment(ns, 2), 'gitfleet-test');
    const live = await kc.makeApiClient(AppsV1Api).readNamespacedDeployment({ name: 'web', namespace: ns });
    assert.equal(live.spec?.replicas, 2);
    assert.equal(live.spec?.strategy?.type, 'RollingUpdate', 'the API server defaults the strategy');
    const applied = managersOf(live).filter((m) => m.operation === 'Apply');
    assert.deepEqual(
      applied.map((m) => m.manager),
      ['gitfleet-test'],
    );
    assert.match(applied[0]?.fields ?? '', /"f:replicas"/, 'the manager owns spec.replicas');
  });
});

test('re-applying the same manifest under the same manager writes nothing', async () => {
  const kc = testKubeConfig();
  const client = KubernetesObjectApi.makeApiClient(kc);
  await inNamespace(kc, 'ssa-noop', async (ns) => {
    // A ConfigMap, which no controller writes to, so any new resourceVersion would be ours.
    const settings = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: ns },
      data: { a: '1' },
    };
    const first = await apply(client, settings, 'gitfleet-test');
    const second = await apply(client, settings, 'gitfleet-test');
    assert.equal(second.metadata?.resourceVersion, first.metadata?.resourceVersion);
    // A Deployment's status is written by its controller, but its spec generation stays put.
    await apply(client, aDeployment(ns, 1), 'gitfleet-test');
    const again = await apply(client, aDeployment(ns, 1), 'gitfleet-test');
    assert.equal(again.metadata?.generation, 1);
  });
});

test('a second field manager applying a different value to an owned field is answered 409 Conflict', async () => {
  const kc = testKubeConfig();
  const client = KubernetesObjectApi.makeApiClient(kc);
  await inNamespace(kc, 'ssa-conflict', async (ns) => {
    await apply(client, aDeployment(ns, 2), 'gitfleet-test');
    const refused = await apply(client, aDeployment(ns, 3), 'someone-else').then(
      () => undefined,
      (err: unknown) => err,
    );
    assert.ok(refused instanceof ApiException, `expected an ApiException, got ${String(refused)}`);
    assert.equal(refused.code, 409);
    const status = statusOf(refused.body);
    assert.equal(status.reason, 'Conflict');
    assert.deepEqual(status.details?.causes, [
      { reason: 'FieldManagerConflict', message: 'conflict with "gitfleet-test"', field: '.spec.replicas' },
    ]);
    const live = await kc.makeApiClient(AppsV1Api).readNamespacedDeployment({ name: 'web', namespace: ns });
    assert.equal(live.spec?.replicas, 2, 'the refused apply changed nothing');
  });
});

test('a forced apply takes the conflicting field over from its previous manager', async () => {
  const kc = testKubeConfig();
  const client = KubernetesObjectApi.makeApiClient(kc);
  await inNamespace(kc, 'ssa-force', async (ns) => {
    await apply(client, aDeployment(ns, 2), 'gitfleet-test');
    const taken = await apply(client, aDeployment(ns, 3), 'someone-else', true);
    assert.equal((taken as V1Deployment).spec?.replicas, 3);
    const owners = managersOf(taken).filter((m) => m.fields.includes('"f:replicas"'));
    assert.deepEqual(
      owners.map((m) => m.manager),
      ['someone-else'],
    );
  });
});
