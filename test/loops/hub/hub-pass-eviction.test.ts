// Graceful eviction across hub passes, on a real repository: an eviction task in a binding
// record is read back by the next pass, which keeps the old copy on the evicted cluster and the
// task in the record, across a restart (a fresh cache), until it is assessed done. The producers
// (taint manager, application failover) are not part of this test: the task is written into the
// bindings branch record as GracefulEvictCluster leaves it (the cluster out of spec.clusters, a
// task in spec.gracefulEvictionTasks), in a commit of its own.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import type { GracefulEvictionTask } from '../../../src/core/model/failover.js';
import { createHubPassCache } from '../../../src/loops/hub/hub-pass-cache.js';
import { statusBranchFiles } from '../../../src/core/status/status-branch.js';
import {
  branchFiles,
  commitChange,
  commitReadyReport,
  commitStatusBranch,
  evictInBindingRecord,
  exampleFleetRepo,
  git,
  hubPass,
  removeFleetRepos,
  rendered,
  type FleetRepo,
} from './hub-fixture.js';

after(removeFleetRepos);

const recordPath = 'shop/Deployment.apps/web.yaml';
const webPath = 'shop/Deployment.apps/web.yaml';
const configPath = 'shop/ConfigMap/web-config.yaml';
const bindings = 'gitfleet/bindings';
/** The fixture hub's clock (hubPass): 2023-11-14T22:15:00.000Z. */
const evictedAt = 1_700_000_100_000;
const at = (ms: number) => () => new Date(ms);

const task: GracefulEvictionTask = {
  fromCluster: 'gcp-eu-prod',
  purgeMode: 'Gracefully',
  replicas: 3,
  reason: 'TaintUntolerated',
  message: 'taint cluster.karmada.io/not-ready:NoExecute not tolerated',
  producer: 'TaintManager',
  gracePeriodSeconds: 600,
  creationTimestamp: new Date(evictedAt).toISOString(),
};

/** Evicts shop/web from gcp-eu-prod in its record, as GracefulEvictCluster would, in a commit of its own. */
function evictInRecord(repo: FleetRepo): void {
  evictInBindingRecord(repo, recordPath, task);
}

/**
 * gcp-eu-prod's agent reports it NotReady, as a cluster one is evicted from usually is: its
 * NoSchedule taint keeps a new schedule off it once the task no longer does.
 */
function reportNotReady(repo: FleetRepo): Promise<void> {
  return commitReadyReport(repo, task.fromCluster, 'False', { appliedCommit: null });
}

function recordedTasks(repo: FleetRepo): unknown {
  const record = yaml.load(branchFiles(repo, bindings).get(recordPath)!) as {
    spec: { gracefulEvictionTasks?: unknown };
  };
  return record.spec.gracefulEvictionTasks;
}

function replicasOn(repo: FleetRepo, cluster: string): number | undefined {
  const text = branchFiles(repo, `gitfleet/clusters/${cluster}`).get(webPath);
  return text === undefined ? undefined : (yaml.load(text) as { spec: { replicas: number } }).spec.replicas;
}

test('an eviction task recorded by one pass is continued by the next, and by a restarted hub, until it times out', async () => {
  const repo = exampleFleetRepo({ bare: false });
  const cache = createHubPassCache();
  rendered(await hubPass(repo, { cache }));
  assert.equal(replicasOn(repo, 'gcp-eu-prod'), 3);
  evictInRecord(repo);
  await reportNotReady(repo);

  // The pass reads the task back: the replicas go to the others, the old copy stays with its ConfigMap.
  const first = rendered(await hubPass(repo, { cache, now: at(evictedAt + 1000) }));
  assert.deepEqual(recordedTasks(repo), [task], 'the record keeps the task');
  assert.equal(replicasOn(repo, 'gcp-eu-prod'), 3, 'the old copy stays, with the replicas it had');
  assert.ok(branchFiles(repo, 'gitfleet/clusters/gcp-eu-prod').has(configPath));
  assert.equal((replicasOn(repo, 'aws-eu-prod') ?? 0) + (replicasOn(repo, 'aws-us-prod') ?? 0), 10);
  assert.equal(first.wakeAt?.toISOString(), new Date(evictedAt + 600_000).toISOString());
  assert.match(
    git(repo, ['log', '-1', '--format=%B', bindings]),
    /^Gitfleet-Wake-At: 2023-11-14T22:25:00.000Z$/m,
  );

  // A later pass of the same hub (a new source commit) continues it.
  commitChange(repo, 'an unrelated change', (work) => writeFileSync(join(work, 'NOTES.md'), 'notes\n'));
  rendered(await hubPass(repo, { cache, now: at(evictedAt + 60_000) }));
  assert.deepEqual(recordedTasks(repo), [task]);
  assert.equal(replicasOn(repo, 'gcp-eu-prod'), 3);

  // A restarted hub (a fresh cache) reads it from the record and continues it.
  commitChange(repo, 'another unrelated change', (work) => writeFileSync(join(work, 'NOTES.md'), 'more\n'));
  rendered(await hubPass(repo, { cache: createHubPassCache(), now: at(evictedAt + 120_000) }));
  assert.deepEqual(recordedTasks(repo), [task]);
  assert.equal(replicasOn(repo, 'gcp-eu-prod'), 3);

  // No change at all, but the recorded wake-at time has come: the task times out, the copy goes.
  const done = rendered(await hubPass(repo, { cache: createHubPassCache(), now: at(evictedAt + 600_000) }));
  assert.equal(recordedTasks(repo), undefined, 'the task is done');
  assert.deepEqual(
    done.decisions?.map((d) => `${d.type} ${d.binding} ${d.cluster} ${d.reason}`),
    ['EvictionDone apps/Deployment/shop/web gcp-eu-prod Timeout'],
  );
  assert.equal(replicasOn(repo, 'gcp-eu-prod'), undefined, 'the old copy left the evicted cluster');
  assert.ok(!branchFiles(repo, 'gitfleet/clusters/gcp-eu-prod').has(configPath));
  assert.match(
    git(repo, ['log', '-1', '--format=%B', bindings]),
    /^Gitfleet-Eviction-Done: Deployment\/shop\/web from gcp-eu-prod: Timeout: /m,
  );
});

test('an eviction task is done once the new clusters report the workload Healthy at their branch heads', async () => {
  const repo = exampleFleetRepo({ bare: false });
  rendered(await hubPass(repo));
  evictInRecord(repo);
  await reportNotReady(repo);
  rendered(await hubPass(repo, { now: at(evictedAt + 1000) }));
  assert.deepEqual(recordedTasks(repo), [task]);
  const web = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' };
  for (const cluster of ['aws-eu-prod', 'aws-us-prod']) {
    const files = statusBranchFiles({
      cluster,
      appliedCommit: git(repo, ['rev-parse', `refs/heads/gitfleet/clusters/${cluster}`]),
      clusterStatus: { conditions: [{ type: 'Ready', status: 'True' }] },
      objects: [{ ref: web, applied: true, health: 'Healthy' }],
    });
    await commitStatusBranch(repo, cluster, files);
  }
  const done = rendered(await hubPass(repo, { now: at(evictedAt + 2000) }));
  assert.deepEqual(
    done.decisions?.map((d) => `${d.type} ${d.cluster} ${d.reason}`),
    ['EvictionDone gcp-eu-prod HealthyOnNewClusters'],
  );
  assert.equal(recordedTasks(repo), undefined);
  assert.equal(replicasOn(repo, 'gcp-eu-prod'), undefined);
});
