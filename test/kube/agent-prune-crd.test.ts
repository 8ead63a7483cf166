// A CRD the agent applied is not pruned while custom resources of its kind that the agent does
// not own exist (deleting a CRD deletes every resource of its kind): it is kept and reported, as
// a Namespace holding foreign objects is. Annotated gitfleet.io/prune-crd-with-resources: "true"
// it goes anyway, and they with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/core/model/kube-object.js';
import { pruneCrdWithResourcesAnnotation } from '../../src/core/apply-plan/agent-keys.js';
import { aWidgetCrd } from '../support/kube-objects.js';
import {
  aNamespace,
  aWidget,
  commitClusterBranch,
  kubectl,
  refOf,
  testAgent,
  uniqueGroup,
} from './agent-fixture.js';
import { eventually, uniqueName } from './test-clusters.js';

test('a CRD with custom resources the agent does not own is kept and reported; opted in, it is pruned', async (t) => {
  const agent = testAgent();
  const ns = uniqueName('agent-crd');
  const group = uniqueGroup();
  const crd = aWidgetCrd(group);
  t.after(async () => {
    kubectl(['delete', 'crd', crd.metadata.name, '--ignore-not-found', '--wait=false']);
    kubectl(['delete', 'namespace', ns, '--ignore-not-found', '--wait=false']);
    await agent.dispose();
  });
  const ours = aWidget(group, ns, 'ours', { size: 1 });
  await commitClusterBranch(agent.gitdir, agent.cluster, [crd, aNamespace(ns), ours]);
  assert.equal((await agent.pass()).fullyApplied, true);
  // Someone else's resource of that kind, made by hand (no ownership marker).
  kubectl(['apply', '-f', '-'], { input: JSON.stringify(aWidget(group, ns, 'theirs', { size: 2 })) });

  // The branch no longer holds the CRD (nor our Widget, nor the Namespace).
  await commitClusterBranch(agent.gitdir, agent.cluster, []);
  const kept = await agent.pass({ allowDeletions: true });
  const held = kept.prune?.plan.held.map((h) => [h.ref.kind, h.reason]).sort();
  assert.deepEqual(held, [
    ['CustomResourceDefinition', 'CustomResourcesExist'],
    ['Namespace', 'NamespaceNotEmpty'],
  ]);
  assert.match(
    kept.prune?.plan.held.find((h) => h.reason === 'CustomResourcesExist')?.message ?? '',
    new RegExp(`1 custom resource\\(s\\) of its kinds are not the agent's \\(Widget/${ns}/theirs\\)`),
  );
  assert.deepEqual(
    kept.prune?.deleted.map((r) => r.name),
    ['ours'],
    'our own Widget goes',
  );
  assert.ok(await agent.client.get(refOf(crd)), 'the CRD stays');
  assert.ok(await agent.client.get(refOf(aWidget(group, ns, 'theirs', {}))), 'and so does their Widget');
  const pruned = (await agent.report())?.conditions?.find((c) => c.type === 'Pruned');
  assert.equal(pruned?.reason, 'CustomResourcesExist');
  assert.equal(kept.fullyApplied, true, 'a wait on the cluster, as a Namespace kept for its contents');

  // Opted in: the CRD comes back annotated, then leaves the branch again.
  const optedIn: KubeObject = {
    ...crd,
    metadata: { ...crd.metadata, annotations: { [pruneCrdWithResourcesAnnotation]: 'true' } },
  };
  await commitClusterBranch(agent.gitdir, agent.cluster, [optedIn]);
  assert.equal((await agent.pass()).fullyApplied, true);
  await commitClusterBranch(agent.gitdir, agent.cluster, []);
  const gone = await agent.pass({ allowDeletions: true });
  assert.ok(
    gone.prune?.deleted.some((r) => r.kind === 'CustomResourceDefinition'),
    'the opted-in CRD is pruned',
  );
  await eventually('the CRD to be gone', async () =>
    (await agent.client.get(refOf(crd))) ? undefined : true,
  );
});
