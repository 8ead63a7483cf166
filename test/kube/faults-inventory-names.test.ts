// Fault: a name Kubernetes accepts but the old space-separated inventory could not hold (a
// ClusterRole called "Upper Case role") stopped every later pass, and so did any inventory
// that no longer parses (here: its gzip stream cut in half). Now the name round-trips, and a
// broken inventory is reported, rebuilt from the live objects carrying the marker, and never
// pruned on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterLabel, inventoryName, inventoryNamespace } from '../../src/core/apply-plan/agent-keys.js';
import type { KubeObject } from '../../src/core/model/kube-object.js';
import { decodeInventory } from '../../src/loops/agent/inventory-store.js';
import { aConfigMap, commitClusterBranch, kubectl, refOf, testAgent } from './agent-fixture.js';
import { inNamespace, testKubeConfig } from './test-clusters.js';

const role = (name: string): KubeObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name },
  rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
});

test('an inventory holds any valid name, and one that does not parse never stops the agent', async (t) => {
  const agent = testAgent();
  const spaced = role(`Upper Case role ${agent.cluster}`);
  t.after(async () => {
    await agent.client.delete(refOf(spaced));
    await agent.dispose();
  });
  const inventoryRef = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    namespace: inventoryNamespace,
    name: inventoryName(agent.cluster),
  };
  await inNamespace(testKubeConfig(), 'faults-inv', async (ns) => {
    const [a, b, c] = ['a', 'b', 'c'].map((n) => aConfigMap(ns, n, { n })) as [
      KubeObject,
      KubeObject,
      KubeObject,
    ];
    await commitClusterBranch(agent.gitdir, agent.cluster, [spaced, a, b]);
    const first = await agent.pass();
    assert.equal(first.fullyApplied, true, JSON.stringify(first.status));

    await t.test('the next pass reads the inventory back and changes nothing', async () => {
      const second = await agent.pass();
      assert.equal(second.inventoryProblem, undefined);
      assert.equal(second.fullyApplied, true);
      assert.equal(second.requests.mutating, 0);
      const stored = await agent.client.get(inventoryRef);
      assert.equal((stored?.['data'] as Record<string, string>)['version'], '2');
    });

    await t.test(
      'a cut inventory: the pass applies, prunes nothing, reports why, and rewrites it',
      async () => {
        const stored = (await agent.client.get(inventoryRef))!;
        const packed = (stored['binaryData'] as Record<string, string>)['objects.jsonl.gz']!;
        const bytes = Buffer.from(packed, 'base64');
        const cut = bytes.subarray(0, Math.floor(bytes.length / 2)).toString('base64');
        kubectl([
          ...['patch', 'configmap', '-n', inventoryNamespace, inventoryRef.name, '--type', 'merge'],
          ...['-p', JSON.stringify({ binaryData: { 'objects.jsonl.gz': cut } })],
        ]);
        assert.equal(decodeInventory((await agent.client.get(inventoryRef))!).type, 'invalid');

        // The branch now drops b and adds c: c must be applied, b must not be pruned on a broken inventory's word.
        await commitClusterBranch(agent.gitdir, agent.cluster, [spaced, a, c]);
        const broken = await agent.pass();
        assert.match(
          broken.inventoryProblem ?? '',
          new RegExp(
            `^ConfigMap/gitfleet-system/${inventoryRef.name}: the inventory does not parse: binaryData objects\\.jsonl\\.gz: not a complete gzip stream .*; rewritten from the \\d+ entries that still read and the 3 live objects carrying ${clusterLabel}=${agent.cluster}; nothing pruned in this pass$`,
          ),
        );
        assert.equal(broken.prune, undefined);
        assert.equal(broken.fullyApplied, false);
        assert.equal(broken.objects.find((o) => o.ref.name === 'c')?.action, 'created');
        assert.ok(await agent.client.get(refOf(b)), 'b is not pruned on the word of a broken inventory');
        const conditions = (await agent.report())?.conditions ?? [];
        assert.equal(conditions.find((x) => x.type === 'Pruned')?.reason, 'InventoryUnreadable');

        const rewritten = decodeInventory((await agent.client.get(inventoryRef))!);
        assert.equal(rewritten.type, 'ok');
        const names = rewritten.type === 'ok' ? [...rewritten.inventory.values()].map((e) => e.ref.name) : [];
        assert.deepEqual(names.sort(), ['a', 'b', 'c', spaced.metadata.name].sort());
      },
    );

    await t.test(
      'the pass after prunes on the rewritten inventory: b, which carries the marker, goes',
      async () => {
        const next = await agent.pass();
        assert.equal(next.inventoryProblem, undefined);
        assert.equal(next.fullyApplied, true);
        assert.deepEqual(
          next.prune?.deleted.map((r) => r.name),
          ['b'],
        );
      },
    );

    await t.test(
      'a version 1 inventory written by an older agent is read and rewritten as version 2',
      async () => {
        const v1 = `v1 ConfigMap ${ns} a ${'0'.repeat(40)}\nv1 ConfigMap ${ns} c -\n`;
        kubectl(['apply', '--server-side', '--force-conflicts', '--field-manager', 'gitfleet', '-f', '-'], {
          input: JSON.stringify({
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: inventoryRef.name, namespace: inventoryNamespace },
            data: { objects: v1 },
          }),
        });
        const migrated = await agent.pass();
        assert.equal(migrated.inventoryProblem, undefined);
        assert.equal(migrated.fullyApplied, true);
        const stored = (await agent.client.get(inventoryRef))!;
        assert.equal((stored['data'] as Record<string, string>)['objects'], undefined, 'the old key is gone');
        const read = decodeInventory(stored);
        assert.equal(read.type === 'ok' && read.format, '2');
        assert.equal(read.type === 'ok' && read.inventory.size, 3);
      },
    );
  });
});
