// A CustomResourceDefinition applied, waited for until Established, then an object of it: the
// order gitfleet's agent applies CRDs and their custom resources in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ApiextensionsV1Api,
  KubernetesObjectApi,
  PatchStrategy,
  type KubernetesObject,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { eventually, inNamespace, testKubeConfig, uniqueName } from './test-clusters.js';
import { aWidgetCrd } from '../support/kube-objects.js';

/** The Widget CRD with a schema the server checks (size at least 1) and defaults (color). */
function widgetCrd(group: string): V1CustomResourceDefinition {
  return aWidgetCrd(group, {
    type: 'object',
    // The client's typed model spells `default` as `_default` and renames it on the wire.
    properties: {
      size: { type: 'integer', minimum: 1 },
      color: { type: 'string', _default: 'blue' },
    },
  }) as unknown as V1CustomResourceDefinition;
}

function isEstablished(crd: V1CustomResourceDefinition): boolean {
  return (crd.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
}

test('a custom resource can be created and read once its applied CRD is Established', async () => {
  const kc = testKubeConfig();
  const client = KubernetesObjectApi.makeApiClient(kc);
  const crds = kc.makeApiClient(ApiextensionsV1Api);
  // A group of its own per run, so reruns against long-lived clusters never collide.
  const group = `${uniqueName('t')}.gitfleet.example`;
  const crd = widgetCrd(group);
  await client.patch(crd, undefined, undefined, 'gitfleet-test', false, PatchStrategy.ServerSideApply);
  try {
    await eventually(`CRD widgets.${group} Established`, async () => {
      const live = await crds.readCustomResourceDefinition({ name: `widgets.${group}` });
      return isEstablished(live) ? live : undefined;
    });
    await inNamespace(kc, 'crd', async (ns) => {
      const apiVersion = `${group}/v1`;
      const widget = {
        apiVersion,
        kind: 'Widget',
        metadata: { name: 'w1', namespace: ns },
        spec: { size: 3 },
      };
      await client.create(widget);
      const read = (await client.read({
        apiVersion,
        kind: 'Widget',
        metadata: { name: 'w1', namespace: ns },
      })) as KubernetesObject & { spec?: { size?: number; color?: string } };
      assert.equal(read.spec?.size, 3);
      assert.equal(read.spec?.color, 'blue', 'the structural schema default is applied');
      assert.ok(read.metadata?.uid);
    });
  } finally {
    await crds.deleteCustomResourceDefinition({ name: `widgets.${group}` }).catch(() => undefined);
  }
});

test('a custom resource that violates its CRD schema is refused with 422', async () => {
  const kc = testKubeConfig();
  const client = KubernetesObjectApi.makeApiClient(kc);
  const crds = kc.makeApiClient(ApiextensionsV1Api);
  const group = `${uniqueName('t')}.gitfleet.example`;
  await client.patch(
    widgetCrd(group),
    undefined,
    undefined,
    'gitfleet-test',
    false,
    PatchStrategy.ServerSideApply,
  );
  try {
    await eventually(`CRD widgets.${group} Established`, async () =>
      isEstablished(await crds.readCustomResourceDefinition({ name: `widgets.${group}` })) ? true : undefined,
    );
    await inNamespace(kc, 'crd-invalid', async (ns) => {
      const bad = {
        apiVersion: `${group}/v1`,
        kind: 'Widget',
        metadata: { name: 'w0', namespace: ns },
        spec: { size: 0 },
      };
      await assert.rejects(client.create(bad), (err: { code?: number }) => err.code === 422);
    });
  } finally {
    await crds.deleteCustomResourceDefinition({ name: `widgets.${group}` }).catch(() => undefined);
  }
});
