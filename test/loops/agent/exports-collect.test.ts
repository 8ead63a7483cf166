// The agent of an exporting cluster reports the EndpointSlices of every Service a ServiceExport
// of its branch names, on the fake cluster: collected by the service-name label in the Service's
// namespace, slices Karmada manages skipped (pkg/controllers/mcs/service_export_controller.go,
// reportEndpointSliceWithServiceExportCreate and handleEndpointSliceEvent), canonical, no commit
// when nothing changed, and gone from the status branch when the export or the Service goes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statusBranchRef } from '../../../src/loops/agent/agent-repo.js';
import { readStatusFiles } from '../../../src/loops/agent/write-status-branch.js';
import { readRef } from '../../../src/adapters/git/read-ref.js';
import { commitClusterBranch, prefix } from '../../support/cluster-branch.js';
import { aNamespace } from '../../support/kube-objects.js';
import { fakeAgent, type FakeAgent } from './fake-agent.js';
import { aService, aServiceExport, anEndpointSlice, serviceExportCrd } from './exports-fixture.js';

const exported = [
  serviceExportCrd(),
  aNamespace('shop'),
  aService('shop', 'web'),
  aServiceExport('shop', 'web'),
];

async function exportFiles(agent: FakeAgent): Promise<Map<string, string>> {
  const files = await readStatusFiles(agent.gitdir, statusBranchRef(prefix, agent.cluster));
  return new Map([...files].filter(([p]) => p.startsWith('exports/')));
}

function statusHead(agent: FakeAgent): Promise<string | null> {
  return readRef(agent.gitdir, statusBranchRef(prefix, agent.cluster));
}

test("the exported Service's slices are reported, canonical; other Services' and Karmada's are not", async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, [...exported, aService('shop', 'db')]);
  agent.fake.put(anEndpointSlice('shop', 'web', 'web-b', ['10.0.0.7', '10.0.0.3']));
  agent.fake.put(anEndpointSlice('shop', 'web', 'web-a', ['10.0.0.5']));
  agent.fake.put(anEndpointSlice('shop', 'db', 'db-a', ['10.0.0.9']));
  agent.fake.put(
    anEndpointSlice('shop', 'web', 'imported-m2-web-x', ['10.9.0.1'], {
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.karmada.io',
    }),
  );
  const result = await agent.pass();
  assert.equal(result.fullyApplied, true);
  assert.deepEqual(result.exportedServices, [{ namespace: 'shop', name: 'web' }]);

  const files = await exportFiles(agent);
  assert.deepEqual([...files.keys()], ['exports/shop/web/web-a.yaml', 'exports/shop/web/web-b.yaml']);
  const report = await agent.report();
  assert.deepEqual(report?.exports?.[1], {
    cluster: 'm1',
    namespace: 'shop',
    service: 'web',
    name: 'web-b',
    addressType: 'IPv4',
    endpoints: [
      { addresses: ['10.0.0.3'], conditions: { ready: true, serving: true, terminating: false } },
      { addresses: ['10.0.0.7'], conditions: { ready: true, serving: true, terminating: false } },
    ],
    ports: [
      { name: 'http', port: 8080, protocol: 'TCP' },
      { name: 'metrics', port: 9090, protocol: 'TCP' },
    ],
  });
  assert.doesNotMatch(files.get('exports/shop/web/web-b.yaml')!, /nodeName|targetRef|resourceVersion/);
});

test('an unchanged slice makes no commit, even written again in another order; a changed one does', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, exported);
  const slice = anEndpointSlice('shop', 'web', 'web-a', ['10.0.0.1', '10.0.0.2']);
  agent.fake.put(slice);
  await agent.pass();
  const first = await statusHead(agent);

  agent.fake.put(anEndpointSlice('shop', 'web', 'web-a', ['10.0.0.2', '10.0.0.1']));
  const again = await agent.pass();
  assert.equal(again.status.type, 'unchanged');
  assert.equal(await statusHead(agent), first);

  agent.fake.put(anEndpointSlice('shop', 'web', 'web-a', ['10.0.0.2', '10.0.0.4']));
  const changed = await agent.pass();
  assert.equal(changed.status.type, 'written');
  assert.match((await exportFiles(agent)).get('exports/shop/web/web-a.yaml')!, /10\.0\.0\.4/);
});

test("removing the ServiceExport from the branch, or deleting the Service, removes the Service's files", async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  const api = [aService('shop', 'api'), aServiceExport('shop', 'api')];
  await commitClusterBranch(agent.gitdir, agent.cluster, [...exported, ...api]);
  agent.fake.put(anEndpointSlice('shop', 'web', 'web-a', ['10.0.0.1']));
  agent.fake.put(anEndpointSlice('shop', 'api', 'api-a', ['10.0.1.1']));
  await agent.pass();
  assert.deepEqual(
    [...(await exportFiles(agent)).keys()],
    ['exports/shop/api/api-a.yaml', 'exports/shop/web/web-a.yaml'],
  );

  await commitClusterBranch(agent.gitdir, agent.cluster, [...exported, aService('shop', 'api')]);
  const unexported = await agent.pass();
  assert.deepEqual(unexported.exportedServices, [{ namespace: 'shop', name: 'web' }]);
  assert.deepEqual([...(await exportFiles(agent)).keys()], ['exports/shop/web/web-a.yaml']);

  // The Service leaves the branch and is pruned while its ServiceExport stays; its slices stay
  // too (until the garbage collector takes them), but a Service that is gone exports nothing.
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    serviceExportCrd(),
    aNamespace('shop'),
    aServiceExport('shop', 'web'),
  ]);
  await agent.pass();
  assert.equal(
    agent.fake.peek({ apiVersion: 'v1', kind: 'Service', namespace: 'shop', name: 'web' }),
    undefined,
  );
  assert.deepEqual([...(await exportFiles(agent)).keys()], []);
});

test('a cluster that stops answering keeps its exported slices as last seen', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, exported);
  agent.fake.put(anEndpointSlice('shop', 'web', 'web-a', ['10.0.0.1']));
  await agent.pass();
  agent.fake.down = true;
  const result = await agent.pass();
  assert.equal(result.type, 'clusterUnreachable');
  assert.deepEqual([...(await exportFiles(agent)).keys()], ['exports/shop/web/web-a.yaml']);
});
