// What the agent's return handshake (core/apply-plan/return-gate.ts) relies on from the hub: a
// status commit that only says "pruning waits for the hub" is a new status head, so the hub's
// next pass writes a bindings commit naming it (Gitfleet-Status-Commit) and the cluster branch
// it rendered (Gitfleet-Cluster-Commit): the agent reads that as the hub's answer. No commit of
// the hub's own is needed for it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { statusBranchFiles } from '../../../src/core/status/status-branch.js';
import { readHubRecord } from '../../../src/loops/agent/read-hub-record.js';
import { commitStatusBranch, exampleFleetRepo, git, hubPass, removeFleetRepos } from './hub-fixture.js';

after(removeFleetRepos);

test("a hub pass answers an agent's waiting report with a bindings commit naming it", async () => {
  const repo = exampleFleetRepo({ bare: false });
  assert.equal((await hubPass(repo)).type, 'rendered');
  const cluster = 'aws-eu-prod';
  const applied = git(repo, ['rev-parse', `refs/heads/gitfleet/clusters/${cluster}`]).trim();
  await commitStatusBranch(
    repo,
    cluster,
    statusBranchFiles({
      cluster,
      appliedCommit: null,
      clusterStatus: { conditions: [{ type: 'Ready', status: 'True' }] },
      objects: [],
      conditions: [
        {
          type: 'Pruned',
          status: 'False',
          reason: 'WaitingForHub',
          message: `2 deletion(s) held: ${cluster}: pruning waits for the hub since 2026-12-04T18:00:00.000Z: the agent (re)started; deletions are held until the hub renders from this report or a later one (at most 300s)`,
        },
      ],
    }),
  );
  const report = git(repo, ['rev-parse', `refs/heads/gitfleet/status/${cluster}`]).trim();
  const at = { gitdir: repo.gitdir, branchPrefix: 'gitfleet/', cluster, report, applied };
  assert.equal((await readHubRecord(at)).readsReport, false, 'not before the hub ran');

  assert.equal((await hubPass(repo)).type, 'rendered', 'the new status head makes the pass write');
  assert.deepEqual(await readHubRecord(at), { readsReport: true, renderedApplied: true });
});
