// The kube adapter's server-side apply against a real API server, as the agent sends it:
// fieldValidation=Ignore (kube-client.ts says why) still gets a field the schema does not
// know refused by name, and HTTP/2 (the default) and HTTP/1.1 store the same object.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeClient } from '../../src/adapters/kube/kube-client.js';
import type { KubeObject } from '../../src/core/model/kube-object.js';
import { inNamespace, testKubeConfig } from './test-clusters.js';

function aDeployment(namespace: string, container: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'web', image: 'registry.invalid/web:1', ...container }] },
      },
    },
  };
}

test('an applied field the schema does not declare is refused by name, as under Strict validation', async (t) => {
  const client = KubeClient.fromKubeConfig(testKubeConfig());
  t.after(() => client.close());
  await inNamespace(testKubeConfig(), 'apply-unknown', async (ns) => {
    const manifest = aDeployment(ns, { imagePullPolicyy: 'Always' });
    const nested = await client.apply(manifest, { force: true });
    assert.equal(nested.type, 'refused');
    if (nested.type !== 'refused') return;
    assert.match(
      nested.refusal.message,
      /containers\[name="web"\]\.imagePullPolicyy: field not declared in schema/,
    );
    // What kubectl's fieldValidation=Strict gets for the same body: the same refusal.
    const strict = await client.send({
      method: 'PATCH',
      path: `/apis/apps/v1/namespaces/${ns}/deployments/web`,
      query: { fieldManager: 'gitfleet', fieldValidation: 'Strict', force: 'true' },
      body: JSON.stringify(manifest),
      contentType: 'application/apply-patch+yaml',
    });
    assert.equal(strict.status, nested.refusal.code);
    assert.equal((JSON.parse(strict.body) as { message: string }).message, nested.refusal.message);
    assert.equal(
      await client.get({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: ns, name: 'web' }),
      undefined,
    );

    const topLevel = await client.apply(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: ns }, spec: { a: 1 } },
      { force: true, dryRun: true },
    );
    assert.equal(topLevel.type, 'refused');
    if (topLevel.type === 'refused')
      assert.match(topLevel.refusal.message, /\.spec: field not declared in schema/);
  });
});

test('an apply over HTTP/2 and one over HTTP/1.1 store the same object and answer with it', async (t) => {
  const h2 = KubeClient.fromKubeConfig(testKubeConfig());
  const h1 = KubeClient.fromKubeConfig(testKubeConfig(), { http2: false });
  t.after(() => {
    h2.close();
    h1.close();
  });
  await inNamespace(testKubeConfig(), 'apply-wire', async (ns) => {
    const sent = (name: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: ns, labels: { app: 'web' } },
      data: { mode: 'a', text: 'ü'.repeat(100) },
    });
    const [over2, over1] = await Promise.all([
      h2.apply(sent('two'), { force: true }),
      h1.apply(sent('one'), { force: true }),
    ]);
    assert.equal(h2.http.protocol(), 'h2');
    assert.equal(h1.http.protocol(), 'http/1.1');
    for (const [name, result] of [
      ['two', over2],
      ['one', over1],
    ] as const) {
      assert.equal(result.type, 'ok', name);
      if (result.type !== 'ok') continue;
      const live = await h1.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: ns, name });
      assert.deepEqual(result.live.data, sent(name).data);
      assert.deepEqual(live?.data, sent(name).data);
      assert.equal(live?.metadata.resourceVersion, result.live.metadata.resourceVersion);
      // The stored object names the field manager; the write's answer comes without managedFields.
      const managers = live?.metadata['managedFields'] as { manager?: string }[] | undefined;
      assert.deepEqual(
        managers?.map((m) => m.manager),
        ['gitfleet'],
      );
      assert.equal(result.live.metadata['managedFields'], undefined);
    }
  });
});
