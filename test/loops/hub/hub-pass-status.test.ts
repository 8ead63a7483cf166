// The hub reads the agents' status branches: per-object status is aggregated into the binding
// records (Karmada's aggregatedStatus and FullyApplied), and a new status commit is enough for
// a pass to write again, once.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import yaml from 'js-yaml';
import { statusBranchFiles, type ObjectStatusRecord } from '../../../src/core/status/status-branch.js';
import {
  branchFiles,
  exampleFleetRepo,
  git,
  hubPass,
  removeFleetRepos,
  type FleetRepo,
  commitStatusBranch,
} from './hub-fixture.js';

after(removeFleetRepos);

async function writeStatusBranch(
  repo: FleetRepo,
  cluster: string,
  objects: ObjectStatusRecord[],
): Promise<void> {
  const applied = git(repo, ['rev-parse', `refs/heads/gitfleet/clusters/${cluster}`]).trim();
  const files = statusBranchFiles({
    cluster,
    appliedCommit: applied,
    clusterStatus: { conditions: [{ type: 'Ready', status: 'True' }], kubernetesVersion: 'v1.34.4' },
    objects,
  });
  await commitStatusBranch(repo, cluster, files);
}

test('a status branch is aggregated into the binding records once, and FullyApplied follows it', async () => {
  const repo = exampleFleetRepo({ bare: false });
  assert.equal((await hubPass(repo)).type, 'rendered');
  const web = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' };
  await writeStatusBranch(repo, 'aws-eu-prod', [
    { ref: web, applied: true, health: 'Healthy', status: { readyReplicas: 5 } },
  ]);
  const second = await hubPass(repo);
  assert.equal(second.type, 'rendered', 'a new status commit makes the pass write');
  const record = yaml.load(branchFiles(repo, 'gitfleet/bindings').get('shop/Deployment.apps/web.yaml')!) as {
    status: {
      aggregatedStatus: { clusterName: string; applied: boolean; health: string }[];
      conditions: { type: string; status: string }[];
    };
  };
  const eu = record.status.aggregatedStatus.find((s) => s.clusterName === 'aws-eu-prod');
  assert.deepEqual([eu?.applied, eu?.health], [true, 'Healthy']);
  const us = record.status.aggregatedStatus.find((s) => s.clusterName === 'aws-us-prod');
  assert.deepEqual([us?.applied, us?.health], [false, 'Unknown'], 'no report from aws-us-prod yet');
  assert.equal(record.status.conditions.find((c) => c.type === 'FullyApplied')?.status, 'False');
  const message = git(repo, ['log', '-1', '--format=%B', 'refs/heads/gitfleet/bindings']);
  assert.match(message, /^Gitfleet-Status-Commit: aws-eu-prod=[0-9a-f]{40}$/m);
  assert.equal((await hubPass(repo)).type, 'upToDate', 'the same status is aggregated once');
});
