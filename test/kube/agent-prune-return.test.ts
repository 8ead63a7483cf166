// The return handshake (docs/failover.md#a-returning-cluster): an agent whose cluster the hub
// judged down restarts on a branch the hub emptied by eviction. It applies, but deletes nothing
// until the hub's bindings head names the Ready report it wrote on its return (or a later one);
// then it converges on what that pass rendered. With its timeout it prunes after the timeout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAgentMemory } from '../../src/loops/agent/agent-memory.js';
import { systemClock, type Clock } from '../../src/loops/runtime/clock.js';
import { aConfigMap, commitClusterBranch, refOf, testAgent, type TestAgent } from './agent-fixture.js';
import { commitBindings } from '../support/cluster-branch.js';
import { inNamespace, testKubeConfig } from './test-clusters.js';

/** A clock whose "now" the test sets; its timers are the system's (the pass waits on nothing here). */
function settableClock(start: number): Clock & { set(ms: number): void } {
  let now = start;
  return { ...systemClock(), now: () => now, set: (ms) => void (now = ms) };
}

async function uidOf(agent: TestAgent, o: ReturnType<typeof aConfigMap>): Promise<string | undefined> {
  const uid = (await agent.client.get(refOf(o)))?.metadata.uid;
  return typeof uid === 'string' ? uid : undefined;
}

test('a returning agent deletes nothing the hub evicted until the hub has read its Ready report, then converges', async (t) => {
  const agent = testAgent();
  t.after(() => agent.dispose());
  await inNamespace(testKubeConfig(), 'agent-return', async (ns) => {
    const [a, b, c] = ['a', 'b', 'c'].map((n) => aConfigMap(ns, n, { n }));
    await commitClusterBranch(agent.gitdir, agent.cluster, [a!, b!, c!]);
    assert.equal((await agent.pass()).fullyApplied, true);
    const uid = await uidOf(agent, b!);

    // The cluster went quiet: the hub judged it Unknown and evicted b and c from its branch.
    const evicted = await commitClusterBranch(agent.gitdir, agent.cluster, [a!]);
    await commitBindings(agent.gitdir, {
      cluster: agent.cluster,
      status: await agent.statusHead(),
      clusterCommit: evicted,
      judged: 'Unknown',
    });

    // The agent comes back without memory (a restart of the loop).
    const memory = createAgentMemory();
    const clock = settableClock(1_800_000_000_000);
    const back = { memory, clock, returnOnStart: true };
    const waiting = await agent.pass(back);
    assert.deepEqual(waiting.prune?.plan.held.map((h) => [h.ref.name, h.reason]).sort(), [
      ['b', 'WaitingForHub'],
      ['c', 'WaitingForHub'],
    ]);
    assert.deepEqual(waiting.prune?.deleted, []);
    assert.match(waiting.returnNotice ?? '', /pruning waits for the hub since .*: the agent \(re\)started/);
    const pruned = (await agent.report())?.conditions?.find((cond) => cond.type === 'Pruned');
    assert.equal(pruned?.reason, 'WaitingForHub');
    assert.match(pruned?.message ?? '', /^2 deletion\(s\) held: /);
    const report = await agent.statusHead();
    assert.ok(report && waiting.status.commit === report, 'the wait is reported in a status commit');

    const again = await agent.pass(back);
    assert.equal(again.requests.mutating, 0, 'still waiting: nothing deleted, nothing written');
    assert.equal(again.status.type, 'unchanged');
    // Killed and run again as `agent --once` (no return on start): its last report still says
    // it waits, so it goes on waiting, with the same start and the same report.
    const once = await agent.pass({ memory: createAgentMemory(), clock });
    assert.deepEqual(
      once.prune?.plan.held.map((h) => h.reason),
      ['WaitingForHub', 'WaitingForHub'],
    );
    assert.equal(once.status.type, 'unchanged', 'the same report');

    // The hub reads that report: the cluster is Ready, b comes back, c stays evicted.
    const rendered = await commitClusterBranch(agent.gitdir, agent.cluster, [a!, b!]);
    await commitBindings(agent.gitdir, { cluster: agent.cluster, status: report, clusterCommit: rendered });
    const converged = await agent.pass(back);
    assert.deepEqual(
      converged.prune?.deleted.map((r) => r.name),
      ['c'],
    );
    assert.match(converged.returnNotice ?? '', /the hub rendered from status commit .* pruning resumes/);
    assert.equal(await uidOf(agent, b!), uid, 'b was never deleted and recreated');
    assert.equal(converged.fullyApplied, true);

    // The return is over: a later removal is pruned at once.
    await commitClusterBranch(agent.gitdir, agent.cluster, [a!]);
    const later = await agent.pass(back);
    assert.deepEqual(
      later.prune?.deleted.map((r) => r.name),
      ['b'],
    );
  });
});

test('with no answer from the hub, a returning agent prunes after its timeout and says so', async (t) => {
  const agent = testAgent();
  t.after(() => agent.dispose());
  await inNamespace(testKubeConfig(), 'agent-return-timeout', async (ns) => {
    const [a, b] = ['a', 'b'].map((n) => aConfigMap(ns, n, { n }));
    await commitClusterBranch(agent.gitdir, agent.cluster, [a!, b!]);
    assert.equal((await agent.pass()).fullyApplied, true);
    await commitClusterBranch(agent.gitdir, agent.cluster, [a!]);
    await commitBindings(agent.gitdir, {
      cluster: agent.cluster,
      status: await agent.statusHead(),
      judged: 'Unknown',
    });

    const clock = settableClock(1_800_000_000_000);
    const back = { memory: createAgentMemory(), clock, returnOnStart: true, returnPruneTimeoutMs: 60_000 };
    const waiting = await agent.pass(back);
    assert.deepEqual(
      waiting.prune?.plan.held.map((h) => h.reason),
      ['WaitingForHub'],
    );
    clock.set(1_800_000_000_000 + 59_000);
    assert.deepEqual((await agent.pass(back)).prune?.deleted, [], 'not before the timeout');
    assert.ok(await agent.client.get(refOf(b!)));

    clock.set(1_800_000_000_000 + 60_000);
    const late = await agent.pass(back);
    assert.deepEqual(
      late.prune?.deleted.map((r) => r.name),
      ['b'],
    );
    assert.match(
      late.returnNotice ?? '',
      /pruning waited 60s for the hub .* no longer waits \(the 60s timeout\); pruning as before/,
    );
  });
});
