// The agent's apply, as a story against a real API server: a first apply in stage order, a
// second pass that makes no mutating request, a change that applies only the changed object,
// a removal that prunes it, and a status branch that names the commit applied.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { isMap, type KubeObject } from '../../src/core/model/kube-object.js';
import { refKey } from '../../src/core/model/object-ref.js';
import { clusterLabel } from '../../src/core/apply-plan/agent-keys.js';
import { decodeInventory } from '../../src/loops/agent/inventory-store.js';
import { appliedCommitTrailer } from '../../src/core/status/status-branch.js';
import {
  aConfigMap,
  aDeployment,
  aNamespace,
  aWidget,
  commitClusterBranch,
  refOf,
  testAgent,
  uniqueGroup,
} from './agent-fixture.js';
import { aWidgetCrd } from '../support/kube-objects.js';
import { clustersHaveKwok, eventually, uniqueName } from './test-clusters.js';

/** Returns the paths (a.b.c) of `sent` whose value differs in `live`, or is missing there. */
function missingFields(sent: unknown, live: unknown, path = ''): string[] {
  if (isMap(sent)) {
    if (!isMap(live)) return [path];
    return Object.keys(sent).flatMap((k) => missingFields(sent[k], live[k], path ? `${path}.${k}` : k));
  }
  if (Array.isArray(sent)) {
    if (!Array.isArray(live) || live.length !== sent.length) return [path];
    return sent.flatMap((item, i) => missingFields(item, live[i], `${path}[${i}]`));
  }
  return sent === live ? [] : [path];
}

test('the agent applies, skips, updates and prunes a cluster branch and reports each commit', async (t) => {
  const agent = testAgent();
  t.after(() => agent.dispose());
  const ns = uniqueName('agent-apply');
  const group = uniqueGroup();
  const widget = aWidget(group, ns, 'w1', {
    size: 3,
    nested: { anything: [1, 'two', { deep: true }], empty: {} },
  });
  const objects: KubeObject[] = [
    widget,
    aDeployment(ns, 'web'),
    aConfigMap(ns, 'settings', { mode: 'a' }),
    aNamespace(ns),
    aWidgetCrd(group),
  ];

  await t.test(
    'a first pass creates every object, CRDs first, then the Namespace, then the rest in kind order',
    async () => {
      const commit = await commitClusterBranch(agent.gitdir, agent.cluster, objects);
      const pass = await agent.pass();
      assert.equal(pass.type, 'applied');
      assert.deepEqual(
        pass.objects.map((o) => [o.ref.kind, o.action, o.message]),
        [
          ['CustomResourceDefinition', 'created', undefined],
          ['Namespace', 'created', undefined],
          ['ConfigMap', 'created', undefined],
          ['Deployment', 'created', undefined],
          ['Widget', 'created', undefined],
        ],
      );
      // etcd's revision grows with every write: the resourceVersions show the order of the writes.
      const versions = pass.objects.map((o) => Number(o.live?.metadata.resourceVersion));
      assert.deepEqual(
        [...versions].sort((a, b) => a - b),
        versions,
        `written in apply order: ${versions.join(' < ')}`,
      );
      assert.equal(pass.fullyApplied, true);
      assert.equal(pass.status.type, 'written');
      const report = await agent.report();
      assert.equal(report?.appliedCommit, commit);
      const message = execFileSync('git', [
        '--git-dir',
        agent.gitdir,
        'log',
        '-1',
        '--format=%B',
        `refs/heads/gitfleet/status/${agent.cluster}`,
      ]).toString();
      assert.match(message, new RegExp(`^${appliedCommitTrailer}: ${commit}$`, 'm'));
    },
  );

  await t.test(
    'every field of every manifest reaches the API server, custom fields of a custom resource included',
    async () => {
      for (const sent of objects) {
        const live = await agent.client.get(refOf(sent));
        assert.ok(live, `${sent.kind} exists`);
        assert.deepEqual(missingFields(sent, live), [], `${sent.kind}: fields sent and stored`);
        assert.equal(
          live.metadata.labels?.[clusterLabel],
          agent.cluster,
          `${sent.kind} carries the ownership marker`,
        );
      }
    },
  );

  await t.test('a second pass with nothing new makes no mutating request', async () => {
    const pass = await agent.pass();
    assert.deepEqual(new Set(pass.objects.map((o) => o.action)), new Set(['unchanged']));
    assert.equal(pass.requests.mutating, 0, JSON.stringify(pass.requests));
    assert.equal(pass.fullyApplied, true);
  });

  await t.test('changing one object applies only that one', async () => {
    objects[2] = aConfigMap(ns, 'settings', { mode: 'b' });
    await commitClusterBranch(agent.gitdir, agent.cluster, objects);
    const pass = await agent.pass();
    const changed = pass.objects.filter((o) => o.action !== 'unchanged').map((o) => [o.ref.kind, o.action]);
    assert.deepEqual(changed, [['ConfigMap', 'updated']]);
    // The ConfigMap's apply and the inventory's new digest for it.
    assert.equal(pass.requests.mutating, 2, JSON.stringify(pass.requests));
    const live = await agent.client.get(refOf(objects[2]!));
    assert.deepEqual(live?.data, { mode: 'b' });
  });

  await t.test('removing an object from the branch prunes it and drops it from the inventory', async () => {
    const removed = objects.splice(2, 1)[0]!;
    const commit = await commitClusterBranch(agent.gitdir, agent.cluster, objects);
    const pass = await agent.pass();
    assert.deepEqual(
      pass.prune?.deleted.map((r) => r.name),
      ['settings'],
    );
    assert.equal(pass.fullyApplied, true);
    await eventually('the ConfigMap to be gone', async () =>
      (await agent.client.get(refOf(removed))) ? undefined : true,
    );
    const inventory = await agent.client.get({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: 'gitfleet-system',
      name: `gitfleet-inventory-${agent.cluster}`,
    });
    const parsed = decodeInventory(inventory!);
    assert.equal(parsed.type, 'ok');
    if (parsed.type === 'ok') {
      assert.deepEqual([...parsed.inventory.keys()].sort(), objects.map((o) => refKey(refOf(o))).sort());
    }
    assert.equal((await agent.report())?.appliedCommit, commit);
  });

  await t.test(
    'the status branch reports health: the Deployment becomes Healthy once its pod runs',
    { skip: !clustersHaveKwok() && 'no kwok node' },
    async () => {
      const record = await eventually('the Deployment to be reported Healthy', async () => {
        await agent.pass();
        const report = await agent.report();
        const deployment = report?.objects.find((o) => o.ref.kind === 'Deployment');
        return deployment?.health === 'Healthy' ? deployment : undefined;
      });
      assert.equal(record.applied, true);
      assert.equal(record.status?.['readyReplicas'], 1);
      const report = await agent.report();
      assert.equal(report?.clusterStatus?.conditions?.[0]?.status, 'True');
      assert.ok((report?.clusterStatus?.nodeSummary?.readyNum ?? 0) >= 1, 'kwok node is ready');
      assert.ok(report?.clusterStatus?.resourceSummary?.allocatable?.['cpu'], 'allocatable cpu is reported');
      assert.ok(
        report?.clusterStatus?.apiEnablements?.some((e) => e.groupVersion === `${group}/v1`),
        'the CRD API is enabled',
      );
    },
  );

  await t.test('a pass that changes nothing writes no status commit', async () => {
    await agent.pass();
    const head = await agent.statusHead();
    const pass = await agent.pass();
    assert.equal(pass.status.type, 'unchanged');
    assert.equal(await agent.statusHead(), head);
  });
});
