// Fault: someone pushes a commit by hand onto a cluster branch, with an empty tree and the
// trailer "Gitfleet-Allow-Deletions: <cluster>"; the agent took the trailer at its word and
// deleted everything it had applied. Now the allowance counts only on a commit by the hub
// whose source commit the bindings branch records (and which itself allows the deletions).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { clusterBranchRef } from '../../src/loops/agent/agent-repo.js';
import { testGitEnv } from '../git-env.js';
import { aConfigMap, commitAsHub, commitClusterBranch, prefix, refOf, testAgent } from './agent-fixture.js';
import { inNamespace, testKubeConfig } from './test-clusters.js';

test('a hand-pushed empty commit allowing deletions deletes nothing; the same from the hub does', async (t) => {
  const agent = testAgent();
  t.after(() => agent.dispose());
  await inNamespace(testKubeConfig(), 'faults-hand', async (ns) => {
    const objects = Array.from({ length: 12 }, (_, i) => aConfigMap(ns, `cm-${i}`, { i: String(i) }));
    await commitClusterBranch(agent.gitdir, agent.cluster, objects);
    assert.equal((await agent.pass()).fullyApplied, true);

    // What a person does: an empty tree, the trailer, a commit on top of the branch, pushed.
    const git = (args: string[], input = '') =>
      execFileSync('git', args, {
        cwd: agent.gitdir,
        input,
        env: { ...testGitEnv, GIT_AUTHOR_NAME: 'Mallory', GIT_AUTHOR_EMAIL: 'mallory@example.com' },
      })
        .toString('utf8')
        .trim();
    const ref = clusterBranchRef(prefix, agent.cluster);
    const empty = git(['hash-object', '-t', 'tree', '-w', '--stdin']);
    const head = git(['rev-parse', ref]);
    const forged = git([
      'commit-tree',
      empty,
      '-p',
      head,
      '-m',
      `wipe\n\nGitfleet-Allow-Deletions: ${agent.cluster}`,
    ]);
    git(['update-ref', ref, forged, head]);

    const pass = await agent.pass();
    assert.equal(pass.commit, forged);
    assert.deepEqual(pass.prune?.deleted, []);
    assert.match(
      pass.prune?.plan.guardRefusal ?? '',
      new RegExp(
        `^${agent.cluster}: pruning refused: it would delete all 12 objects the agent applied \\(mass-deletion guard\\); the Gitfleet-Allow-Deletions trailer on the branch's head was not honoured: its author is Mallory <mallory@example\\.com>, not the hub \\(gitfleet <hub@gitfleet\\.invalid>\\)`,
      ),
    );
    assert.equal(pass.requests.mutating, 0, 'nothing deleted');
    for (const o of objects) assert.ok(await agent.client.get(refOf(o)), `${o.metadata.name} is still there`);
    const pruned = (await agent.report())?.conditions?.find((c) => c.type === 'Pruned');
    assert.equal(pruned?.reason, 'MassDeletionGuard');
    assert.match(pruned?.message ?? '', /not honoured: its author is Mallory/);

    await commitAsHub(agent.gitdir, agent.cluster, [], 'retire every ConfigMap');
    const allowed = await agent.pass();
    assert.equal(allowed.prune?.deleted.length, 12);
    assert.equal(allowed.fullyApplied, true);
  });
});
