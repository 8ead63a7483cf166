// An object the agent applied whose ownership marker someone removed by hand is drift: the
// next pass reports it corrected and puts the marker (and the manifest) back, instead of
// taking it for someone else's object for good.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterLabel } from '../../src/core/apply-plan/agent-keys.js';
import { aConfigMap, commitClusterBranch, kubectl, refOf, testAgent } from './agent-fixture.js';
import { inNamespace, testKubeConfig } from './test-clusters.js';

test('removing gitfleet.io/cluster from a live object is drift, corrected on the next pass', async (t) => {
  const agent = testAgent();
  t.after(() => agent.dispose());
  await inNamespace(testKubeConfig(), 'agent-marker', async (ns) => {
    const cm = aConfigMap(ns, 'web', { a: '1' });
    await commitClusterBranch(agent.gitdir, agent.cluster, [cm]);
    assert.equal((await agent.pass()).fullyApplied, true);

    kubectl(['label', 'configmap', 'web', '-n', ns, `${clusterLabel}-`]);
    kubectl(['patch', 'configmap', 'web', '-n', ns, '--type', 'merge', '-p', '{"data":{"a":"hand"}}']);
    const pass = await agent.pass();
    const result = pass.objects.find((o) => o.ref.name === 'web');
    assert.equal(result?.action, 'driftCorrected', result?.message);
    assert.equal(pass.fullyApplied, true);
    const live = await agent.client.get(refOf(cm));
    assert.equal(live?.metadata.labels?.[clusterLabel], agent.cluster);
    assert.deepEqual(live?.['data'], { a: '1' });
    assert.equal((await agent.pass()).requests.mutating, 0, 'and the pass after finds it in place');
  });
});
