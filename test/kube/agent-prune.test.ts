// Pruning only what the agent provably owns, right now: an object that lost its marker, one
// annotated to be kept and one preserved on deletion stay; the mass-deletion guard refuses
// deleting most objects until the branch's commit allows it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterLabel } from '../../src/core/apply-plan/agent-keys.js';
import { managedLabel, preserveAnnotation } from '../../src/core/model/gitfleet-keys.js';
import type { KubeObject } from '../../src/core/model/kube-object.js';
import { createAgentMemory } from '../../src/loops/agent/agent-memory.js';
import { decodeInventory } from '../../src/loops/agent/inventory-store.js';
import { aConfigMap, commitAsHub, commitClusterBranch, kubectl, refOf, testAgent } from './agent-fixture.js';
import { eventually, inNamespace, testKubeConfig } from './test-clusters.js';

test('prune leaves an object without our marker, one annotated prune: disabled and one preserved on deletion', async (t) => {
  const agent = testAgent();
  t.after(() => agent.dispose());
  await inNamespace(testKubeConfig(), 'agent-prune', async (ns) => {
    const preserved: KubeObject = {
      ...aConfigMap(ns, 'preserved', { p: '1' }),
      metadata: { name: 'preserved', namespace: ns, annotations: { [preserveAnnotation]: 'true' } },
    };
    const objects = ['unmarked', 'kept', 'deleted', 'stays-1', 'stays-2', 'stays-3'].map((n) =>
      aConfigMap(ns, n, { n }),
    );
    objects.push(preserved);
    await commitClusterBranch(agent.gitdir, agent.cluster, objects);
    assert.equal((await agent.pass()).fullyApplied, true);

    kubectl(['label', 'configmap', 'unmarked', '-n', ns, `${clusterLabel}-`]);
    kubectl(['annotate', 'configmap', 'kept', '-n', ns, 'gitfleet.io/prune=disabled']);
    const remaining = objects.filter((o) => o.metadata.name.startsWith('stays-'));
    await commitClusterBranch(agent.gitdir, agent.cluster, remaining);
    const pass = await agent.pass();
    assert.equal(pass.fullyApplied, true);
    assert.deepEqual(
      pass.prune?.deleted.map((r) => r.name),
      ['deleted'],
    );
    assert.deepEqual(
      pass.prune?.orphaned.map((r) => r.name),
      ['preserved'],
    );
    assert.deepEqual(pass.prune?.plan.left.map((l) => [l.ref.name, l.reason]).sort(), [
      ['kept', 'Kept'],
      ['unmarked', 'NotOwned'],
    ]);
    const get = (name: string) =>
      agent.client.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: ns, name });
    assert.ok(await get('unmarked'), 'an object without the marker is not pruned');
    assert.ok(await get('kept'), 'an object annotated prune: disabled is not pruned');
    const orphan = await get('preserved');
    assert.ok(orphan, 'an object preserved on deletion stays');
    assert.equal(orphan.metadata.labels?.[clusterLabel], undefined, 'without the ownership marker');
    assert.equal(orphan.metadata.labels?.[managedLabel], undefined, 'and without the managed label');
    const deleted = await get('deleted');
    assert.ok(deleted === undefined || deleted.metadata['deletionTimestamp'], 'the owned object is deleted');

    // Left and orphaned objects are no longer in the inventory: a later pass does not look at them.
    const next = await agent.pass();
    assert.equal(next.prune?.plan.left.length, 0);
    assert.equal(next.requests.mutating, 0);
  });
});

