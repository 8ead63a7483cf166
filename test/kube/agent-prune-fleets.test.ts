// Ownership names the fleet: two fleet repositories that both have a cluster of one name on the
// same API server each keep their own inventory, and neither agent deletes nor takes over what
// the other applied. An object marked by an agent from before fleet identities (no
// gitfleet.io/fleet) stays its fleet's and is re-marked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fleetLabel } from '../../src/core/apply-plan/agent-keys.js';
import { aConfigMap, commitClusterBranch, kubectl, refOf, testAgent } from './agent-fixture.js';
import { inNamespace, testKubeConfig, uniqueName } from './test-clusters.js';

test("an agent of another fleet with the same cluster name deletes nothing of the first fleet's", async (t) => {
  const name = uniqueName('t');
  const first = testAgent({ name });
  const second = testAgent({ name });
  t.after(async () => {
    await second.dispose();
    await first.dispose();
  });
  await inNamespace(testKubeConfig(), 'agent-fleets', async (ns) => {
    const mine = Array.from({ length: 9 }, (_, i) => aConfigMap(ns, `first-${i}`, { i: String(i) }));
    await commitClusterBranch(first.gitdir, name, mine, 'render: the first fleet\n');
    assert.equal((await first.pass()).fullyApplied, true);

    // The second fleet's branch: its own object, and one of the first fleet's names.
    const theirs = aConfigMap(ns, 'second-0', { x: '1' });
    const clash = aConfigMap(ns, 'first-0', { taken: 'over?' });
    await commitClusterBranch(second.gitdir, name, [theirs, clash], 'render: the second fleet\n');
    const pass = await second.pass({ allowDeletions: true });
    assert.deepEqual(pass.prune?.deleted ?? [], [], 'nothing of the first fleet is deleted');
    for (const o of mine) assert.ok(await first.client.get(refOf(o)), `${o.metadata.name} is still there`);
    const refused = pass.objects.find((o) => o.ref.name === 'first-0');
    assert.equal(refused?.action, 'refused');
    assert.match(
      refused?.message ?? '',
      /managed by another fleet's agent .*gitfleet.io\/fleet=[0-9a-f]{40}/,
    );
    assert.deepEqual(
      ((await first.client.get(refOf(clash)))?.['data'] as Record<string, string>).i,
      '0',
      'not taken over',
    );
    assert.ok(await second.client.get(refOf(theirs)), "the second fleet's own object is applied");

    // The second fleet drops its object: it prunes its own, still nothing of the first's.
    await commitClusterBranch(second.gitdir, name, [], 'render: the second fleet, emptied\n');
    const emptied = await second.pass({ allowDeletions: true });
    assert.deepEqual(
      emptied.prune?.deleted.map((r) => r.name),
      ['second-0'],
    );
    for (const o of mine) assert.ok(await first.client.get(refOf(o)), `${o.metadata.name} is still there`);

    // An object marked before fleet identities is still the first fleet's, and is re-marked.
    kubectl(['label', 'configmap', 'first-1', '-n', ns, `${fleetLabel}-`]);
    await commitClusterBranch(first.gitdir, name, mine.slice(1), 'render: the first fleet, less first-0\n');
    const next = await first.pass();
    assert.deepEqual(
      next.prune?.deleted.map((r) => r.name),
      ['first-0'],
    );
    const remarked = await first.client.get(refOf(mine[1]!));
    assert.match(
      remarked?.metadata.labels?.[fleetLabel] ?? '',
      /^[0-9a-f]{40}$/,
      'first-1 carries the fleet again',
    );
  });
});
