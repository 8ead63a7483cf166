// The agent and its Git repository: while Git cannot be reached the agent keeps the last
// applied state (it still corrects drift) and deletes nothing, and once Git answers it prunes
// and reports how long Git was away; a tombstoned branch stops the agent and deletes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { localAgentRepo, type AgentRepo } from '../../src/loops/agent/agent-repo.js';
import { tombstoneText } from '../../src/core/publish/tombstone.js';
import { aConfigMap, commitClusterBranch, kubectl, makeBareRepo, refOf, testAgent } from './agent-fixture.js';
import { inNamespace, testKubeConfig } from './test-clusters.js';

/** A local repository whose refresh fails while `down` is set, as a remote that cannot be reached. */
function flakyRepo(dir: string): AgentRepo & { down: boolean } {
  const local = localAgentRepo(dir);
  const repo = {
    ...local,
    down: false,
    refresh: () =>
      repo.down ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:9')) : Promise.resolve(),
  };
  return repo;
}

test('while Git is unreachable the agent corrects drift, deletes nothing and writes no status; then it catches up and says for how long', async (t) => {
  const bare = makeBareRepo();
  const repo = flakyRepo(bare.dir);
  const agent = testAgent({ repo });
  t.after(async () => {
    await agent.dispose();
    bare.dispose();
  });
  await inNamespace(testKubeConfig(), 'agent-git', async (ns) => {
    const objects = ['a', 'b', 'c'].map((n) => aConfigMap(ns, n, { n }));
    await commitClusterBranch(agent.gitdir, agent.cluster, objects);
    assert.equal((await agent.pass()).fullyApplied, true);
    const statusHead = await agent.statusHead();

    // The mirror still holds the branch as last fetched: here, a newer commit without `c` that
    // the agent must not act on while it cannot tell whether it is current.
    await commitClusterBranch(agent.gitdir, agent.cluster, objects.slice(0, 2));
    repo.down = true;
    kubectl(['patch', 'configmap', 'a', '-n', ns, '--type=merge', '-p', '{"data":{"n":"by-hand"}}']);
    const offline = await agent.pass();
    assert.equal(offline.gitReachable, false);
    assert.equal(offline.prune, undefined, 'no prune without Git');
    assert.equal(offline.status.type, 'skipped');
    assert.equal(offline.objects.find((o) => o.ref.name === 'a')?.action, 'driftCorrected');
    assert.ok(await agent.client.get(refOf(objects[2]!)), 'c is still there');
    assert.equal(await agent.statusHead(), statusHead, 'no status commit');
    assert.equal((await agent.pass()).gitReachable, false);

    repo.down = false;
    const back = await agent.pass();
    assert.equal(back.gitReachable, true);
    assert.deepEqual(
      back.prune?.deleted.map((r) => r.name),
      ['c'],
    );
    const condition = (await agent.report())?.conditions?.find((c) => c.type === 'GitReachable');
    assert.match(
      condition?.message ?? '',
      /was unreachable for \d+s \(2 failed refreshes, last: connect ECONNREFUSED .*\); the agent kept the last applied state and deleted nothing meanwhile/,
    );
  });
});

test('a tombstoned branch stops the agent: nothing is applied or deleted, and the status says so', async (t) => {
  const agent = testAgent();
  t.after(() => agent.dispose());
  await inNamespace(testKubeConfig(), 'agent-tomb', async (ns) => {
    const objects = [aConfigMap(ns, 'a', { n: 'a' }), aConfigMap(ns, 'b', { n: 'b' })];
    await commitClusterBranch(agent.gitdir, agent.cluster, objects);
    assert.equal((await agent.pass()).fullyApplied, true);
    const tomb = await commitClusterBranch(agent.gitdir, agent.cluster, [], 'tombstone: cluster removed\n', {
      '.gitfleet/tombstone.yaml': tombstoneText(agent.cluster),
    });
    const pass = await agent.pass();
    assert.equal(pass.type, 'tombstoned');
    assert.equal(pass.requests.mutating, 0);
    for (const o of objects)
      assert.ok(await agent.client.get(refOf(o)), `${o.metadata.name} is left in place`);
    const report = await agent.report();
    assert.equal(report?.conditions?.[0]?.type, 'Tombstoned');
    const subject = execFileSync('git', [
      '--git-dir',
      agent.gitdir,
      'log',
      '-1',
      '--format=%s',
      `refs/heads/gitfleet/status/${agent.cluster}`,
    ]).toString();
    assert.match(
      subject,
      new RegExp(`branch tombstoned at ${tomb.slice(0, 7)}; applying stopped, nothing deleted`),
    );
  });
});
