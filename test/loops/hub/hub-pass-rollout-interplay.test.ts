// A rollout meets the rest of the hub (docs/rollout.md#interplay): failover moving replicas,
// a cluster removed from the fleet (its tombstone), and the mass-deletion guard. The bundled
// example and its shop/web rollout, gcp-eu-prod first (rollout-fixture.ts).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GracefulEvictionTask } from '../../../src/core/model/failover.js';
import {
  branchFiles,
  commitChange,
  evictInBindingRecord,
  git,
  hubPass,
  removeFleetRepos,
  rendered,
} from './hub-fixture.js';
import {
  at,
  canary,
  fleetWithStrategy,
  imageOn,
  record,
  replicasOn,
  setImage,
  strategy,
  t0,
  webPath,
} from './rollout-fixture.js';

after(removeFleetRepos);

test('an eviction during a rollout moves the replicas at once: the held cluster gets them with the content it runs', async () => {
  const repo = await fleetWithStrategy(strategy());
  commitChange(repo, 'web 1.9.0', (work) => setImage(work, '1.9.0'));
  rendered(await hubPass(repo, { now: at(t0) }));
  assert.deepEqual(
    [imageOn(repo, canary), imageOn(repo, 'aws-eu-prod'), imageOn(repo, 'aws-us-prod')],
    ['1.9.0', '1.8.0', '1.8.0'],
  );
  const task: GracefulEvictionTask = {
    fromCluster: 'aws-us-prod',
    purgeMode: 'Gracefully',
    replicas: 2,
    reason: 'TaintUntolerated',
    message: 'taint cluster.karmada.io/not-ready:NoExecute not tolerated',
    producer: 'TaintManager',
    gracePeriodSeconds: 600,
    creationTimestamp: new Date(t0).toISOString(),
  };
  evictInBindingRecord(repo, webPath, task);
  rendered(await hubPass(repo, { now: at(t0 + 1_000) }));
  // The 10 replicas are on aws-eu-prod (held: the old image) and gcp-eu-prod (moved: the new one).
  assert.equal((replicasOn(repo, 'aws-eu-prod') ?? 0) + (replicasOn(repo, canary) ?? 0), 10);
  assert.ok(replicasOn(repo, 'aws-eu-prod')! > 5, 'aws-eu-prod got more replicas');
  assert.equal(imageOn(repo, 'aws-eu-prod'), '1.8.0', 'with the content it runs');
  assert.equal(imageOn(repo, canary), '1.9.0');
  assert.equal(imageOn(repo, 'aws-us-prod'), '1.8.0', 'the evicted copy stays until the task is done');
  assert.equal(record(repo)!.phase, 'Progressing');
});

test('a cluster removed from the fleet during a rollout gets its tombstone, and leaves the rollout', async () => {
  const repo = await fleetWithStrategy(strategy());
  commitChange(repo, 'web 1.9.0', (work) => setImage(work, '1.9.0'));
  rendered(await hubPass(repo, { now: at(t0) }));
  commitChange(repo, 'retire aws-us-prod', (work) => rmSync(join(work, 'clusters/aws-us-prod.yaml')));
  const pass = rendered(await hubPass(repo, { now: at(t0 + 1_000) }));
  assert.equal(pass.clusters['aws-us-prod']!.type, 'tombstoned');
  const state = record(repo)!;
  assert.deepEqual(
    state.clusters.map((c) => c.name),
    ['aws-eu-prod', 'gcp-eu-prod'],
  );
  assert.equal(
    state.revision,
    git(repo, ['rev-parse', 'HEAD~1']).trim(),
    'removing a cluster is not a new change',
  );
  assert.equal(imageOn(repo, 'aws-eu-prod'), '1.8.0', 'still held');
});

test('the mass-deletion guard still judges every branch: a refused canary holds the rollout at step 1', async () => {
  const repo = await fleetWithStrategy(strategy());
  commitChange(repo, 'a strict guard', (work) => {
    const file = join(work, 'fleet.yaml');
    writeFileSync(
      file,
      'apiVersion: gitfleet.io/v1alpha1\nkind: FleetConfig\nmetadata: {name: fleet}\nspec:\n  skippedNamespaces: ["kube-.*"]\n  branchPrefix: gitfleet/\n  guards: {maxDeleteFraction: 0.01, minObjects: 0}\n',
    );
  });
  rendered(await hubPass(repo, { now: at(t0) }));
  // The bump comes with the removal of the Service shop/web from every cluster: refused everywhere.
  commitChange(repo, 'web 1.9.0 without its Service', (work) => {
    setImage(work, '1.9.0');
    const file = join(work, 'apps/shop/web.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(/---\napiVersion: v1\nkind: Service[\s\S]*?(?=---\n)/, ''),
    );
  });
  const pass = rendered(await hubPass(repo, { now: at(t0 + 1_000) }));
  assert.equal(pass.clusters[canary]!.type, 'refused');
  assert.ok(pass.diagnostics.some((d) => d.code === 'DeletionRefused' && d.cluster === canary));
  assert.equal(imageOn(repo, canary), '1.8.0', 'the refused canary keeps its last good commit');
  assert.ok(branchFiles(repo, `gitfleet/clusters/${canary}`).has('shop/Service/web.yaml'));
  const state = record(repo)!;
  assert.equal(state.phase, 'Progressing');
  assert.equal(state.step, 1, 'nothing passes a gate the canary never reached');
  assert.match(state.message ?? '', /gcp-eu-prod: its branch does not run the revision yet/);
});