test('the mass-deletion guard refuses pruning most objects until the commit allows it', async (t) => {
  const agent = testAgent();
  t.after(() => agent.dispose());
  await inNamespace(testKubeConfig(), 'agent-guard', async (ns) => {
    const objects = Array.from({ length: 12 }, (_, i) => aConfigMap(ns, `cm-${i}`, { i: String(i) }));
    await commitClusterBranch(agent.gitdir, agent.cluster, objects);
    assert.equal((await agent.pass()).fullyApplied, true);

    const kept = objects.slice(0, 5);
    await commitClusterBranch(agent.gitdir, agent.cluster, kept);
    const refused = await agent.pass();
    assert.equal(refused.prune?.deleted.length, 0);
    assert.match(
      refused.prune?.plan.guardRefusal ?? '',
      /would delete 7 of 12 objects the agent applied \(more than 50%/,
    );
    assert.equal(refused.fullyApplied, false);
    assert.equal(refused.requests.mutating, 0, 'nothing deleted, the inventory unchanged');
    for (const o of objects) assert.ok(await agent.client.get(refOf(o)), `${o.metadata.name} is still there`);
    const condition = (await agent.report())?.conditions?.find((c) => c.type === 'Pruned');
    assert.equal(condition?.reason, 'MassDeletionGuard');

    // Run again, as agent --once is, with no memory of the last pass: the deletions are still
    // pending (the inventory keeps them), so the guard refuses them again.
    const again = await agent.pass({ memory: createAgentMemory() });
    assert.match(again.prune?.plan.guardRefusal ?? '', /would delete 7 of 12 objects/);
    assert.equal(again.fullyApplied, false);
    assert.equal(again.prune?.deleted.length, 0, 'nothing deleted on the second run either');

    await commitAsHub(agent.gitdir, agent.cluster, kept, 'drop seven');
    const allowed = await agent.pass();
    assert.equal(allowed.prune?.deleted.length, 7);
    assert.equal(allowed.fullyApplied, true);
  });
});

/** A ValidatingAdmissionPolicy (and its binding) that refuses deleting ConfigMaps labelled undeletable in one namespace. */
function undeletablePolicy(name: string, namespace: string): KubeObject[] {
  return [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [
            { apiGroups: [''], apiVersions: ['v1'], operations: ['DELETE'], resources: ['configmaps'] },
          ],
        },
        validations: [
          {
            expression:
              "!(has(oldObject.metadata.labels) && 'gitfleet.test/undeletable' in oldObject.metadata.labels)",
            message: 'this ConfigMap is undeletable',
          },
        ],
      },
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name },
      spec: {
        policyName: name,
        validationActions: ['Deny'],
        matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } } },
      },
    },
  ];
}

test('a failed deletion stays in the inventory and is retried by the next pass', async (t) => {
  const agent = testAgent();
  t.after(() => agent.dispose());
  await inNamespace(testKubeConfig(), 'agent-retry', async (ns) => {
    const policy = undeletablePolicy(`gitfleet-test-${ns}`, ns);
    for (const o of policy) kubectl(['apply', '-f', '-'], { input: JSON.stringify(o) });
    t.after(() => {
      for (const o of policy) kubectl(['delete', o.kind, o.metadata.name, '--ignore-not-found']);
    });
    const objects = ['stuck', 'b', 'c', 'd'].map((n) => aConfigMap(ns, n, { n }));
    await commitClusterBranch(agent.gitdir, agent.cluster, objects);
    assert.equal((await agent.pass()).fullyApplied, true);
    kubectl(['label', 'configmap', 'stuck', '-n', ns, 'gitfleet.test/undeletable=true']);

    // The policy takes effect once the API server's admission plugin has seen it: wait until a
    // server-side dry run of the deletion is refused, so the pass below cannot race it.
    await eventually('the policy to refuse deleting stuck', async () => {
      try {
        kubectl(['delete', 'configmap', 'stuck', '-n', ns, '--dry-run=server']);
        return undefined;
      } catch {
        return true;
      }
    });
    await commitClusterBranch(agent.gitdir, agent.cluster, objects.slice(1));
    const failed = await agent.pass();
    assert.deepEqual(failed.prune?.deleted ?? [], [], 'nothing is deleted while the policy refuses it');
    assert.match(
      failed.prune?.failed[0]?.message ?? '',
      /^ConfigMap\/.*\/stuck: delete failed: .*this ConfigMap is undeletable/,
    );
    assert.equal(failed.fullyApplied, false);
    assert.equal((await agent.report())?.conditions?.find((c) => c.type === 'Pruned')?.reason, 'PruneFailed');
    const inventory = await agent.client.get({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: 'gitfleet-system',
      name: `gitfleet-inventory-${agent.cluster}`,
    });
    const stored = decodeInventory(inventory!);
    assert.ok(
      stored.type === 'ok' && [...stored.inventory.values()].some((e) => e.ref.name === 'stuck'),
      'still in the inventory',
    );

    kubectl(['label', 'configmap', 'stuck', '-n', ns, 'gitfleet.test/undeletable-']);
    const retried = await agent.pass();
    assert.deepEqual(
      retried.prune?.deleted.map((r) => r.name),
      ['stuck'],
    );
    assert.equal(retried.fullyApplied, true);
  });
});
