// Watch events from a real API server, in order: how gitfleet's agent notices drift.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api, Watch, type V1ConfigMap } from '@kubernetes/client-node';
import { inNamespace, testKubeConfig } from './test-clusters.js';

interface Seen {
  type: string;
  value: string | undefined;
}

test('a watch on ConfigMaps reports ADDED, MODIFIED and DELETED in order', async () => {
  const kc = testKubeConfig();
  const core = kc.makeApiClient(CoreV1Api);
  await inNamespace(kc, 'watch', async (ns) => {
    // Watching from the list's resourceVersion loses nothing that happens after the list.
    const list = await core.listNamespacedConfigMap({ namespace: ns });
    const seen: Seen[] = [];
    let finished: (err?: Error) => void = () => undefined;
    const allSeen = new Promise<void>((resolve, reject) => {
      finished = (err) => (err === undefined ? resolve() : reject(err));
    });
    const timer = setTimeout(() => finished(new Error(`timed out; saw ${JSON.stringify(seen)}`)), 60_000);
    const controller = await new Watch(kc).watch(
      `/api/v1/namespaces/${ns}/configmaps`,
      { resourceVersion: list.metadata?.resourceVersion, fieldSelector: 'metadata.name=settings' },
      (type: string, obj: V1ConfigMap) => {
        seen.push({ type, value: obj.data?.['mode'] });
        if (type === 'DELETED') finished();
      },
      (err: unknown) => {
        if (err instanceof Error && err.name !== 'AbortError') finished(err);
      },
    );
    try {
      await core.createNamespacedConfigMap({
        namespace: ns,
        body: { metadata: { name: 'settings' }, data: { mode: 'a' } },
      });
      await core.replaceNamespacedConfigMap({
        name: 'settings',
        namespace: ns,
        body: { metadata: { name: 'settings' }, data: { mode: 'b' } },
      });
      await core.deleteNamespacedConfigMap({ name: 'settings', namespace: ns });
      await allSeen;
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
    assert.deepEqual(seen, [
      { type: 'ADDED', value: 'a' },
      { type: 'MODIFIED', value: 'b' },
      { type: 'DELETED', value: 'b' },
    ]);
  });
});
