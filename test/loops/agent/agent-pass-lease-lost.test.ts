// A pass whose Lease is lost midway (docs/production.md#one-agent-per-cluster): the loop aborts
// the pass's signal the moment it notices; from there the pass sends no request to the cluster,
// stops at the next object, and writes no status. Here the signal is aborted from the progress
// callback, after a chosen number of objects, so the test knows exactly where the loss fell.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NotLeading } from '../../../src/loops/runtime/while-leading.js';
import { commitClusterBranch } from '../../support/cluster-branch.js';
import { aConfigMap, aNamespace } from '../../support/kube-objects.js';
import { fakeAgent } from './fake-agent.js';

const names = Array.from({ length: 60 }, (_, i) => `c${i}`);
/** The branch's ConfigMaps, not the agent's inventory. */
const isBranchConfigMap = (key: string) => /ConfigMap.*shop.*\bc\d+$/.test(key);

test('a pass whose Lease is lost after 20 objects sends nothing more, applies no further object and writes no status', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    aNamespace('shop'),
    ...names.map((n) => aConfigMap('shop', n, { n })),
  ]);
  const term = new AbortController();
  let callsAtLoss = -1;
  const pass = agent.pass({
    signal: term.signal,
    progress: (done) => {
      if (done !== 20) return;
      term.abort();
      callsAtLoss = agent.fake.calls.length;
    },
  });
  await assert.rejects(pass, (error: unknown) => {
    assert.ok(error instanceof NotLeading, String(error));
    assert.match(error.message, /^agent m1: lost its Lease during the pass .*: /);
    return true;
  });
  assert.deepEqual(agent.fake.calls.slice(callsAtLoss), [], 'no request after the loss');
  const applied = agent.fake.keys().filter(isBranchConfigMap);
  // The namespace stage first, then the ConfigMaps four at a time (concurrency 4): the loss
  // falls after the 20th object, with at most three more already under way.
  assert.ok(applied.length >= 19 && applied.length <= 22, `${applied.length} ConfigMaps applied`);
  assert.equal(await agent.report(), undefined, 'no status written');
});

test('the same pass, its Lease kept, applies every object and writes its status', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    aNamespace('shop'),
    ...names.map((n) => aConfigMap('shop', n, { n })),
  ]);
  const result = await agent.pass({ signal: new AbortController().signal });
  assert.equal(result.fullyApplied, true);
  assert.equal(agent.fake.keys().filter(isBranchConfigMap).length, 60);
  assert.ok(await agent.report(), 'status written');
});

test('a Lease lost after the objects are applied stops the pass before prune and the status write', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, [aNamespace('shop'), aConfigMap('shop', 'a', {})]);
  const term = new AbortController();
  const pass = agent.pass({ signal: term.signal, progress: (done, total) => done === total && term.abort() });
  await assert.rejects(pass, /wrote no status/);
  assert.equal(await agent.report(), undefined);
});
