// --status-record-interval (status-record-gap.ts): a pass whose only news is moved status
// branches waits until that long after the last bindings commit, so the hub's records of statuses
// cost the fleet repository at most one push a gap; a new source commit is rendered at once.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { statusBranchFiles } from '../../../src/core/status/status-branch.js';
import { createHubPassCache } from '../../../src/loops/hub/hub-pass-cache.js';
import {
  commitStatusBranch,
  exampleFleetRepo,
  git,
  hubPass,
  removeFleetRepos,
  type FleetRepo,
} from './hub-fixture.js';

after(removeFleetRepos);

const t0 = 1_700_000_100_000;
const gapMs = 30_000;

async function reportApplied(repo: FleetRepo, cluster: string): Promise<void> {
  const applied = git(repo, ['rev-parse', `refs/heads/gitfleet/clusters/${cluster}`]).trim();
  const files = statusBranchFiles({
    cluster,
    appliedCommit: applied,
    clusterStatus: { conditions: [{ type: 'Ready', status: 'True' }], kubernetesVersion: 'v1.34.4' },
    objects: [],
  });
  await commitStatusBranch(repo, cluster, files);
}

const bindingsHead = (repo: FleetRepo) => git(repo, ['rev-parse', 'refs/heads/gitfleet/bindings']).trim();

test('moved statuses alone wait for the gap after the last bindings commit, then are recorded in one commit', async () => {
  const repo = exampleFleetRepo({ bare: false });
  const cache = createHubPassCache();
  const at = (ms: number) => ({ cache, statusRecordGapMs: gapMs, now: () => new Date(t0 + ms) });
  assert.equal((await hubPass(repo, at(0))).type, 'rendered', 'a new source commit is not held');
  const first = bindingsHead(repo);
  await reportApplied(repo, 'aws-eu-prod');
  const held = await hubPass(repo, at(10_000));
  assert.equal(held.type, 'upToDate', 'a status 10 s after the record waits');
  assert.equal(held.type === 'upToDate' ? held.wakeAt?.getTime() : undefined, t0 + gapMs);
  assert.equal(bindingsHead(repo), first, 'nothing pushed');
  await reportApplied(repo, 'aws-us-prod');
  assert.equal((await hubPass(repo, at(29_000))).type, 'upToDate');
  assert.equal((await hubPass(repo, at(30_000))).type, 'rendered', 'the gap is over: recorded');
  const message = git(repo, ['log', '-1', '--format=%B', 'refs/heads/gitfleet/bindings']);
  assert.match(message, /^Gitfleet-Status-Commit: aws-eu-prod=[0-9a-f]{40}$/m);
  assert.match(message, /^Gitfleet-Status-Commit: aws-us-prod=[0-9a-f]{40}$/m, 'both statuses in one commit');
  assert.equal(git(repo, ['rev-parse', 'refs/heads/gitfleet/bindings~1']).trim(), first);
});

test('a new source commit within the gap is rendered at once, statuses with it', async () => {
  const repo = exampleFleetRepo({ bare: false });
  const cache = createHubPassCache();
  const at = (ms: number) => ({ cache, statusRecordGapMs: gapMs, now: () => new Date(t0 + ms) });
  assert.equal((await hubPass(repo, at(0))).type, 'rendered');
  await reportApplied(repo, 'aws-eu-prod');
  assert.equal((await hubPass(repo, at(5_000))).type, 'upToDate');
  git(repo, [
    '-c',
    'user.name=t',
    '-c',
    'user.email=t@example.com',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'next',
  ]);
  assert.equal((await hubPass(repo, at(6_000))).type, 'rendered', 'a push is not paced by the gap');
  const message = git(repo, ['log', '-1', '--format=%B', 'refs/heads/gitfleet/bindings']);
  assert.match(message, /^Gitfleet-Status-Commit: aws-eu-prod=[0-9a-f]{40}$/m);
});

test('without the gap a moved status is recorded by the next pass, as before', async () => {
  const repo = exampleFleetRepo({ bare: false });
  const cache = createHubPassCache();
  const at = (ms: number) => ({ cache, now: () => new Date(t0 + ms) });
  assert.equal((await hubPass(repo, at(0))).type, 'rendered');
  await reportApplied(repo, 'aws-eu-prod');
  assert.equal((await hubPass(repo, at(1_000))).type, 'rendered');
});
