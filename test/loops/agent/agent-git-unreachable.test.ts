// Git unreachable, with the cluster on the fake: the agent's repository is a real remote
// (a git server over smart HTTP) that stops, or a TCP server that accepts and never answers.
// The agent keeps the cluster as it is (drift is still corrected from the branch as last
// fetched, nothing is deleted), writes no status it could not push, remembers the outage and
// reports it once Git answers again; its loop retries with backoff on the fake clock.
import { after, test } from 'node:test';
import { basename, dirname } from 'node:path';
import assert from 'node:assert/strict';
import { parseStatusBranch } from '../../../src/core/status/status-branch.js';
import { statusBranchRef } from '../../../src/loops/agent/agent-repo.js';
import { readStatusFiles } from '../../../src/loops/agent/write-status-branch.js';
import { agentMirrorOf, serveFleet } from '../../adapters/remote/remote-fixture.js';
import { startSilentServer } from '../../git-server/start-faulty-proxy.js';
import { startGitServer } from '../../git-server/start-git-server.js';
import { commitBindings, commitClusterBranch, prefix } from '../../support/cluster-branch.js';
import { eventually } from '../../support/eventually.js';
import { aConfigMap, aNamespace } from '../../support/kube-objects.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';
import { fakeAgent, startFakeLoop } from './fake-agent.js';

after(removeTempDirs);

/** Short limits, so a silent server fails a refresh quickly; they bound the test, they are not asserted on. */
const timeouts = { connectMs: 2_000, idleMs: 300 };
/** A stopped server refuses at once: the passes against a live one get limits a busy machine does not reach. */
const patient = { connectMs: 10_000, idleMs: 30_000 };

const web = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'web' };
const settings = { ...web, name: 'settings' };

test('with its git server stopped, the agent keeps the cluster as it is, deletes nothing, and reports the outage once back', async (t) => {
  const fleet = await serveFleet();
  t.after(() => fleet.server.close().catch(() => undefined));
  const repo = agentMirrorOf({ url: fleet.url, cacheDir: fleet.cacheDir, timeouts: patient });
  const agent = fakeAgent({ repo });
  const objects = [
    aNamespace('shop'),
    aConfigMap('shop', 'web', { a: '1' }),
    aConfigMap('shop', 'settings', { a: '1' }),
  ];
  await commitClusterBranch(fleet.served, 'm1', objects);
  const first = await agent.pass();
  assert.equal(first.fullyApplied, true);
  // The hub removes settings, but the agent will not hear of it: the server stops.
  await commitClusterBranch(fleet.served, 'm1', objects.slice(0, 2));
  await fleet.server.close();
  agent.fake.edit(web, (o) => {
    o['data'] = { a: 'edited by hand' };
  });
  const before = agent.fake.mutations().length;

  const down = await agent.pass();

  assert.equal(down.gitReachable, false);
  assert.equal(down.prune, undefined, 'nothing is pruned on the word of a branch that may be stale');
  assert.equal(down.status.type, 'skipped', 'no status is written while it cannot be pushed');
  assert.deepEqual(
    agent.fake.mutations().slice(before),
    ['apply v1/ConfigMap/shop/web', 'apply v1/ConfigMap/gitfleet-system/gitfleet-inventory-m1'],
    'only the drift is corrected (and the version it wrote recorded): no delete',
  );
  assert.deepEqual((agent.fake.peek(web)?.['data'] as Record<string, string>).a, '1');
  assert.ok(agent.fake.peek(settings), 'settings is still there');
  assert.equal(agent.memory.git.failures, 1);
  assert.match(agent.memory.git.lastError ?? '', /./);
  agent.clock.advance(90_000);
  await agent.pass();
  assert.equal(agent.memory.git.failures, 2);

  // Back: a server on the same repository (another port, so another URL: a new mirror).
  const back = agentMirrorOf({
    url: (await serveFleetAgain(fleet.served, t)).url,
    cacheDir: fleet.cacheDir,
    timeouts: patient,
  });
  const recovered = await agent.pass({ repo: back });
  assert.equal(recovered.gitReachable, true);
  // Out of Git for longer than the lease: the hub may have judged it down and evicted, so the
  // deletion waits until the hub has read its report (the return handshake).
  assert.deepEqual(
    recovered.prune?.plan.held.map((h) => [h.ref.name, h.reason]),
    [['settings', 'WaitingForHub']],
    'not yet pruned',
  );
  assert.match(recovered.returnNotice ?? '', /its heartbeat could not be pushed for 90s/);
  await commitBindings(fleet.served, {
    cluster: 'm1',
    status: recovered.status.commit ?? null,
    clusterCommit: recovered.commit,
  });
  const acknowledged = await agent.pass({ repo: back });
  assert.deepEqual(
    acknowledged.prune?.deleted.map((r) => r.name),
    ['settings'],
    'now it is pruned',
  );
  // The report reached the remote.
  const report = parseStatusBranch(await readStatusFiles(fleet.served, statusBranchRef(prefix, 'm1')));
  const outage = report?.conditions?.find((c) => c.type === 'GitReachable');
  assert.match(outage?.message ?? '', /unreachable for 1m30s \(2 failed refreshes/);
});

test('a remote that accepts and never answers: the loop retries with backoff on the fake clock and writes nothing', async (t) => {
  const silent = await startSilentServer();
  t.after(() => silent.close());
  const repo = agentMirrorOf({ url: silent.url('fleet.git'), cacheDir: tempDir('cache'), timeouts });
  const agent = fakeAgent({ repo });
  const { results, stop } = startFakeLoop(agent, { watchDrift: false });
  t.after(stop);

  await eventually(() => results.length === 1, 'the first pass');
  await eventually(() => agent.clock.pending().length === 1, 'the retry to be scheduled');
  assert.deepEqual(agent.clock.pending(), [1_000], 'the first retry after the base delay');
  agent.clock.advance(999);
  assert.deepEqual(agent.clock.pending(), [1], 'not before');
  agent.clock.advance(1);
  await eventually(() => results.length === 2, 'the second pass');
  await eventually(() => agent.clock.pending().length === 1, 'the next retry to be scheduled');
  assert.deepEqual(agent.clock.pending(), [2_000], 'then twice as long');

  assert.ok(silent.accepted >= 2, 'each pass tried the remote');
  assert.ok(results.every((r) => !r.gitReachable && r.type === 'noBranch' && r.status.type === 'skipped'));
  assert.deepEqual(agent.fake.mutations(), [], 'nothing was written to the cluster');
  assert.equal(agent.memory.git.failures, 2);
});

/** Serves the same repository again from a new server; returns its URL. */
async function serveFleetAgain(
  served: string,
  t: { after: (fn: () => Promise<void>) => void },
): Promise<{ url: string }> {
  const server = await startGitServer({ root: dirname(served) });
  t.after(() => server.close());
  return { url: server.url(basename(served)) };
}
