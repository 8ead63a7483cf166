// The member clusters are separate clusters: what is written to one is not in another.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiException, CoreV1Api } from '@kubernetes/client-node';
import { inNamespace, testClusterNames, testKubeConfig } from './test-clusters.js';

const names = testClusterNames();
const single = names.length < 2 ? 'only one test cluster' : false;

test('every test cluster is reachable through its own kubeconfig context', async () => {
  const servers = new Set<string>();
  for (const name of names) {
    const kc = testKubeConfig(name);
    servers.add(kc.getCurrentCluster()?.server ?? '');
    const list = await kc.makeApiClient(CoreV1Api).listNamespace();
    assert.ok(
      list.items.some((n) => n.metadata?.name === 'default'),
      `${name} has the default namespace`,
    );
  }
  assert.equal(servers.size, names.length, 'each context has its own API server');
});

test('a namespace created in the first cluster does not exist in the second', { skip: single }, async () => {
  const first = testKubeConfig(names[0]);
  const second = testKubeConfig(names[1]).makeApiClient(CoreV1Api);
  await inNamespace(first, 'isolated', async (ns) => {
    const missing = await second.readNamespace({ name: ns }).then(
      () => undefined,
      (err: unknown) => err,
    );
    assert.ok(missing instanceof ApiException);
    assert.equal(missing.code, 404);
  });
});
