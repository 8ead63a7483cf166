// Endpoint churn on the exporting side, in the agent loop on the fake cluster and the fake
// clock: a change of an exported Service's EndpointSlice asks for a pass after the coalescing
// window (agent --export-coalesce), so a burst of changes (pods restarting) gives one pass and
// one status commit; a slice of a Service nobody exports asks for nothing. (Karmada reports
// every event at once, pkg/controllers/mcs/service_export_controller.go; coalescing is
// gitfleet's, since every report is a commit.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readRef } from '../../../src/adapters/git/read-ref.js';
import { readGitObject } from '../../../src/adapters/git/read-git-object.js';
import { statusBranchRef } from '../../../src/loops/agent/agent-repo.js';
import { commitClusterBranch, prefix } from '../../support/cluster-branch.js';
import { eventually } from '../../support/eventually.js';
import { aNamespace } from '../../support/kube-objects.js';
import { fakeAgent, startFakeLoop, type FakeAgent } from './fake-agent.js';
import { aService, aServiceExport, anEndpointSlice, serviceExportCrd } from './exports-fixture.js';

/** Returns how many commits the status branch has. */
async function statusCommits(agent: FakeAgent): Promise<number> {
  let count = 0;
  let oid = await readRef(agent.gitdir, statusBranchRef(prefix, agent.cluster));
  while (oid) {
    count++;
    const text = Buffer.from((await readGitObject({ gitdir: agent.gitdir }, oid)).content).toString('utf8');
    oid = /^parent ([0-9a-f]{40})$/m.exec(text)?.[1] ?? null;
  }
  return count;
}

test('a burst of endpoint changes within the window gives one pass and one status commit', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    serviceExportCrd(),
    aNamespace('shop'),
    aService('shop', 'web'),
    aServiceExport('shop', 'web'),
    aService('shop', 'db'),
  ]);
  agent.fake.put(anEndpointSlice('shop', 'web', 'web-a', ['10.0.0.1']));
  const { results, stop } = startFakeLoop(agent, { exportCoalesceMs: 2000 });
  t.after(stop);
  await eventually(() => results.length === 1, 'the first pass');
  // The drift watches (CRD, Namespace, Service, ServiceExport) and the one on EndpointSlices.
  await eventually(() => agent.fake.openWatches() === 5, 'the watches');
  assert.deepEqual(agent.clock.pending(), []);
  assert.equal(await statusCommits(agent), 1);

  agent.fake.put(anEndpointSlice('shop', 'db', 'db-a', ['10.0.9.1']));
  await agent.fake.deliverEvents();
  assert.deepEqual(agent.clock.pending(), [], 'a slice of a Service nobody exports asks for nothing');

  for (const [i, addresses] of [['10.0.0.2'], ['10.0.0.2', '10.0.0.3'], ['10.0.0.3', '10.0.0.4']].entries()) {
    agent.fake.put(anEndpointSlice('shop', 'web', 'web-a', addresses));
    await agent.fake.deliverEvents();
    assert.deepEqual(agent.clock.pending(), [2000 - i * 500], 'one pass, at the end of the first window');
    agent.clock.advance(500);
  }
  agent.clock.advance(499);
  assert.equal(results.length, 1, 'no pass before the window ends');
  agent.clock.advance(1);
  await eventually(() => results.length === 2, 'the coalesced pass');
  assert.equal(results[1]?.status.type, 'written');
  assert.equal(await statusCommits(agent), 2);
  const report = await agent.report();
  assert.deepEqual(
    report?.exports?.[0]?.endpoints.map((e) => e.addresses[0]),
    ['10.0.0.3', '10.0.0.4'],
  );
});

test('the watch on EndpointSlices stops when no Service is exported any more', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  const objects = [serviceExportCrd(), aNamespace('shop'), aService('shop', 'web')];
  await commitClusterBranch(agent.gitdir, agent.cluster, [...objects, aServiceExport('shop', 'web')]);
  const { results, stop } = startFakeLoop(agent, { exportCoalesceMs: 1000 });
  t.after(stop);
  await eventually(
    () => results.length === 1 && agent.fake.openWatches() === 5,
    'the first pass and its watches',
  );
  await commitClusterBranch(agent.gitdir, agent.cluster, objects);
  agent.fake.put(anEndpointSlice('shop', 'web', 'web-a', ['10.0.0.1']));
  await eventually(() => agent.clock.pending().length === 1, 'the change');
  agent.clock.advance(1000);
  await eventually(() => results.length === 2, 'the pass after the ServiceExport left');
  assert.deepEqual(results[1]?.exportedServices, []);
  await eventually(() => agent.fake.openWatches() === 3, 'the drift watches only');
  // The prune of the ServiceExport was seen by its drift watch: that pass first.
  await agent.fake.deliverEvents();
  agent.clock.advance(500);
  await eventually(() => results.length === 3, 'the pass after the prune');
  await agent.fake.deliverEvents();
  assert.deepEqual(agent.clock.pending(), []);
  agent.fake.put(anEndpointSlice('shop', 'web', 'web-a', ['10.0.0.2']));
  await agent.fake.deliverEvents();
  assert.deepEqual(agent.clock.pending(), []);
});
