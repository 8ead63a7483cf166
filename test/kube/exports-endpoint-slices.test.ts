// Multi-cluster services on a real API server: the agent of an exporting cluster reports the
// EndpointSlices of a Service its branch exports on its status branch, and its watch sees a
// slice change. The Service has no selector and its slice is written by hand (as a person or
// another controller does), so the cluster's own endpointslice controller leaves it alone.
// Which slices are collected: Karmada's pkg/controllers/mcs/service_export_controller.go
// (reportEndpointSliceWithServiceExportCreate lists them by kubernetes.io/service-name).
// The ServiceExport CRD is not installed here (it is shared by every test on the cluster): the
// branch's ServiceExport is what names the Service, whether or not it could be applied.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/core/model/kube-object.js';
import { kubeClusterApi } from '../../src/loops/agent/kube-cluster-api.js';
import { ExportWatcher } from '../../src/loops/agent/export-watch.js';
import { systemClock } from '../../src/loops/runtime/clock.js';
import { silentLogger } from '../../src/loops/runtime/logger.js';
import { eventually } from '../support/eventually.js';
import { commitClusterBranch, kubectl, testAgent } from './agent-fixture.js';
import { inNamespace, testKubeConfig } from './test-clusters.js';

function branchObjects(ns: string, exported: boolean): KubeObject[] {
  const service: KubeObject = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { namespace: ns, name: 'web' },
    spec: { ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
  };
  const serviceExport = {
    apiVersion: 'multicluster.x-k8s.io/v1alpha1',
    kind: 'ServiceExport',
    metadata: { namespace: ns, name: 'web' },
  };
  return exported ? [service, serviceExport] : [service];
}

function sliceYaml(ns: string, addresses: string[]): string {
  return JSON.stringify({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { namespace: ns, name: 'web-1', labels: { 'kubernetes.io/service-name': 'web' } },
    addressType: 'IPv4',
    endpoints: addresses.map((a) => ({ addresses: [a], conditions: { ready: true } })),
    ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
  });
}

test("the agent reports an exported Service's EndpointSlice on its status branch and watches it", async (t) => {
  const agent = testAgent({ context: 'member1' });
  t.after(() => agent.dispose());
  await inNamespace(testKubeConfig('member1'), 'exports', async (ns) => {
    await commitClusterBranch(agent.gitdir, agent.cluster, branchObjects(ns, true));
    kubectl(['apply', '-f', '-'], { input: sliceYaml(ns, ['10.1.2.3', '10.1.2.1']) });

    await agent.pass();
    const report = await agent.report();
    assert.deepEqual(report?.exports, [
      {
        cluster: agent.cluster,
        namespace: ns,
        service: 'web',
        name: 'web-1',
        addressType: 'IPv4',
        endpoints: [
          { addresses: ['10.1.2.1'], conditions: { ready: true } },
          { addresses: ['10.1.2.3'], conditions: { ready: true } },
        ],
        ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
      },
    ]);
    const head = await agent.statusHead();
    await agent.pass();
    assert.equal(await agent.statusHead(), head, 'an unchanged slice makes no commit');

    // The watch on the exported Services' slices, with a label-existence selector, sees a change.
    const changes: string[] = [];
    const watcher = new ExportWatcher({
      client: kubeClusterApi(agent.client),
      clock: systemClock(),
      random: Math.random,
      log: silentLogger(),
      onChange: (reason) => changes.push(reason),
    });
    t.after(() => watcher.stop());
    watcher.sync([{ namespace: ns, name: 'web' }]);
    // The watch starts on its own: the slice is touched again every half second until it is seen.
    let polls = 0;
    await eventually(() => {
      if (polls++ % 25 === 0)
        kubectl(['label', '-n', ns, 'endpointslice', 'web-1', `touched=${polls}`, '--overwrite']);
      return changes.length > 0;
    }, 'a watch event');
    assert.match(changes[0]!, new RegExp(`EndpointSlice ${ns}/web-1 modified`));
    watcher.stop();

    await commitClusterBranch(agent.gitdir, agent.cluster, branchObjects(ns, false));
    await agent.pass();
    assert.equal((await agent.report())?.exports, undefined, 'unexported: its files are gone');
  });
});
