// Objects the agent does not own, and changes the API server refuses: a pre-existing object is
// left alone with a clear error until conflict resolution says overwrite; an object another
// cluster's agent owns is not taken; an immutable field change is reported with its path and
// recreated only when the object opts in, never for a StatefulSet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterLabel, recreateAnnotation } from '../../src/core/apply-plan/agent-keys.js';
import { conflictResolutionAnnotation } from '../../src/core/model/gitfleet-keys.js';
import type { KubeObject } from '../../src/core/model/kube-object.js';
import { aConfigMap, aDeployment, commitClusterBranch, kubectl, refOf, testAgent } from './agent-fixture.js';
import { inNamespace, testKubeConfig } from './test-clusters.js';

const overwrite = (o: KubeObject): KubeObject => ({
  ...o,
  metadata: { ...o.metadata, annotations: { [conflictResolutionAnnotation]: 'overwrite' } },
});

test('a pre-existing object is left alone with a clear error, and conflict resolution overwrite takes it over', async (t) => {
  const agent = testAgent();
  t.after(() => agent.dispose());
  await inNamespace(testKubeConfig(), 'agent-adopt', async (ns) => {
    kubectl(['create', 'configmap', 'legacy', '-n', ns, '--from-literal=x=by-hand']);
    const objects = [aConfigMap(ns, 'legacy', { x: 'from-git' }), aConfigMap(ns, 'other', { y: '1' })];
    await commitClusterBranch(agent.gitdir, agent.cluster, objects);
    const first = await agent.pass();
    const legacy = first.objects.find((o) => o.ref.name === 'legacy')!;
    assert.equal(legacy.action, 'refused');
    assert.equal(legacy.applied, false);
    assert.match(
      legacy.message ?? '',
      /already exists in the cluster and is not managed by gitfleet .*conflict-resolution: overwrite/,
    );
    assert.equal(
      first.objects.find((o) => o.ref.name === 'other')?.action,
      'created',
      'the other object is applied anyway',
    );
    assert.equal(first.fullyApplied, false);
    const untouched = await agent.client.get(refOf(objects[0]!));
    assert.deepEqual(untouched?.data, { x: 'by-hand' });
    assert.equal(untouched?.metadata.labels?.[clusterLabel], undefined);
    const record = (await agent.report())?.objects.find((o) => o.ref.name === 'legacy');
    assert.equal(record?.applied, false);
    assert.match(record?.message ?? '', /not managed by gitfleet/);

    objects[0] = overwrite(objects[0]!);
    await commitClusterBranch(agent.gitdir, agent.cluster, objects);
    const second = await agent.pass();
    assert.equal(second.objects.find((o) => o.ref.name === 'legacy')?.action, 'takenOver');
    assert.equal(second.fullyApplied, true);
    const taken = await agent.client.get(refOf(objects[0]!));
    assert.deepEqual(taken?.data, { x: 'from-git' });
    assert.equal(taken?.metadata.labels?.[clusterLabel], agent.cluster);
  });
});

test("an object another cluster's agent applied is refused, naming that cluster", async (t) => {
  const first = testAgent();
  const second = testAgent();
  t.after(async () => {
    await first.dispose();
    await second.dispose();
  });
  await inNamespace(testKubeConfig(), 'agent-two', async (ns) => {
    await commitClusterBranch(first.gitdir, first.cluster, [aConfigMap(ns, 'shared', { owner: 'first' })]);
    assert.equal((await first.pass()).fullyApplied, true);
    await commitClusterBranch(second.gitdir, second.cluster, [aConfigMap(ns, 'shared', { owner: 'second' })]);
    const pass = await second.pass();
    assert.equal(pass.objects[0]?.action, 'refused');
    assert.match(
      pass.objects[0]?.message ?? '',
      new RegExp(`managed by the gitfleet agent of cluster ${first.cluster}`),
    );
    const live = await second.client.get({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: ns,
      name: 'shared',
    });
    assert.deepEqual(live?.data, { owner: 'first' });
  });
});

function withSelector(d: KubeObject, app: string, annotations: Record<string, string> = {}): KubeObject {
  const spec = d.spec as Record<string, unknown>;
  return {
    ...d,
    metadata: { ...d.metadata, annotations },
    spec: {
      ...spec,
      selector: { matchLabels: { app } },
      template: { metadata: { labels: { app } }, spec: (spec.template as { spec: unknown }).spec },
    },
  };
}

function aStatefulSet(
  namespace: string,
  name: string,
  serviceName: string,
  annotations: Record<string, string> = {},
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace, annotations },
    spec: {
      serviceName,
      replicas: 0,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name, image: 'registry.invalid/db:1' }] },
      },
    },
  };
}

test('an immutable field change is reported with the field path, and recreated only when the object opts in', async (t) => {
  const agent = testAgent();
  t.after(() => agent.dispose());
  await inNamespace(testKubeConfig(), 'agent-immutable', async (ns) => {
    const objects = [aDeployment(ns, 'web'), aStatefulSet(ns, 'db', 'db')];
    await commitClusterBranch(agent.gitdir, agent.cluster, objects);
    assert.equal((await agent.pass()).fullyApplied, true);

    objects[0] = withSelector(objects[0]!, 'web-v2');
    objects[1] = aStatefulSet(ns, 'db', 'db-v2', { [recreateAnnotation]: 'true' });
    await commitClusterBranch(agent.gitdir, agent.cluster, objects);
    const pass = await agent.pass();
    const [web, db] = [
      pass.objects.find((o) => o.ref.kind === 'Deployment')!,
      pass.objects.find((o) => o.ref.kind === 'StatefulSet')!,
    ];
    assert.equal(web.action, 'failed');
    assert.match(
      web.message ?? '',
      /^immutable field changed: spec\.selector; annotate the template gitfleet\.io\/recreate-on-immutable-change/,
    );
    assert.equal(db.action, 'failed');
    assert.match(db.message ?? '', /immutable field changed: .*spec.*ignored for a StatefulSet/);

    const again = await agent.pass();
    assert.equal(again.requests.mutating, 0, 'the same refused manifest is not sent again');
    assert.equal(again.objects.find((o) => o.ref.kind === 'Deployment')?.message, web.message);

    objects[0] = withSelector(objects[0]!, 'web-v2', { [recreateAnnotation]: 'true' });
    await commitClusterBranch(agent.gitdir, agent.cluster, objects);
    const recreated = await agent.pass();
    assert.equal(recreated.objects.find((o) => o.ref.kind === 'Deployment')?.action, 'recreated');
    const live = await agent.client.get(refOf(objects[0]!));
    assert.deepEqual((live?.spec as { selector: unknown }).selector, { matchLabels: { app: 'web-v2' } });
    const sts = await agent.client.get(refOf(objects[1]!));
    assert.equal(
      (sts?.spec as { serviceName: string }).serviceName,
      'db',
      'the StatefulSet was not recreated',
    );
  });
});
