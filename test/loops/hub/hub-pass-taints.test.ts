// The hub's taints in a real repository: an agent reports Ready False, the next pass records the
// not-ready taint (and a ClusterTaintPolicy's NoExecute one) on the bindings branch with the
// pass's time, says so in Gitfleet-Taint trailers, and the taint manager asks to evict the
// bindings still on that cluster (core/failover/taint-evictions.ts, read here directly: the
// evictions are applied by a later step).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { clusterTaintsPath, readRecord } from '../../../src/core/failover/cluster-taints.js';
import { defaultFailoverSettings, type TimedTaint } from '../../../src/core/model/failover.js';
import { parseBindingRecord } from '../../../src/core/publish/binding-record.js';
import { defaultHubFailover } from '../../../src/loops/hub/hub-failover.js';
import {
  branchFiles,
  commitChange,
  commitReadyReport,
  fleetRepoWith,
  git,
  hubPass,
  rendered,
  removeFleetRepos,
  type FleetRepo,
} from './hub-fixture.js';

after(removeFleetRepos);

const now = new Date(1_700_000_100_000);
const cluster = (name: string) => `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: ${name}}
spec: {}
`;

function fleet(extra: Record<string, string> = {}): Record<string, string> {
  return {
    'clusters/member1.yaml': cluster('member1'),
    'clusters/member2.yaml': cluster('member2'),
    'apps/web.yaml': `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  template:
    spec:
      containers: [{name: web, image: web:1}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
`,
    ...extra,
  };
}

const noExecutePolicy = {
  'fleet.yaml': `apiVersion: gitfleet.io/v1alpha1
kind: FleetConfig
metadata: {name: fleet}
spec: {allowNoExecuteTaintPolicy: true}
`,
  'taints.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterTaintPolicy
metadata: {name: down}
spec:
  addOnConditions: [{conditionType: Ready, operator: In, statusValues: ["False"]}]
  removeOnConditions: [{conditionType: Ready, operator: In, statusValues: ["True"]}]
  taints: [{key: example.com/down, effect: NoExecute}]
`,
};

function reportReady(repo: FleetRepo, name: string, status: 'True' | 'False'): Promise<void> {
  return commitReadyReport(repo, name, status);
}

function bindingsMessage(repo: FleetRepo): string {
  return git(repo, ['log', '-1', '--format=%B', 'refs/heads/gitfleet/bindings']);
}

test('an agent reporting Ready False gets the not-ready taint recorded with the pass’s time, once', async () => {
  const repo = fleetRepoWith(fleet(), { bare: false });
  rendered(await hubPass(repo));
  assert.equal(branchFiles(repo, 'gitfleet/bindings').get(clusterTaintsPath('member2')), undefined);
  await reportReady(repo, 'member2', 'False');
  const pass = rendered(await hubPass(repo));
  const record = branchFiles(repo, 'gitfleet/bindings').get(clusterTaintsPath('member2'));
  assert.deepEqual(readRecord(record), [
    { key: 'cluster.karmada.io/not-ready', effect: 'NoSchedule', timeAdded: now.toISOString() },
  ]);
  assert.deepEqual(
    pass.decisions?.map((d) => [d.type, d.cluster]),
    [['TaintAdded', 'member2']],
  );
  assert.match(
    bindingsMessage(repo),
    /^Gitfleet-Taint: member2 \+cluster\.karmada\.io\/not-ready:NoSchedule: Ready=False \(the cluster controller's condition taint\)$/m,
  );
  const later = await hubPass(repo, { now: () => new Date(now.getTime() + 60_000) });
  assert.equal(later.type, 'upToDate', 'nothing changed: no commit, and the timeAdded stays');
});

test('a ClusterTaintPolicy adding NoExecute on Ready False: recorded, and with eviction enabled the binding on that cluster is to be evicted', async () => {
  const repo = fleetRepoWith(fleet(noExecutePolicy), { bare: false });
  const failover = {
    ...defaultHubFailover(),
    settings: { ...defaultFailoverSettings, enableNoExecuteTaintEviction: true },
  };
  rendered(await hubPass(repo, { failover }));
  // member1 reports Ready: with no cluster Ready the fleet would be disrupted and evict nothing.
  await reportReady(repo, 'member1', 'True');
  await reportReady(repo, 'member2', 'False');
  const pass = rendered(await hubPass(repo, { failover }));
  const files = branchFiles(repo, 'gitfleet/bindings');
  const kept: TimedTaint[] = readRecord(files.get(clusterTaintsPath('member2')));
  assert.deepEqual(kept, [
    { key: 'cluster.karmada.io/not-ready', effect: 'NoSchedule', timeAdded: now.toISOString() },
    { key: 'example.com/down', effect: 'NoExecute', timeAdded: now.toISOString() },
  ]);
  assert.match(
    bindingsMessage(repo),
    /^Gitfleet-Taint: member2 \+example\.com\/down:NoExecute: Ready=False matches addOnConditions of ClusterTaintPolicy\/down$/m,
  );
  // The same pass evicted web from member2 (the taint manager's request, applied as Karmada's
  // GracefulEvictCluster): the record holds the task, and the replicas are on member1.
  assert.deepEqual(
    pass.decisions?.filter((d) => d.type === 'Evicted').map((d) => [d.binding, d.cluster]),
    [['apps/Deployment/shop/web', 'member2']],
  );
  const web = parseBindingRecord(files.get('shop/Deployment.apps/web.yaml')!)!;
  assert.deepEqual(
    web.clusters.map((c) => c.name),
    ['member1'],
  );
  assert.deepEqual(
    web.evictionTasks?.map((t) => [t.fromCluster, t.producer, t.reason, t.purgeMode]),
    [['member2', 'TaintManager', 'TaintUntolerated', 'Gracefully']],
  );
  assert.match(
    bindingsMessage(repo),
    /^Gitfleet-Eviction: .*web.* from member2: .*example\.com\/down:NoExecute/m,
  );
});

test('a deleted ClusterTaintPolicy removes none of the taints it added', async () => {
  const repo = fleetRepoWith(fleet(noExecutePolicy), { bare: false });
  rendered(await hubPass(repo));
  await reportReady(repo, 'member2', 'False');
  rendered(await hubPass(repo));
  commitChange(repo, 'drop the taint policy', (work) => rmSync(join(work, 'taints.yaml')));
  rendered(await hubPass(repo));
  const kept = readRecord(branchFiles(repo, 'gitfleet/bindings').get(clusterTaintsPath('member2')));
  assert.deepEqual(
    kept.map((t) => `${t.key}:${t.effect}`),
    ['cluster.karmada.io/not-ready:NoSchedule', 'example.com/down:NoExecute'],
    'a deleted policy removes nothing',
  );
});
